"""The default MAP backend: PySAT's RC2 core-guided MaxSAT solver.

The ground MLN is clausified once (Plaisted-Greenbaum, :mod:`..logic.cnf`), with the
atoms fixed by hard unit formulas substituted away.  RC2 mutates its input and
treats weight 0 as hard, so every call builds a fresh WCNF from the stored clauses
and only positive weights are ever passed.
"""

from __future__ import annotations

__all__ = ["RC2Engine"]

from contextlib import contextmanager
from typing import Callable, Iterator

from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF

from ..ground_mln import GroundMLN
from ..logic.cnf import Clause, VarPool, clausify
from ..logic.formula import Formula, substitute_atoms
from ..weights import INF
from .engine import MapEngine, Optimum, World


class RC2Engine(MapEngine):
    """Exact MAP inference with RC2 (stratified for weighted instances)."""

    name = "rc2"

    def __init__(self, mln: GroundMLN, solver: str = "g3", **rc2_options: bool) -> None:
        """:param solver: PySAT SAT solver name for RC2.
        :param rc2_options: RC2's ``adapt``/``exhaust``/``minz``/``trim`` options.  Off by
            default: on grounded MLNs (many small, easy cores) they cost more than they
            save, about 7x on the backbone of ``benchmarks/map_vs_pracmln.py`` at n = 160.
        """
        super().__init__(mln)
        self.solver = solver
        self.rc2_options = {"adapt": False, "exhaust": False, "minz": False, **rc2_options}
        pool = VarPool(mln.n_atoms)
        hard: list[Clause] = []
        soft: list[tuple[Clause, int]] = []
        self.offset = 0  # cost of soft formulas false in every world
        for formula, weight in self.simplified_formulas():
            clauses = clausify(formula, pool)
            if weight == INF:
                hard.extend(clauses)
            elif clauses == [()]:
                self.offset += weight
            elif len(clauses) == 1:
                soft.append((clauses[0], weight))
            else:
                # one indicator per formula: violating it means giving up the indicator
                name = pool.new()
                hard.extend((-name, *c) for c in clauses)
                soft.append(((name,), weight))
        self._hard = hard
        self._soft = soft
        self._top = pool.top
        self._weighted = len({w for _, w in soft}) > 1

    def _wcnf(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> WCNF | None:
        """The MaxSAT instance under extra hard constraints; None if they are trivially unsatisfiable."""
        fixed = self.fixed
        wcnf = WCNF()
        for u in units:
            value = fixed.get(abs(u))
            if value is None:
                wcnf.append([u])
            elif value != (u > 0):
                return None
        pool = VarPool(self._top)
        for f in extra:
            for clause in clausify(substitute_atoms(f, fixed.get), pool):
                if not clause:
                    return None
                wcnf.append(list(clause))
        for clause in self._hard:
            if not clause:
                return None
            wcnf.append(list(clause))
        for clause, weight in self._soft:
            wcnf.append(list(clause), weight=weight)
        return wcnf

    def _rc2(self, wcnf: WCNF, incremental: bool = False) -> RC2:
        if not self._weighted:
            return RC2(wcnf, solver=self.solver, **self.rc2_options)
        # hardening assumes the instance stays as it is; clauses added later could
        # make it unsound, so an incremental solver goes without it
        return RC2Stratified(wcnf, solver=self.solver, nohard=incremental, **self.rc2_options)

    def _optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        wcnf = self._wcnf(units, extra)
        if wcnf is None:
            return None
        if not wcnf.hard and not wcnf.soft:
            return self._optimum_of([], 0)
        with self._rc2(wcnf) as rc2:
            return self._optimum_of(rc2.compute(), rc2.cost)

    def _optimum_of(self, model: list[int] | None, cost: int) -> Optimum | None:
        if model is None:
            return None
        values = [False] * (self.mln.n_atoms + 1)
        for lit in model:
            if 0 < abs(lit) <= self.mln.n_atoms:
                values[abs(lit)] = lit > 0
        for a, v in self.fixed.items():
            values[a] = v
        return Optimum(cost + self.offset, World(tuple(values)))

    @contextmanager
    def _session(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Iterator[Callable[[tuple[int, ...]], Optimum | None]]:
        """One RC2 instance kept across the calls, hard clauses added on the fly (as
        RC2's own enumeration does): cores found earlier stay valid."""
        wcnf = self._wcnf(units, extra) if self._unsat_reason is None else None
        if wcnf is None or (not wcnf.hard and not wcnf.soft):
            with super()._session(units, extra) as solve:
                yield solve
            return
        solvers: list[RC2] = []  # made at the first call: many sessions need none

        def solve(clause: tuple[int, ...]) -> Optimum | None:
            self.calls += 1
            if not solvers:
                solvers.append(self._rc2(wcnf, incremental=True))
            if clause:
                solvers[0].add_clause(list(clause))
            return self._optimum_of(solvers[0].compute(), solvers[0].cost)

        try:
            yield solve
        finally:
            for rc2 in solvers:
                rc2.delete()
