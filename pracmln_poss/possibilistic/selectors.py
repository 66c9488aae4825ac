"""One SAT solver over a list of formulas, each switched on by a selector literal.

Redundancy filtering, explanations and possibilistic inference all ask "do these
formulas (a subset), with this extra formula, have a model?" many times; a selector
per formula (or per group of formulas: a level of a theory) makes every such question a
set of assumptions on one incremental solver.
"""

from __future__ import annotations

__all__ = ["SelectorSolver"]

from collections.abc import Iterable, Sequence

from pysat.solvers import Solver

from ..closable import Closable
from ..errors import ClosedError
from ..logic.cnf import Clause, VarPool, clauses_of
from ..logic.formula import Formula
from ..stopping import SAT_SOLVER, Guard, given


class SelectorSolver(Closable):
    """``formulas[i]`` is switched on by ``selectors[i]``; :meth:`guard` adds more formulas.

    A context manager owning its SAT solver.

    :param groups: ``groups[i]`` names the group of ``formulas[i]``; formulas of a group
        share one selector (``selector_of[group]``; groups must sort).  Default: each
        formula its own group.
    :param always: formulas that are always on (no selector).
    :param run_guard: the run's guard, which the SAT calls go through (None: one of their
        own; not :meth:`guard`, which guards a formula by a selector).

    A formula may be given as its clauses over the atoms' numbers (a list of tuples).
    """

    def __init__(self, n_atoms: int, formulas: Sequence[Formula | list[Clause]], solver: str = SAT_SOLVER,
                 groups: Sequence[float] | None = None, always: Iterable[Formula | list[Clause]] = (),
                 run_guard: Guard | None = None) -> None:
        self.pool = VarPool(n_atoms)
        self.run_guard = given(run_guard)
        self.sat = Solver(name=solver)
        self.calls = 0  # solver calls, for statistics and benchmarks
        keys: Sequence[float] = range(len(formulas)) if groups is None else groups
        # selectors first, in the groups' order, then the clauses' own variables
        self.selector_of: dict[float, int] = {key: self.pool.new() for key in sorted(set(keys))}
        self.selectors: list[int] = [self.selector_of[key] for key in keys]
        for s, f in zip(self.selectors, formulas):
            self._add(f, s)
        for f in always:
            self._add(f, None)

    def _add(self, f: Formula | list[Clause], selector: int | None) -> None:
        clauses = clauses_of(f, self.pool)
        if selector is None:
            self.sat.append_formula(clauses)
        else:
            self.sat.append_formula([(*clause, -selector) for clause in clauses])

    def guard(self, f: Formula) -> int:
        """Add ``f`` under a fresh selector; assume it to use ``f``, :meth:`retire` it after."""
        g = self.pool.new()
        self._add(f, g)
        return g

    def retire(self, *guards: int) -> None:
        """Switch guards of :meth:`guard` off for good."""
        for g in guards:
            self.sat.add_clause([-g])

    def satisfiable(self, assumptions: Iterable[int]) -> bool:
        if self.sat is None:
            raise ClosedError("this reasoner is closed (used after its `with` block or close()); make a new one")
        self.calls += 1
        return self.run_guard.sat(self.sat, list(assumptions))

    def core(self) -> set[int]:
        """The assumptions of the last unsatisfiable call that were needed."""
        return set(self.sat.get_core() or ())

    def model(self) -> list[int]:
        return list(self.sat.get_model() or ())

    def close(self) -> None:
        """Release the SAT solver (again: nothing)."""
        if self.sat is not None:
            self.sat.delete()
            self.sat = None

