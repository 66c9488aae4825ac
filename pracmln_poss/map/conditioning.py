"""Questions that touch the same few core variables, answered from one table of them.

A question's evidence reaches the core (:mod:`.decomposition`) through a few variables
only: those it restricts and the boundaries of the leaves whose messages it changes
(its *touched* variables ``T``).  Every other core variable ``U`` sees the network as
it is without evidence.  So, by conditioning on ``T``, the least cost of the question is

    min over assignments t of T of  base(t) + added(t),

where ``base(t)`` is the least cost of the network without evidence with ``T`` fixed to
``t`` (a search over ``U``) and ``added(t)`` what the question adds at ``t`` (its
restrictions and grown messages, all over ``T``).  Its optimal worlds are exactly an
optimal ``t`` with an optimal assignment of ``U`` given ``t`` in the network without
evidence (docs/map-engine.md, "Questions answered from a table").  ``base`` does not
depend on the question: the questions of a lifted conversion that name one cluster of
pracmln's object-recognition model all touch that cluster's object (21 values) and
nothing else, and once its 21 searches are done each of them is a pass over a table of
21 entries, where each was a search over all the clusters.

A table costs one search per assignment of ``T`` (with ``T`` fixed: cheaper than a
question's), so it is made only for a ``T`` asked about at least half as many times as
it has assignments, and twice at least (the backend's ``TABLE_AFTER`` and
``TABLE_LEAST``): a model whose questions rarely reach the same variables again makes
few tables, and none that costs more than twice the searches it replaced.  At most
:data:`MAX_CELLS` assignments.
"""

from __future__ import annotations

__all__ = ["Cells", "Conditioning", "Found", "MAX_CELLS", "MAX_KEPT", "fixed_at", "touched"]

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .backend import OverBudget
from .decomposition import DenseCore, Posed

MAX_CELLS = 1 << 12
"""Assignments of the touched variables a table has at most."""

MAX_KEPT = 1 << 22
"""Core values kept in all the tables (each assignment keeps a least-cost core assignment)."""

Found = tuple[Sequence[int], int] | None
"""A search's least-cost core assignment (toulbar2's order, the core's) and its cost, or
None when every assignment costs at least ``hard``."""


def touched(posed: Posed) -> tuple[int, ...]:
    """The core variables a question's evidence reaches, ascending."""
    out = set(posed.core)
    for scope, _ in posed.grown:
        out.update(scope)
    return tuple(sorted(out))


def fixed_at(assignment: dict[int, int]) -> Posed:
    """The network without evidence with core variables fixed (variable -> value): one
    entry of a table."""
    return Posed({v: frozenset((x,)) for v, x in assignment.items()}, {}, {}, (), 0)


@dataclass(frozen=True)
class Cells:
    """The least cost of the network without evidence per assignment of ``touched``.

    :ivar dense: the table (its axes ``touched``, as a :class:`.DenseCore` reads them).
    :ivar values: per assignment (the table's entries in C order), the core's values in a
        least-cost assignment (rows of impossible assignments unused).
    """

    dense: DenseCore
    values: NDArray[np.int32]

    def core_values(self, row: Sequence[int]) -> list[int]:
        """The core's values of a least-cost assignment at the table's entry ``row``."""
        at = int(np.ravel_multi_index(tuple(row), self.dense.table.shape))
        out: list[int] = self.values[at].tolist()
        return out

    def cost(self, row: Sequence[int]) -> int:
        """The table's entry ``row``."""
        return int(self.dense.table[tuple(row)])


class Conditioning:
    """The tables made so far, and how often each set of touched variables was asked about."""

    def __init__(self, sizes: Sequence[int], core_size: int, hard: int, after: float = 1.0, least: int = 2
                 ) -> None:
        self._sizes = sizes  # per network variable, its number of values
        self._after = after  # questions per entry before a table is made ...
        self._least = least  # ... and at least so many
        self._core_size = core_size
        self._hard = hard
        self._asked: Counter[tuple[int, ...]] = Counter()
        self._made: dict[tuple[int, ...], Cells | None] = {}
        self._kept = 0

    def cells(self, variables: tuple[int, ...], search: Callable[[dict[int, int]], Found]) -> Cells | None:
        """The table over ``variables`` (core variables, ascending), made with ``search``
        (the least-cost core assignment with those variables fixed, without evidence;
        :class:`.OverBudget` gives up: the table is then never made) once they have been
        asked about ``after`` times per entry of the table and ``least`` times at least;
        None before, or when it is too large or could not be made."""
        if variables in self._made:
            return self._made[variables]
        shape = tuple(self._sizes[v] for v in variables)
        entries = math.prod(shape)
        self._asked[variables] += 1
        if not variables or entries > MAX_CELLS or self._kept + entries * self._core_size > MAX_KEPT:
            return None
        if self._asked[variables] < max(self._least, entries * self._after):
            return None
        table = np.full(shape, self._hard, dtype=np.int64)
        values = np.zeros((entries, self._core_size), dtype=np.int32)
        try:
            for at, assignment in enumerate(itertools.product(*(range(n) for n in shape))):
                found = search(dict(zip(variables, assignment)))
                if found is not None:
                    core, cost = found
                    table[assignment] = min(cost, self._hard)
                    values[at] = core
        except OverBudget:
            self._made[variables] = None
            return None
        made = self._made[variables] = Cells(DenseCore(table, variables, self._hard, {}), values)
        self._kept += entries * self._core_size
        return made

