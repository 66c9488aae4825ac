"""A MAP backend on toulbar2 (``pytoulbar2``): exact weighted-CSP branch and bound, incremental.

The instance (:mod:`.instance`) becomes one cost function network, built and
preprocessed once: a 0/1 variable per instance variable, each clause a cost function
that charges its weight (a hard clause: more than all soft weights together) to the one
assignment violating it.  Every call then only assigns the evidence on top of a stored
state, searches under an upper bound (the known optimum, in a backbone) and restores
the state: nothing is rebuilt, so a call on a learned model of a hundred atoms takes a
few milliseconds where CP-SAT, which copies and presolves its model every time, takes
fifteen (pracmln's object-recognition, ``benchmarks/backends.py``).

Costs are integers below 2**53 (toulbar2 reports them as doubles, exact there); larger
instances are refused, and ``auto`` does not pick this backend for them.  Evidence
that is not a set of literals (a formula) needs new variables, which toulbar2 cannot
add to a stored problem: such calls go to a CP-SAT backend on the same instance.

Branch and bound is fast on small instances and can be slow on large ones, so each
search has a budget of backtracks (deterministic, unlike a time limit): a call over
budget is answered by CP-SAT, and after a few such calls CP-SAT answers all of them.
Either way the answers are exact.
"""

from __future__ import annotations

__all__ = ["Toulbar2Backend", "MAX_TOTAL_WEIGHT", "BACKTRACK_BUDGET", "GIVE_UP_AFTER"]

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import BackendError
from ..ground_mln import GroundMLN
from ..logic.cnf import Clause
from ..logic.formula import Formula
from .backend import Backend, Check, Optimum, Solve
from .instance import MaxSatInstance, build_instance

MAX_TOTAL_WEIGHT = 2**53 - 2
"""The largest total soft weight (in resolution steps) toulbar2's double costs hold exactly."""

BACKTRACK_BUDGET = 500
"""Backtracks a toulbar2 search may make before the call goes to CP-SAT instead.  On
the small instances toulbar2 is made for, no call of pracmln's object-recognition
(one cluster) needs more than 150; on its full test database a call needs thousands,
each a few milliseconds, where CP-SAT takes 0.2 s (``benchmarks/backends.py``)."""

GIVE_UP_AFTER = 3
"""After this many calls over budget, every later call goes to CP-SAT."""

_OVER_BUDGET = object()


