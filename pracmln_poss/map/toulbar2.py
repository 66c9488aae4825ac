"""A MAP backend on toulbar2 (``pytoulbar2``): exact weighted-CSP branch and bound, incremental.

The ground model becomes one cost function network over multi-valued variables
(:mod:`.cost_network`: a functional predicate's atoms are one variable, a formula is
one cost function), built once.  Every call then only assigns (or removes values for)
the evidence on top of a stored state, searches depth first under an upper bound (the
known optimum, in a backbone) and restores the state: nothing is rebuilt, so a call on
a learned model of a hundred atoms takes about a millisecond, and pracmln's
object-recognition over three clusters (280 atoms, 12,000 formulas) a few dozen.

Costs are integers below 2**53 (toulbar2 reports them as doubles, exact there); larger
instances are refused, and ``auto`` does not pick this backend for them.  Evidence
that is not a set of literals (a formula) goes to a CP-SAT backend on the clausal
instance (:mod:`.instance`), as does a search over its budget of backtracks
(deterministic, unlike a time limit); after a few such searches CP-SAT answers all
calls.  Either way the answers are exact.
"""

from __future__ import annotations

__all__ = ["Toulbar2Backend", "MAX_TOTAL_WEIGHT", "BACKTRACK_BUDGET", "GIVE_UP_AFTER"]

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import BackendError
from ..ground_mln import GroundMLN
from ..logic.formula import Formula
from .backend import Backend, Check, Solve
from .cost_network import HARD, CostNetwork, build_network
from .instance import MaxSatInstance, build_instance
from .world import Optimum

MAX_TOTAL_WEIGHT = 2**53 - 2
"""The largest total soft weight (in resolution steps) toulbar2's double costs hold exactly."""

BACKTRACK_BUDGET = 500
"""Backtracks a toulbar2 search may make before the call goes to CP-SAT instead.  No
call of a conversion of pracmln's object-recognition needs a tenth of it."""

GIVE_UP_AFTER = 3
"""After this many calls over budget, every later call goes to CP-SAT."""

_OVER_BUDGET = object()

Evidence = tuple[dict[int, int], set[tuple[int, int]]]
"""Evidence on the network: values assigned to variables, (variable, value) removed."""


