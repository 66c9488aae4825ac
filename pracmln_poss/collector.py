"""The cyclic garbage collector, paused while acyclic data piles up.

Reading a large theory and filtering one make millions of small objects (formula nodes,
clauses as tuples, dicts of ints) with no cycle among them.  The collector would walk
them again at every collection as they pile up, for nothing: a sixth of filtering the
371,041 rules of object-recognition over two objects, 1.5 s of reading them.
"""

from __future__ import annotations

__all__ = ["collection_paused"]

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """The cyclic garbage collector off inside, as it was after (reference counting
    still frees what is dropped)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
