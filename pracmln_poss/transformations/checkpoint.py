"""Checkpoints of the rule search: a long conversion, interrupted, resumes where it stopped.

The file holds the search's key (a digest of the ground MLN, ``k``, the focus, the
symmetry and the rule options: what the result depends on), the optima of every
evidence-set size finished and of every chunk finished of the size under way, and the
rules of every chunk finished.  It is replaced atomically after each size and every
few seconds of chunks, and on an interrupt;
the search removes it when it completes.  A file whose key does not match (another
model or other options) is not used: the search starts over and replaces it.

The file is a pickle: it is our own intermediate state next to the user's output, not
a format to exchange (load only checkpoints you made).
"""

from __future__ import annotations

__all__ = ["Checkpoint", "search_key", "Packed", "pack_optimum", "unpack_optimum", "unpack_world"]

import hashlib
import os
import pickle
import tempfile
import time
from pathlib import Path
from typing import Any

from ..errors import OutputError, SourcePosition
from ..ground_mln import GroundMLN
from ..map.engine import Optimum, World

FORMAT = 2


def search_key(mln: GroundMLN, *parts: object) -> str:
    """A digest of the ground MLN and ``parts`` (reprs of plain values: deterministic)."""
    h = hashlib.sha256()
    h.update(repr((FORMAT, mln.atoms, str(mln.resolution))).encode())
    for wf in mln.soft + mln.hard:
        h.update(repr((wf.formula, wf.weight)).encode())
    for part in parts:
        h.update(repr(part).encode())
    return h.hexdigest()


Packed = tuple[int, bytes]
"""An optimum as (cost, the world's values as one byte per atom)."""


def pack_optimum(found: Optimum | None) -> Packed | None:
    """An optimum in a few bytes per atom instead of a tuple's pointer (None stays None)."""
    if found is None:
        return None
    return found.cost, bytes(found.world.values)


def unpack_world(packed: Packed) -> World:
    return World(tuple(map(bool, packed[1])))


def unpack_optimum(packed: Packed | None) -> Optimum | None:
    if packed is None:
        return None
    return Optimum(packed[0], unpack_world(packed))


class Checkpoint:
    """The finished work of one search, in the file ``path``."""

    def __init__(self, path: str | os.PathLike[str], key: str, interval: float = 10.0) -> None:
        self.path = Path(path)
        self.key = key
        self.interval = interval
        self.optima: dict[int, list[tuple[tuple[int, ...], Packed | None]]] = {}
        self.partial: dict[int, dict[int, Any]] = {}  # size -> chunk -> its optima, of a size not finished
        self.rules: dict[int, Any] = {}
        self.resumed = False
        self._saved = time.monotonic()

    def load(self) -> bool:
        """Take over the file's finished work if it belongs to this search; whether it did."""
        try:
            with open(self.path, "rb") as f:
                data = pickle.load(f)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError):
            return False
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != self.key:
            return False
        self.optima, self.partial, self.rules = data["optima"], data["partial"], data["rules"]
        self.resumed = True
        return True

    def save(self, force: bool = True) -> None:
        """Write the file (atomically); with ``force=False`` only if the last write is
        older than the interval."""
        now = time.monotonic()
        if not force and now - self._saved < self.interval:
            return
        data = {"format": FORMAT, "key": self.key, "optima": self.optima, "partial": self.partial,
                "rules": self.rules}
        try:
            fd, tmp = tempfile.mkstemp(prefix=self.path.name + ".", dir=self.path.parent)
        except OSError as exc:
            raise OutputError(f"cannot write the checkpoint: {exc.strerror}", SourcePosition(str(self.path))) from None
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._saved = now

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)
