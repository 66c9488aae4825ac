"""Incremental core-guided MaxSAT (OLL) with evidence as assumptions, on one SAT solver.

The MaxSAT problems of a conversion share everything but their evidence: thousands of
calls on one ground model, each under a few more unit literals.  PySAT's RC2 answers
each call from scratch (it takes no assumptions).  This solver loads the weighted CNF
into one incremental SAT solver once and passes each call's evidence as assumptions,
so that what does not depend on the evidence is found once and kept:

- the cores of the model without evidence, and the reformulation they give (OLL:
  Morgado, Dodaro and Marques-Silva, CP 2014; as in RC2, Ignatiev, Morgado and
  Marques-Silva, JSAT 2019): every call starts from it, at its lower bound;
- the totalizers (Bailleux and Boufkhad, CP 2003) made for any core of any call, by
  their inputs: their clauses only define new variables, so they stay valid for every
  evidence set, and a core met again reuses its totalizer.

A call under evidence ``E`` continues the core-guided search from the shared state
on a copy of its bookkeeping, dropped after the call.  A core found under ``E`` holds
only where the evidence literals the SAT solver used to refute it (its condition)
hold: it is recorded with them, and a later call whose evidence has the condition
relaxes it again without a SAT call.  Nothing that depends on the evidence is ever
added to the SAT solver as a clause (no hardening; a unit core under evidence is
dropped from the assumptions, not negated), so the solver stays sound for every later
call.  The search without evidence is stratified (the heaviest soft clauses assumed
first, lighter ones once the heavier are satisfied); a call under evidence, a few
cores away from its end, assumes everything at once.

At the end of a call, every assignment satisfying the evidence and the final
assumptions (the solution's ``assumptions``) has the optimal cost, and every optimal world
extends to one (with each totalizer output set exactly when its sum is reached): the
optimal worlds are the models of a SAT problem on the same solver, which is how
:mod:`.backbone` finds the literals true in all of them in a few SAT calls
(docs/map-engine.md proves both).
"""

from __future__ import annotations

__all__ = ["CoreGuided", "Solution"]

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pysat.card import ITotalizer
from pysat.solvers import Solver

from ..closable import Closable
from ..stopping import SAT_SOLVER, Guard, SatOracle, given, model_of
from .backend import OverBudget

Clause = Sequence[int]

SEEN = 8
"""Models of a question's strata kept (the best is a world to show when the question
is stopped before its optimum is proven)."""

MAX_RECORDED = 200_000
"""Cores found under evidence kept for replay at most (a few hundred bytes each)."""


@dataclass(frozen=True)
class Solution:
    """An optimum found under some evidence.

    :ivar cost: the optimal cost (the weight of the soft clauses it violates).
    :ivar model: the SAT solver's model (``model[v - 1]`` is ``v`` or ``-v``), as an
        ``array`` where it is kept (4 bytes a variable, not a list's 36: the engine keeps
        a few dozen recent solutions, each with a value per ground atom and more).
    :ivar assumptions: the evidence and the final assumptions: the SAT solver's models
        under them are exactly the optimal assignments (projected on the instance's
        variables).
    """

    cost: int
    model: Sequence[int]
    assumptions: list[int]


class _State:
    """The bookkeeping of the core-guided search: the weight of every live assumption (a
    soft clause's selector, or a totalizer bound ``not (sum >= bound + 1)``), every bound
    assumption ever made with its totalizer, bound and unit weight, and the lower bound."""

    __slots__ = ("weights", "bounds", "cost")

    def __init__(self, weights: dict[int, int], bounds: dict[int, tuple[ITotalizer, int, int]], cost: int) -> None:
        self.weights = weights
        self.bounds = bounds
        self.cost = cost

    def copy(self) -> _State:
        return _State(dict(self.weights), dict(self.bounds), self.cost)


