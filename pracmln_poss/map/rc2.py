"""A MAP backend on PySAT's RC2 core-guided MaxSAT solver, a fresh solver per call.

RC2 mutates its input and treats weight 0 as hard, so every call builds a fresh WCNF
from the stored instance (:mod:`.instance`) and only positive weights are ever passed.
A backbone is found on RC2's final state (:meth:`RC2Backend.optimal_worlds`).  The
``oll`` backend (:mod:`.oll`) keeps one solver across calls instead; this one stays as
a second, independent core-guided solver.
"""

from __future__ import annotations

__all__ = ["RC2Backend"]

import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from pysat.examples.rc2 import RC2, RC2Stratified
from pysat.formula import WCNF

from ..errors import BackendError
from ..logic.formula import Formula
from ..model.ground_mln import GroundMLN
from ..stopping import SAT_SOLVER, Guard
from .backend import Backend, OptimalWorlds
from .instance import MaxSatInstance, build_instance
from .world import Optimum


class RC2Backend(Backend):
    """Exact MAP inference with RC2 (stratified for weighted instances)."""

    name = "rc2"
    instance: MaxSatInstance  # always set: these backends solve the weighted CNF
    sat_backbones = True

    def __init__(self, mln: GroundMLN, instance: MaxSatInstance | None = None, solver: str = SAT_SOLVER,
                 guard: Guard | None = None, **rc2_options: bool) -> None:
        """:param solver: PySAT SAT solver name for RC2.
        :param rc2_options: RC2's ``adapt``/``exhaust``/``minz``/``trim`` options.  Off by
            default: on grounded MLNs with few distinct weights (many small, easy cores)
            they cost more than they save, about 7x on the backbone of
            ``benchmarks/map_vs_pracmln.py`` at n = 160.
        """
        super().__init__(mln, guard)
        self.instance = instance if instance is not None else build_instance(mln)
        self.unsat_reason = self.instance.unsat_reason
        self.solver = solver
        self.rc2_options = {"adapt": False, "exhaust": False, "minz": False, **rc2_options}
        self._lists: tuple[list[list[int]], list[list[int]], list[int], int] | None = None

    def _wcnf(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> WCNF | None:
        """The MaxSAT instance under extra hard constraints; None if they are trivially unsatisfiable.

        The instance's clauses are turned into lists once: ``WCNF.append`` per clause and
        call was a fifth of a CORA conversion.  RC2 appends selectors to the soft clauses
        it is given, so those are copied per call; hard clauses are only read.
        """
        constraints = self.instance.constraints(units, extra)
        if constraints is None or self.instance.unsat_reason is not None:
            return None
        if self._lists is None:
            hard = [list(c) for c in self.instance.hard]
            soft = [list(c) for c, _ in self.instance.soft]
            weights = [w for _, w in self.instance.soft]
            # above every atom: an atom in no clause must not share a number with RC2's own variables
            nv = max([self.instance.top] + [abs(l) for c in hard + soft for l in c])
            self._lists = (hard, soft, weights, nv)
        hard, soft, weights, nv = self._lists
        wcnf = WCNF()
        extra_hard = [list(c) for c in constraints]
        wcnf.nv = max([nv] + [abs(l) for c in extra_hard for l in c])
        wcnf.hard = extra_hard + hard  # the evidence first, as before
        wcnf.soft = [c[:] for c in soft]
        wcnf.wght = list(weights)
        wcnf.topw = 1 + sum(weights)
        return wcnf

    def _rc2(self, wcnf: WCNF) -> RC2:
        kind = RC2 if self.instance.distinct_weights <= 1 else RC2Stratified
        rc2 = kind(wcnf, solver=self.solver, **self.rc2_options)
        # RC2 asks its SAT solver itself, through this method: make its calls stoppable too
        # (with PySAT's own Ctrl-C, an interrupted call returns None, which RC2 takes for a
        # core; minz gives its calls a budget, and None there means "unknown")
        setattr(rc2, "_call_oracle", _stoppable_calls(rc2, bool(self.rc2_options.get("minz")), self.guard))  # noqa: B010
        return rc2

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
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
        n = self.mln.n_atoms
        values = [False] * (n + 1)
        for lit in model:
            if 0 < abs(lit) <= n:
                values[abs(lit)] = lit > 0
        return Optimum(cost + self.instance.offset, self.instance.world(values))

    @contextmanager
    def optimal_worlds(self, units: tuple[int, ...], extra: tuple[Formula, ...], cost: int,
                       parent: tuple[int, ...] | None = None) -> Iterator[OptimalWorlds | None]:
        """RC2's final state: its SAT solver under its final assumptions (the selectors
        and totalizer bounds left) has exactly the optimal worlds as models."""
        wcnf = self._wcnf(units, extra)
        if wcnf is None or (not wcnf.hard and not wcnf.soft):
            yield None  # (nothing to solve: the engine's tests are as cheap)
            return
        with self._rc2(wcnf) as rc2:
            model = rc2.compute()
            if model is None or rc2.cost + self.instance.offset != cost:
                found = "none" if model is None else rc2.cost + self.instance.offset
                raise BackendError(f"RC2's optimum ({found}) is not the known one ({cost})")
            yield OptimalWorlds(rc2.oracle, rc2.sels + rc2.sums, rc2.oracle.get_model(), rc2.pool.id)


def _stoppable_calls(rc2: RC2, budgeted: bool, guard: Guard) -> Callable[..., bool | None]:
    """RC2's ``_call_oracle`` through ``guard``'s :meth:`~pracmln_poss.stopping.Guard.sat`.  It holds RC2
    weakly: a cycle would leave RC2 (which has a ``__del__``) to the garbage collector,
    which runs it at any bytecode, a signal's handler with it."""
    owner = weakref.ref(rc2)

    def call(assumptions: Iterable[int] = (), expect_interrupt: bool = False) -> bool | None:
        found = owner()
        if found is None:  # pragma: no cover - RC2 calls it from its own methods
            raise BackendError("RC2 was deleted during its own call")
        return guard.sat(found.oracle, list(assumptions), budgeted)

    return call