class Toulbar2Backend(Backend):
    """Exact MAP inference with toulbar2, one preprocessed problem for all calls."""

    name = "toulbar2"
    instance: MaxSatInstance  # always set: these backends solve the weighted CNF

    def __init__(self, mln: GroundMLN, instance: MaxSatInstance | None = None) -> None:
        try:
            import pytoulbar2
            from pytoulbar2 import pytb2
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise BackendError(f"the toulbar2 backend needs pytoulbar2 ({exc})") from exc
        super().__init__(mln)
        self.instance = instance if instance is not None else build_instance(mln)
        self.unsat_reason = self.instance.unsat_reason
        self._contradiction = pytb2.Contradiction
        self._option = pytb2.option
        self._other: Backend | None = None
        self.over_budget = 0  # calls answered by CP-SAT for lack of budget
        total = self.instance.total_weight
        if total > MAX_TOTAL_WEIGHT:
            raise BackendError(
                f"the soft weights add up to {total} resolution steps, more than toulbar2 holds exactly "
                f"({MAX_TOTAL_WEIGHT}); use another backend or a coarser --resolution (resolution= from Python)"
            )
        self._hard = total + 1  # a world violating a hard clause costs more than any other
        cfn = pytoulbar2.CFN(None, resolution=0, verbose=-1)
        cfn.NoPreprocessing()  # keeps every variable: evidence is assigned to them later
        for v in range(1, self.instance.top + 1):
            cfn.AddVariable(f"v{v}", [0, 1])
        for clause in self.instance.hard:
            self._post(cfn, clause, self._hard)
        for clause, weight in self.instance.soft:
            self._post(cfn, clause, weight)
        self._cfn = cfn
        self._satisfiable = self.unsat_reason is None and cfn.SolveFirst() is not None

    @staticmethod
    def _post(cfn: Any, clause: Clause, cost: int) -> None:
        """The cost function charging ``cost`` to the assignment violating ``clause``."""
        lits = dict.fromkeys(clause)
        if any(-l in lits for l in lits):
            return  # a tautology costs nothing
        cfn.AddCompactFunction([abs(l) - 1 for l in lits], 0, [[0 if l > 0 else 1 for l in lits]], [cost])

    @property
    def clause_sessions(self) -> bool:  # type: ignore[override]
        # clauses over many variables cannot be added to a stored toulbar2 problem
        return self._gave_up

    @property
    def _gave_up(self) -> bool:
        return self.over_budget >= GIVE_UP_AFTER

    def _fallback(self) -> Backend:
        """CP-SAT on the same instance, for evidence formulas and searches over budget."""
        if self._other is None:
            from .cpsat import CPSATBackend

            self._other = CPSATBackend(self.mln, self.instance)
        return self._other

    def close(self) -> None:
        if self._other is not None:
            self._other.close()

    def _literals(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> tuple[int, ...] | None:
        """The evidence as literals over the instance; None when it is impossible.

        :raises LookupError: when the evidence has a formula (not a set of literals).
        """
        constraints = self.instance.constraints(units, extra)
        if constraints is None or not self._satisfiable:
            return None
        if any(len(c) != 1 for c in constraints):
            raise LookupError("formula evidence")
        lits = {c[0]: None for c in constraints}
        if any(-l in lits for l in lits):
            return None
        return tuple(lits)

    def _search(self, lits: tuple[int, ...], limit: int) -> Any:
        """The best world with ``lits`` of cost (without the offset) below ``limit``,
        None, or ``_OVER_BUDGET``."""
        if self._gave_up:
            return _OVER_BUDGET
        cfn = self._cfn
        depth = cfn.Depth()
        cfn.Store()
        try:
            cfn.SetUB(limit)
            if lits:
                cfn.MultipleAssign([abs(l) - 1 for l in lits], [int(l > 0) for l in lits])
            self._option.backtrackLimit = cfn.GetNbBacktracks() + BACKTRACK_BUDGET
            found = cfn.SolveNext()
        except self._contradiction:
            found = None
        finally:
            cfn.Restore(depth)
        if cfn.Limit is not None:
            cfn.Limit = None
            self.over_budget += 1
            return _OVER_BUDGET
        if found is None:
            return None
        values = [False] + [bool(x) for x in found[0]]
        # exact: integers below 2**53 are exact in the double toulbar2 reports
        return Optimum(self.instance.offset + round(found[1]), self.instance.world(values))

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        try:
            lits = self._literals(units, extra)
        except LookupError:
            return self._fallback().optimum(units, extra)
        if lits is None:
            return None
        found = self._search(lits, self._hard)
        return self._fallback().optimum(units, extra) if found is _OVER_BUDGET else found

    @contextmanager
    def session(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Solve]:
        with self._fallback().session(units, extra, bound) as solve:
            yield solve

    @contextmanager
    def bounded(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Check]:
        try:
            lits = self._literals(units, extra)
        except LookupError:
            lits, formulas = None, True
        else:
            formulas = False
        limit = min(bound - self.instance.offset + 1, self._hard)

        def by_cpsat(more: tuple[int, ...]) -> Optimum | None:
            found = self._fallback().optimum(units + more, extra)
            return found if found is not None and found.cost <= bound else None

        def check(more: tuple[int, ...]) -> Optimum | None:
            if formulas:
                return by_cpsat(more)
            if lits is None or limit <= 0:
                return None
            fixed = self.instance.fixed
            if any(fixed.get(abs(l), l > 0) != (l > 0) for l in more):
                return None
            both = dict.fromkeys(lits + tuple(l for l in more if abs(l) not in fixed))
            if any(-l in both for l in both):
                return None
            found = self._search(tuple(both), limit)
            return by_cpsat(more) if found is _OVER_BUDGET else found

        yield check