class CoreGuided(Closable):
    """A weighted CNF in one incremental SAT solver, optimised under any evidence.

    :param hard: the hard clauses.
    :param soft: the soft clauses with their positive int weights.
    :param top: the largest variable the clauses use (new ones are made above it).
    :param solver: the PySAT SAT solver's name.
    """

    def __init__(self, hard: Iterable[Clause], soft: Iterable[tuple[Clause, int]], top: int,
                 solver: str = SAT_SOLVER, guard: Guard | None = None) -> None:
        self.top = top
        self.guard = given(guard)
        self.oracle: SatOracle = Solver(name=solver, bootstrap_with=[list(c) for c in hard])
        self._open = True
        weights: dict[int, int] = {}
        for clause, weight in soft:
            if weight <= 0:
                raise ValueError(f"soft clause {list(clause)} has weight {weight}; weights must be positive")
            if len(clause) == 1:
                selector = clause[0]  # a unit soft clause is its own selector
            else:
                selector = self.new_var()
                self.oracle.add_clause([*clause, -selector])  # selector -> clause
            weights[selector] = weights.get(selector, 0) + weight
        self._totalizers: dict[frozenset[int], list[ITotalizer]] = {}
        self._base = _State(weights, {}, 0)
        self._base_done = False
        self._base_found: Solution | None = None
        # cores found under evidence, with the evidence literals each needed (replayed by
        # later calls whose evidence has them), indexed by their least literal
        self._records: list[tuple[frozenset[int], tuple[int, ...]]] = []
        self._recorded: set[tuple[frozenset[int], tuple[int, ...]]] = set()
        self._by_literal: dict[int, list[int]] = {}
        self.base_top = top  # the variables in use once the search without evidence is done
        self.seen: list[list[int]] = []  # models the strata of the question under way found (--anytime)

    # -- resources ------------------------------------------------------------------

    def new_var(self) -> int:
        """A variable no clause uses yet."""
        self.top += 1
        return self.top

    def close(self) -> None:
        """Release the SAT solver and the totalizers."""
        for made in self._totalizers.values():
            for t in made:
                t.delete()
        self._totalizers.clear()
        if self._open:
            self.oracle.delete()
            self._open = False

    # -- solving -------------------------------------------------------------------

    def solve(self, evidence: Sequence[int] = (), cores: int | None = None) -> Solution | None:
        """An optimum under the evidence literals (hard for this call only); None when
        the hard clauses and the evidence have no model.

        :param cores: relax at most so many cores under the evidence (None: no limit).
        :raises OverBudget: past that; the solver stays sound for later calls (what the
            call relaxed was a copy, what it added holds for every evidence)."""
        self.seen.clear()
        base = self._base_solution()
        if base is None or not evidence:
            return base
        state = self._base.copy()
        found = self._optimise(state, list(evidence), cores=cores)
        return None if found is None else Solution(state.cost, *found)

    def _base_solution(self) -> Solution | None:
        """The optimum without evidence, whose reformulation every call starts from
        (found once); None when the hard clauses are unsatisfiable."""
        if not self._base_done:
            self._base_done = True
            found = self._optimise(self._base, [], shared=True)
            self._base_found = None if found is None else Solution(self._base.cost, *found)
            self.base_top = self.top
        return self._base_found

    def sat(self, assumptions: list[int]) -> bool:
        """Whether the clauses have a model under ``assumptions`` (the oracle keeps it)."""
        return self.guard.sat(self.oracle, assumptions)

    def _optimise(self, state: _State, evidence: list[int], shared: bool = False, cores: int | None = None
                  ) -> tuple[Sequence[int], list[int]] | None:
        """Run the core-guided search on ``state`` under the evidence until every
        assumption is satisfiable together: that model and the assumptions (the evidence
        first); None when the evidence is impossible.

        ``shared``: the state is the one every call starts from (no evidence), whose
        unit cores hold in every world and may become hard clauses.
        """
        given = set(evidence)
        if evidence and not self._replay(state, given):
            return None
        # strata pay off in a long search (the shared one); a call under evidence starts
        # from its result and needs a few cores more: every assumption at once
        threshold = _first_level(state.weights) if shared else 0
        relaxed = 0
        while True:
            if cores is not None and relaxed > cores:  # (between two steps: nothing half done)
                raise OverBudget(f"core-guided search after {cores} cores")
            weights = state.weights
            active = list(weights) if threshold == 0 else [a for a, w in weights.items() if w >= threshold]
            assumptions = evidence + active
            if self.sat(assumptions):
                if self.guard.under_deadline and len(self.seen) < SEEN:
                    self.seen.append(model_of(self.oracle))
                lower = _next_level(weights, threshold)
                if lower is None:  # (every assumption was active)
                    return array("i", model_of(self.oracle)), assumptions
                threshold = lower
                continue
            raw = self.oracle.get_core() or ()
            core = [l for l in raw if l not in given]
            if given:
                self._record(frozenset(l for l in raw if l in given), tuple(sorted(core)))
            if not core:
                return None  # the evidence contradicts the hard clauses
            self._relax(state, core, shared)
            relaxed += 1

    def _record(self, condition: frozenset[int], core: tuple[int, ...]) -> None:
        """Keep a core found under evidence with the evidence literals it needed (its
        condition): it holds in every later call whose evidence has them (an empty core:
        such evidence is impossible)."""
        if not condition or len(self._records) >= MAX_RECORDED or (condition, core) in self._recorded:
            return
        self._recorded.add((condition, core))
        self._by_literal.setdefault(min(condition), []).append(len(self._records))
        self._records.append((condition, core))

    def _replay(self, state: _State, given: set[int]) -> bool:
        """Relax, in the order they were found, the recorded cores whose condition the
        evidence has and whose members are all live in ``state``: each is valid here, so
        the search starts past them without a SAT call.  False when a recorded core
        shows the evidence impossible."""
        found = sorted({i for l in given for i in self._by_literal.get(l, ()) if self._records[i][0] <= given})
        for i in found:
            core = self._records[i][1]
            if not core:
                return False
            weights = state.weights
            if all(l in weights for l in core):
                self._relax(state, list(core), False)
        return True

    def _relax(self, state: _State, core: list[int], shared: bool) -> None:
        """OLL's step on one core (as RC2 takes it): its least weight is paid and taken
        off every member; a bound assumption in it lets its sum go one higher; the
        members become the inputs of a new sum that may reach 1 for free."""
        weights, bounds = state.weights, state.bounds
        least = min(weights[l] for l in core)
        state.cost += least
        for l in core:
            left = weights.pop(l) - least
            if left:
                weights[l] = left
            if l in bounds:
                t, bound, unit = bounds[l]
                self._assume_bound(state, t, bound + 1, unit)
        if len(core) > 1:
            self._assume_bound(state, self._totalizer(state, frozenset(-l for l in core)), 1, least)
        elif shared and core[0] not in bounds:
            self.oracle.add_clause([-core[0]])  # a unit core without evidence: the hard clauses falsify it

    def _totalizer(self, state: _State, lits: frozenset[int]) -> ITotalizer:
        """A totalizer over ``lits`` that ``state`` does not use yet: one made for an
        earlier call if there is one (their clauses hold for every call), else a new one."""
        made = self._totalizers.setdefault(lits, [])
        for t in made:
            if -t.rhs[1] not in state.bounds:
                return t
        t = ITotalizer(lits=sorted(lits), ubound=1, top_id=self.top)
        self.top = t.top_id
        for clause in t.cnf.clauses:
            self.oracle.add_clause(clause)
        made.append(t)
        return t

    def _assume_bound(self, state: _State, t: ITotalizer, bound: int, unit: int) -> None:
        """Assume ``sum <= bound`` at weight ``unit``, unless that bound was assumed before
        in this search (it was relaxed since, and a higher one stands for it)."""
        if bound >= len(t.lits):
            return  # the sum cannot exceed the number of its inputs
        if bound >= len(t.rhs):
            t.increase(ubound=bound, top_id=self.top)
            self.top = t.top_id
            if t.nof_new:
                for clause in t.cnf.clauses[-t.nof_new:]:
                    self.oracle.add_clause(clause)
        lit = -t.rhs[bound]
        if lit not in state.bounds:
            state.bounds[lit] = (t, bound, unit)
            state.weights[lit] = unit


def _first_level(weights: dict[int, int]) -> int:
    """The first stratum: the heaviest weight (every assumption when there is none)."""
    return max(weights.values(), default=0)


def _next_level(weights: dict[int, int], threshold: int) -> int | None:
    """The next, lighter stratum: the largest weight below ``threshold`` (None: every
    assumption is active already)."""
    if threshold == 0:
        return None
    return max((w for w in weights.values() if w < threshold), default=None)
