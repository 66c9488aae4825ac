"""The cyclic garbage collector, paused while acyclic data piles up, and kept off what
lives until a command ends.

Reading a large theory and filtering one make millions of small objects (formula nodes,
clauses as tuples, dicts of ints) with no cycle among them.  The collector would walk
them again at every collection as they pile up, for nothing: a sixth of filtering the
371,041 rules of object-recognition over two objects, 1.5 s of reading them.  A
command's ground model or theory lives until the command ends: frozen
(:class:`Freezer`), the collector does not walk its millions of objects again at every
full collection (10% of a conversion over 512 persons, a third of showing a
370,000-rule theory), and the command gives them back when it ends.
"""

from __future__ import annotations

__all__ = ["collection_paused", "Freezer"]

import contextlib
import gc
from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")


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


class Freezer:
    """What a command freezes for the collector (``gc.freeze()``), unfrozen when it ends
    (a context manager): the freeze count is then what it was.  A process that had frozen
    objects of its own before (a host program calling the command line in-process) gets
    nothing frozen: ``gc.unfreeze()`` could not tell its objects from ours.  The command
    line's own process freezes whatever was frozen as it started (CPython 3.12 starts with
    375 objects frozen of its own).

    :param give_back: unfreeze at the end (False for a process that ends with the block,
        the command line's, which freezes everything there is as the block ends instead:
        the collection the interpreter makes as it exits would walk every object the
        command made, 0.05 s of showing a small theory, 1.2 s of a Ctrl-C 12 s into
        CORA at ``k = 4``, most of its way out).
    """

    def __init__(self, give_back: bool = True) -> None:
        self.give_back = give_back
        self._owned = False
        self._froze = False

    def __enter__(self) -> Freezer:
        # (a process that ends with the block is ours whatever its interpreter froze)
        self._owned = not self.give_back or gc.get_freeze_count() == 0
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._owned:
            return
        if self.give_back:
            if self._froze:
                gc.unfreeze()
                self._froze = False
        else:
            gc.freeze()
            self._froze = True

    def keep(self, value: T) -> T:
        """``value``, and every object there is now, frozen until the block ends."""
        if self._owned:
            gc.freeze()
            self._froze = True
        return value

