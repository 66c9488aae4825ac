"""The default MAP backend: PySAT's RC2 core-guided MaxSAT solver.

The ground MLN is clausified once (Plaisted-Greenbaum, :mod:`..logic.cnf`), with the
atoms fixed by hard unit formulas substituted away.  RC2 mutates its input and
treats weight 0 as hard, so every call builds a fresh WCNF from the stored clauses
and only positive weights are ever passed.
"""

from __future__ import annotations

__all__ = ["RC2Engine"]

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

    def _optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
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
        if not wcnf.hard and not wcnf.soft:
            model: list[int] | None = []
            cost = 0
        else:
            solver_class = RC2Stratified if self._weighted else RC2
            with solver_class(wcnf, solver=self.solver, **self.rc2_options) as rc2:
                model = rc2.compute()
                cost = rc2.cost
        if model is None:
            return None
        values = [False] * (self.mln.n_atoms + 1)
        for lit in model:
            if 0 < abs(lit) <= self.mln.n_atoms:
                values[abs(lit)] = lit > 0
        for a, v in fixed.items():
            values[a] = v
        return Optimum(cost + self.offset, World(tuple(values)))
