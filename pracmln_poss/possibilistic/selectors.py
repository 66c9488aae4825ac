"""One SAT solver over a list of formulas, each switched on by its own selector literal.

Redundancy filtering and explanations both ask "do these formulas (a subset), with
this extra formula, have a model?" many times; a selector per formula makes every
such question a set of assumptions on one incremental solver.
"""

from __future__ import annotations

__all__ = ["SelectorSolver"]

from collections.abc import Sequence

from pysat.solvers import Solver

from ..logic.cnf import VarPool, clausify
from ..logic.formula import Formula


class SelectorSolver:
    """``selectors[i]`` switches on ``formulas[i]``; :meth:`guard` adds more formulas."""

    def __init__(self, n_atoms: int, formulas: Sequence[Formula], solver: str = "g3") -> None:
        self.pool = VarPool(n_atoms)
        self.sat = Solver(name=solver)
        self.selectors = [self.pool.new() for _ in formulas]
        for s, f in zip(self.selectors, formulas):
            self._add(f, s)

    def _add(self, f: Formula, selector: int) -> None:
        for clause in clausify(f, self.pool):
            self.sat.add_clause([*clause, -selector])

    def guard(self, f: Formula) -> int:
        """Add ``f`` under a fresh selector; assume it to use ``f``, :meth:`retire` it after."""
        g = self.pool.new()
        self._add(f, g)
        return g

    def retire(self, guard: int) -> None:
        self.sat.add_clause([-guard])

    def satisfiable(self, assumptions: Sequence[int]) -> bool:
        return bool(self.sat.solve(assumptions=list(assumptions)))

    def core(self) -> set[int]:
        """The assumptions of the last unsatisfiable call that were needed."""
        return set(self.sat.get_core() or ())

    def model(self) -> list[int]:
        return list(self.sat.get_model() or ())

    def __enter__(self) -> SelectorSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.sat.delete()