class Toulbar2Backend(Backend):
    """Exact MAP inference with toulbar2, one network for all calls."""

    name = "toulbar2"
    instance: MaxSatInstance  # always set: the clausal instance, for CP-SAT's answers

    def __init__(self, mln: GroundMLN, instance: MaxSatInstance | None = None) -> None:
        try:
            import pytoulbar2
            from pytoulbar2 import pytb2
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise BackendError(f"the toulbar2 backend needs pytoulbar2 ({exc})") from exc
        super().__init__(mln)
        self.instance = instance if instance is not None else build_instance(mln)
        self.network: CostNetwork = build_network(mln)
        self.unsat_reason = self.instance.unsat_reason or self.network.unsat_reason
        self._contradiction = pytb2.Contradiction
        self._option = pytb2.option
        self._other: Backend | None = None
        self.over_budget = 0  # calls answered by CP-SAT for lack of budget
        total = self.network.total_weight
        if total > MAX_TOTAL_WEIGHT:
            raise BackendError(
                f"the soft weights add up to {total} resolution steps, more than toulbar2 holds exactly "
                f"({MAX_TOTAL_WEIGHT}); use another backend or a coarser --resolution (resolution= from Python)"
            )
        self._hard = total + 1  # a world violating a hard formula costs more than any other
        cfn = pytoulbar2.CFN(None, resolution=0, verbose=-1)
        cfn.NoPreprocessing()  # keeps every variable and value: evidence is applied to them later
        for v, variable in enumerate(self.network.variables):
            cfn.AddVariable(f"v{v}", list(range(variable.size)))
        for f in self.network.functions:
            cfn.AddCompactFunction(list(f.scope), self._cost(f.default), [list(t) for t in f.tuples],
                                   [self._cost(c) for c in f.costs])
        self._cfn = cfn
        self._satisfiable = self.unsat_reason is None and cfn.SolveFirst() is not None

    def _cost(self, cost: int) -> int:
        return self._hard if cost == HARD else cost

    @property
    def clause_sessions(self) -> bool:  # type: ignore[override]
        # clauses over many variables cannot be added to a stored toulbar2 problem
        return self._gave_up

    @property
    def _gave_up(self) -> bool:
        return self.over_budget >= GIVE_UP_AFTER

    def _fallback(self) -> Backend:
        """CP-SAT on the clausal instance, for evidence formulas and searches over budget."""
        if self._other is None:
            from .cpsat import CPSATBackend

            self._other = CPSATBackend(self.mln, self.instance)
        return self._other

    def close(self) -> None:
        if self._other is not None:
            self._other.close()

    def _evidence(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Evidence | None:
        """The evidence on the network; None when it is impossible.

        :raises LookupError: when the evidence has a formula (not a set of literals).
        """
        if extra:
            raise LookupError("formula evidence")
        if not self._satisfiable:
            return None
        network = self.network
        assigned: dict[int, int] = {}
        removed: set[tuple[int, int]] = set()
        for u in units:
            value = network.fixed.get(abs(u))
            if value is not None:
                if value != (u > 0):
                    return None
                continue
            var, x, positive = network.literal(u)
            if positive:
                if assigned.setdefault(var, x) != x:
                    return None
            else:
                removed.add((var, x))
        if any(assigned.get(var) == x for var, x in removed):
            return None
        return assigned, {(var, x) for var, x in removed if var not in assigned}

    def _search(self, evidence: Evidence, limit: int) -> Any:
        """The best world with the evidence of cost (without the offset) below ``limit``,
        None, or ``_OVER_BUDGET``."""
        if self._gave_up:
            return _OVER_BUDGET
        cfn = self._cfn
        option = self._option
        # (options are global to pytoulbar2: set at every search)
        option.hbfs = 0  # depth-first branch and bound: these problems are small
        # no dead-end elimination: its prunings outlive the stored state they were made
        # in (a later search misses values), and it may drop a world that ties
        option.DEE = 0
        assigned, removed = evidence
        depth = cfn.Depth()
        cfn.Store()
        try:
            cfn.SetUB(limit)
            for var, x in sorted(removed):
                cfn.Remove(var, x)
            if assigned:
                cfn.MultipleAssign(list(assigned), list(assigned.values()))
            option.backtrackLimit = cfn.GetNbBacktracks() + BACKTRACK_BUDGET
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
        # exact: integers below 2**53 are exact in the double toulbar2 reports
        return Optimum(self.network.offset + round(found[1]), self.network.world(found[0]))

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        try:
            evidence = self._evidence(units, extra)
        except LookupError:
            return self._fallback().optimum(units, extra)
        if evidence is None:
            return None
        found = self._search(evidence, self._hard)
        return self._fallback().optimum(units, extra) if found is _OVER_BUDGET else found

    @contextmanager
    def session(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Solve]:
        with self._fallback().session(units, extra, bound) as solve:
            yield solve

    @contextmanager
    def bounded(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Check]:
        limit = min(bound - self.network.offset + 1, self._hard)

        def by_cpsat(more: tuple[int, ...]) -> Optimum | None:
            found = self._fallback().optimum(units + more, extra)
            return found if found is not None and found.cost <= bound else None

        def check(more: tuple[int, ...]) -> Optimum | None:
            try:
                evidence = self._evidence(units + more, extra)
            except LookupError:
                return by_cpsat(more)
            if evidence is None or limit <= 0:
                return None
            found = self._search(evidence, limit)
            return by_cpsat(more) if found is _OVER_BUDGET else found

        yield check
