"""The reference MAP backend: enumerate every world (small MLNs only).

It implements the definitions directly (all optimal worlds, their intersection,
entailment by inspection), independently of the backbone algorithm of
:class:`~.engine.MapEngine`, so the other backends are tested against it.
"""

from __future__ import annotations

__all__ = ["BruteForceEngine", "MAX_ATOMS"]

import itertools

from typing import Iterable

from ..errors import ModelError
from ..ground_mln import GroundMLN
from ..logic.formula import Formula, evaluate
from ..weights import INF
from .engine import Evidence, MapEngine, Optimum, World

MAX_ATOMS = 20


class BruteForceEngine(MapEngine):
    """Exact MAP inference by enumerating all ``2**n`` worlds."""

    name = "bruteforce"

    def __init__(self, mln: GroundMLN) -> None:
        if mln.n_atoms > MAX_ATOMS:
            raise ModelError(
                f"the brute-force backend enumerates 2**{mln.n_atoms} worlds; "
                f"it is limited to {MAX_ATOMS} atoms"
            )
        super().__init__(mln)
        n = mln.n_atoms
        self._worlds: list[tuple[World, int]] = []
        for bits in itertools.product((False, True), repeat=n):
            world = World((False, *bits))
            c = self.cost(world)
            if c != INF:
                self._worlds.append((world, int(c)))

    def _matching(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> list[tuple[World, int]]:
        return [
            (w, c)
            for w, c in self._worlds
            if all(w.satisfies(u) for u in units) and all(evaluate(f, w) for f in extra)
        ]

    def map_worlds(self, evidence: Evidence = ()) -> list[World]:
        """Every most probable world of the evidence (empty if it is impossible)."""
        units, extra = self.split_evidence(evidence)
        self.calls += 1
        matching = self._matching(units, extra)
        if not matching:
            return []
        best = min(c for _, c in matching)
        return [w for w, c in matching if c == best]

    def _optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        matching = self._matching(units, extra)
        if not matching:
            return None
        world, cost = min(matching, key=lambda wc: wc[1])
        return Optimum(cost, world)

    def consequences(
        self, evidence: Evidence = (), known: Optimum | None = None, entailed: Iterable[int] = ()
    ) -> frozenset[int]:
        """``X(E)`` by definition (the caller's hints are not needed, hence not used)."""
        worlds = self.map_worlds(evidence)
        if not worlds:
            self.optimum(evidence)  # raises the right error
        lits = set(worlds[0].literals())
        for w in worlds[1:]:
            lits &= set(w.literals())
        return frozenset(lits)

    def entails(self, evidence: Evidence, query: str | Formula) -> bool:
        q = self.mln.formula(query) if isinstance(query, str) else query
        worlds = self.map_worlds(evidence)
        if not worlds:
            self.optimum(evidence)
        return all(evaluate(q, w) for w in worlds)
