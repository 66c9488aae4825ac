"""A MAP backend that enumerates every world (small MLNs only).

It finds an optimum by trying all ``2**n`` worlds: no solver, nothing to trust but
:func:`~pracmln_poss.logic.formula.evaluate`.  Useful on tiny models and for
``--backend bruteforce``; the tests have their own reference, sharing no code with
the engines (``tests/reference.py``).
"""

from __future__ import annotations

__all__ = ["BruteForceBackend", "MAX_ATOMS"]

import itertools

from ..errors import ModelError
from ..logic.formula import Formula, evaluate
from ..model.ground_mln import GroundMLN
from ..stopping import Guard
from .backend import Backend
from .world import Optimum, World

MAX_ATOMS = 20


class BruteForceBackend(Backend):
    """Exact MAP inference by enumerating all ``2**n`` worlds."""

    name = "bruteforce"

    def __init__(self, mln: GroundMLN, guard: Guard | None = None) -> None:
        if mln.n_atoms > MAX_ATOMS:
            raise ModelError(
                f"the brute-force backend enumerates 2**{mln.n_atoms} worlds; "
                f"it is limited to {MAX_ATOMS} atoms"
            )
        super().__init__(mln, guard)
        self._worlds: list[tuple[World, int]] = []
        for bits in itertools.product((False, True), repeat=mln.n_atoms):
            world = World((False, *bits))
            if all(evaluate(wf.formula, world) for wf in mln.hard):
                # soft weights are int steps (only hard ones are INF)
                self._worlds.append((world, int(sum(wf.weight for wf in mln.soft if not evaluate(wf.formula, world)))))
        if not self._worlds:
            self.unsat_reason = "the hard formulas of the MLN are unsatisfiable"

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        best: tuple[World, int] | None = None
        for world, cost in self._worlds:
            if (best is None or cost < best[1]) and all(world.satisfies(u) for u in units) and all(
                evaluate(f, world) for f in extra
            ):
                best = (world, cost)
        return None if best is None else Optimum(best[1], best[0])
