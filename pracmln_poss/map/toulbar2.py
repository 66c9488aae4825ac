"""A MAP backend on toulbar2 (``pytoulbar2``): exact weighted-CSP branch and bound, incremental.

The ground model becomes one cost function network over multi-valued variables
(:mod:`.cost_network`: a functional predicate's atoms are one variable, a formula is
one cost function), built once.  Every call then only assigns (or removes values for)
the evidence on top of a stored state, searches depth first under an upper bound (the
known optimum, in a backbone) and restores the state: nothing is rebuilt, so a call on
a learned model of a hundred atoms takes about a millisecond, and pracmln's
object-recognition over three clusters (280 atoms, 9,000 cost functions) a few.

**No fixed budget decides.**  A search runs with a budget of backtracks; when it is
spent, the question goes to CP-SAT (:mod:`.cpsat`) with a budget of its deterministic
time, then back to toulbar2 with twice its budget, and so on until one of them answers.
Both are exact, so the first answer is the answer, and the work spent on a question is
within a small factor of what the better of the two needs for it (the budgets grow
geometrically, so the rounds that failed cost at most about as much as the one that
answers).  Budgets count work, not seconds: the same question is answered by the same
solver with the same world on every run, whatever the machine's load.  Evidence that is
not a set of literals (a formula) goes to CP-SAT directly.

**Backbones by enumeration.**  toulbar2 can list every assignment below an upper bound
(its ``allSolutions`` option): under the bound ``optimum + 1`` that is every optimal
world, and the backbone is what they share, in one search where testing one literal at
a time took one search per literal (:meth:`Toulbar2Backend.enumerate_optima`).  A
learned model's optimal worlds are few (its weights rarely tie); when they are more
than :data:`ENUMERATED`, the engine tests the candidates they leave one at a time.

Costs are integers below 2**53 (toulbar2 reports them as doubles, exact there); larger
instances are refused, and ``auto`` does not pick this backend for them.
"""

from __future__ import annotations

__all__ = ["Toulbar2Backend", "Chains", "LOCAL_CONSISTENCY", "MAX_TOTAL_WEIGHT", "FIRST_BACKTRACKS", "FIRST_WORK", "ENUMERATED", "runs_here"]

import ctypes
import functools
import math
import os
import tempfile
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from ..errors import BackendError
from ..logic.formula import Formula
from ..model.ground_mln import GroundMLN
from ..stopping import Guard
from .backend import Backend, Check, OverBudget
from .conditioning import Cells, Conditioning, Found, fixed_at, touched
from .cost_network import HARD, MAX_TOTAL_WEIGHT, CostNetwork, build_network
from .cpsat import CPSATBackend
from .decomposition import HUB_DEGREE, MAX_DENSE_CORE, DenseCore, Posed, decompose, merged
from .instance import MaxSatInstance, build_instance
from .interchangeable import FindInterchangeable, Interchangeable
from .world import Optimum, World

FIRST_BACKTRACKS = 20_000
"""toulbar2's budget in the first round of a question: a few seconds (pracmln's
object-recognition over six clusters needs 4,233 backtracks for its optimum, a
conversion's questions a few dozen each)."""

PROBE_BACKTRACKS = 1_000
"""toulbar2's budget for a first try at a question while CP-SAT leads."""

FIRST_WORK = 2.0
"""CP-SAT's budget in the first round, in its deterministic seconds (about as long)."""

GROWTH = 2
"""Each round's budgets are the last round's times this."""

ENUMERATED = 1_000
"""Optimal worlds listed at most for one backbone (beyond, its candidates are tested
one at a time)."""

ENUMERATION_BACKTRACKS = 200_000
"""toulbar2's budget for listing the optimal worlds of one backbone (beyond, the worlds
listed so far filter the candidates, and the rest are tested one at a time)."""

LOCAL_CONSISTENCY = 3
"""toulbar2's local consistency in every search (its ``LcLevel``): full directional arc
consistency (FDAC), not its default existential one (EDAC).  A conversion's questions
take few backtracks each (201 searches, 167 backtracks in all, for pracmln's
object-recognition over 10 clusters at ``k = 1``), so their cost is what each node
propagates, and EDAC's work on the model's ternary tables (a pair of clusters and a
scene) was most of it: that conversion took 76.4 s, and 42.8 s with FDAC (the same
theory, byte for byte); docs/benchmarks.md has every workload, old against new."""

MAX_KEPT_ROWS = 1 << 16
"""Core assignments listed at a table's entries (:mod:`.conditioning`) kept for later
backbones at most."""

Evidence = tuple[dict[int, int], set[tuple[int, int]]]
"""Evidence on the network: values assigned to variables, (variable, value) removed."""


class Toulbar2Backend(Backend):
    """Exact MAP inference with toulbar2, one network for all calls, CP-SAT beside it."""

    name = "toulbar2"
    instance: MaxSatInstance  # always set: the clausal instance, for CP-SAT's answers
    clause_sessions = False  # clauses over many variables cannot be added to a stored toulbar2 problem

    def __init__(self, mln: GroundMLN, instance: MaxSatInstance | None = None, guard: Guard | None = None) -> None:
        try:
            import pytoulbar2
            from pytoulbar2 import pytb2
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise BackendError(f"the toulbar2 backend needs pytoulbar2 ({exc})") from exc
        super().__init__(mln, guard)
        self.instance = instance if instance is not None else build_instance(mln)
        self.network: CostNetwork = build_network(mln)
        self.unsat_reason = self.instance.unsat_reason or self.network.unsat_reason
        self._contradiction = pytb2.Contradiction
        self._option = pytb2.option
        self._other: CPSATBackend | None = None
        self._listing: str | None = None  # the file toulbar2 lists enumerated worlds in
        self._solutions = 0  # solutions toulbar2 has listed on this network (its own count)
        self.answered: Counter[str] = Counter()  # questions answered, by solver
        self._lead = "toulbar2"  # the solver a question goes to first
        self._chains: Chains | None = None  # interchangeable constants' key variables (use_interchangeable)
        total = self.network.total_weight
        if total > MAX_TOTAL_WEIGHT:
            raise BackendError(
                f"the soft weights add up to {total} resolution steps, more than toulbar2 holds exactly "
                f"({MAX_TOTAL_WEIGHT}); use another backend or a coarser --resolution (resolution= from Python)"
            )
        self._hard = total + 1  # a world violating a hard formula costs more than any other
        self.decomposition = decompose(self.network, self._hard, self.HUB_DEGREE)
        core = self.decomposition.core
        self._index = {v: i for i, v in enumerate(core)}  # a core variable -> toulbar2's
        variables = self.network.variables
        self._dense: DenseCore | None = None
        if math.prod(variables[v].size for v in core) <= self.MAX_DENSE_CORE:
            self._dense = DenseCore.of(self.decomposition)
            self._satisfiable = self.unsat_reason is None and int(np.min(self._dense.table)) < self._hard
            return
        if not runs_here():
            raise BackendError(
                f"toulbar2 cannot run in this thread ({threading.current_thread().name}): its options are "
                "per thread, set only in the thread that loaded it; use another backend here (auto picks "
                "CP-SAT in such a thread) or an executor of processes")
        cfn = pytoulbar2.CFN(None, resolution=0, verbose=-1)
        cfn.NoPreprocessing()  # keeps every variable and value: evidence is applied to them later
        for v in core:
            cfn.AddVariable(f"v{v}", list(range(variables[v].size)))
        index = self._index
        tables, large = merged(self.decomposition.functions, self.network, self._hard)
        for scope, table in tables:
            cfn.AddFunction([index[v] for v in scope], [int(c) for c in table.reshape(-1)])
        for f in large:
            cfn.AddCompactFunction([index[v] for v in f.scope], self._cost(f.default), [list(t) for t in f.tuples],
                                   [self._cost(c) for c in f.costs])
        for scope, message in self.decomposition.base_messages().items():
            if scope:
                cfn.AddFunction([index[v] for v in scope], [int(c) for c in message.reshape(-1)])
            else:
                cfn.AddFunction([], int(message))
        self._cfn = cfn
        self._conditioning = Conditioning([variables[v].size for v in range(len(variables))], len(core), self._hard,
                                          self.TABLE_AFTER, self.TABLE_LEAST)
        self._cell_lists: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]], list[list[int]]] = {}
        self._cell_rows_kept = 0  # core assignments in _cell_lists
        self._satisfiable = self.unsat_reason is None and cfn.SolveFirst() is not None

    HUB_DEGREE: int | None = HUB_DEGREE
    """The neighbours a hub variable has at least: the leaves hubs cut off are summarised
    (:mod:`.decomposition`), toulbar2 searching the core only (None: no leaves)."""

    MAX_DENSE_CORE = MAX_DENSE_CORE
    """A core of at most this many assignments is one table, searched by array passes
    instead of toulbar2 (tests set it to 0 to exercise the search)."""

    TABLE_AFTER = 0.5
    """A table of the core variables questions touch is made once they have been asked
    about this many times per entry of it ...  (:mod:`.conditioning`)"""

    TABLE_LEAST = 2
    """... and at least this many times (tests set both lower to make one at the first
    question)."""

    def _cost(self, cost: int) -> int:
        return self._hard if cost == HARD else cost

    def use_interchangeable(self, find: FindInterchangeable) -> None:
        """Searches require the key variables of the members of each class of
        interchangeable constants that they leave free to take ascending values
        (:mod:`.interchangeable`; a class none of whose keys is one variable per member
        is left alone)."""
        found = find()
        self._chains = None if found is None else Chains.of(found, self.network, self._index)

    def _fallback(self) -> CPSATBackend:
        """CP-SAT on the clausal instance, for evidence formulas and the portfolio."""
        if self._other is None:
            self._other = self._once(lambda: CPSATBackend(self.mln, self.instance, guard=self.guard))
        return self._other

    def _made(self) -> tuple[Backend, ...]:
        """CP-SAT, once a question needed it."""
        return () if self._other is None else (self._other,)

    def close(self) -> None:
        if self._other is not None:
            self._other.close()
        if self._listing is not None:
            if os.path.exists(self._listing):
                os.unlink(self._listing)
            os.rmdir(os.path.dirname(self._listing))
            self._listing = None

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
        removed = {(var, x) for var, x in removed if var not in assigned}
        # (every value of a variable removed: impossible, also for one in no cost function,
        # which neither toulbar2 nor a leaf sees)
        if any(n >= network.variables[var].size for var, n in Counter(var for var, _ in removed).items()):
            return None
        return assigned, removed

    def _posed(self, evidence: Evidence) -> Posed:
        """The evidence as the core sees it (:meth:`.Decomposition.pose`)."""
        assigned, removed = evidence
        variables = self.network.variables
        restriction = {v: frozenset((x,)) for v, x in assigned.items()}
        for v, x in removed:
            restriction[v] = restriction.get(v, frozenset(range(variables[v].size))) - {x}
        return self.decomposition.pose(restriction)

    @contextmanager
    def _stored(self, posed: Posed, limit: int, backtracks: int, read: Iterable[int]) -> Iterator[None]:
        """The core with the question applied and costs below ``limit`` asked for, for one
        search of at most ``backtracks`` backtracks (state restored after); the key
        variables of the interchangeable constants that no atom of ``read`` (the
        evidence's and those the caller reads) mentions take ascending values.

        :raises Contradiction: (toulbar2's) when nothing is below ``limit``."""
        cfn = self._cfn
        option = self._option
        # (options are global to pytoulbar2: set at every search)
        option.hbfs = 0  # depth-first branch and bound: these problems are small
        # no dead-end elimination: its prunings outlive the stored state they were made
        # in (a later search misses values), and it may drop a world that ties
        option.DEE = 0
        option.LcLevel = LOCAL_CONSISTENCY
        index = self._index
        if limit - posed.constant <= 0:
            raise self._contradiction()
        depth = cfn.Depth()
        cfn.Store()
        try:
            cfn.SetUB(limit - posed.constant)
            assigned = {index[v]: next(iter(allowed)) for v, allowed in posed.core.items() if len(allowed) == 1}
            for v, allowed in sorted(posed.core.items()):
                if len(allowed) != 1:
                    for x in range(self.network.variables[v].size):
                        if x not in allowed:
                            cfn.Remove(index[v], x)
            if assigned:
                cfn.MultipleAssign(list(assigned), list(assigned.values()))
            for scope, grown in posed.grown:
                cfn.AddFunction([index[v] for v in scope], [int(c) for c in grown.reshape(-1)], incremental=True)
            if self._chains is not None:
                for first, second, tuples in self._chains.links(read):
                    cfn.AddCompactFunction([first, second], 0, tuples, [self._hard] * len(tuples), incremental=True)
            option.backtrackLimit = cfn.GetNbBacktracks() + backtracks
            yield
        finally:
            cfn.Restore(depth)

    def _search(self, posed: Posed, limit: int, backtracks: int, read: Iterable[int]) -> Optimum | None:
        """The best world with the evidence of cost (without the offset) below ``limit``,
        or None.  A signal stops the search (:meth:`.stopping.Guard.native`).

        :raises OverBudget: past ``backtracks``.
        """
        found = self._core_search(posed, limit, backtracks, read, anytime=True)
        return None if found is None else self._optimum(found[0], found[1], posed)

    def _core_search(self, posed: Posed, limit: int, backtracks: int, read: Iterable[int], anytime: bool = False
                     ) -> Found:
        """The core's values in the best assignment with the evidence of cost (without
        the offset) below ``limit``, and that cost; None when there is none.  With
        ``anytime``, what a stopped search had found is the backend's incumbent.

        :raises OverBudget: past ``backtracks``.
        """
        cfn = self._cfn
        while True:
            with self.guard.native(_stop_handler()) as run:
                try:
                    with self._stored(posed, limit, backtracks, read):
                        # (the last question's solution and variable weights guide this one's)
                        found = cfn.SolveNext(initHeuristics=False)
                except self._contradiction:
                    found = None
                limited = self._limited()
                if anytime and limited and found is not None:  # (what a stopped search had found: --anytime)
                    self.incumbent = self._optimum(found[0], round(found[1]), posed)
            if not run.signals:
                break
            # (a signal whose handler did not raise: ask again)
        if limited:
            raise OverBudget(f"toulbar2 after {backtracks} backtracks")
        # exact: integers below 2**53 are exact in the double toulbar2 reports
        return None if found is None else (found[0], round(found[1]))

    def _cells(self, posed: Posed) -> Cells | None:
        """The table of the core variables the question touches, when one is made
        (:mod:`.conditioning`): each entry a search of the network without evidence."""

        def search(fixed: dict[int, int]) -> Found:
            # (the members its atoms name keep their values: no chain may order them)
            return self._core_search(fixed_at(fixed), self._hard, FIRST_BACKTRACKS, self._atoms_of(fixed))

        return self._conditioning.cells(touched(posed), search)

    def _atoms_of(self, variables: Iterable[int]) -> list[int]:
        """The atoms of network variables."""
        return [a for v in variables for a in self.network.variables[v].atoms]

    def _cell_rows(self, cells: Cells, rows: NDArray[np.intp], read: Sequence[int]) -> list[list[int]] | None:
        """The core's optimal assignments at the table's optimal entries ``rows``: at each,
        toulbar2's list of the network's least-cost assignments with the touched variables
        so fixed (kept: they do not depend on the question); None when they are more than
        :data:`ENUMERATED`."""
        order = cells.dense.order
        read = (*read, *self._atoms_of(order))
        members = () if self._chains is None else tuple(map(tuple, self._chains.found.free_members(read)))
        out: list[list[int]] = []
        for row in rows.tolist():
            key = (order, tuple(row), members)
            found = self._cell_lists.get(key)
            if found is None:
                listed, complete = self._list(fixed_at(dict(zip(order, row))), cells.cost(row) + 1, ENUMERATED, read)
                if not complete:
                    return None
                found = listed
                if self._cell_rows_kept + len(found) <= MAX_KEPT_ROWS:
                    self._cell_lists[key] = found
                    self._cell_rows_kept += len(found)
            out.extend(found)
            if len(out) > ENUMERATED:
                return None
        return out

    def _optimum(self, core_values: Sequence[int], cost: int, posed: Posed) -> Optimum:
        """The world of the core's values (``cost`` theirs, without the offset)."""
        network = self.network
        return Optimum(network.offset + cost + posed.constant,
                       network.world(self.decomposition.completed(core_values, posed)))

    def _dense_optimum(self, posed: Posed, limit: int) -> Optimum | None:
        """The best world of the question of cost (without the offset) below ``limit``,
        from the core's table (:meth:`.DenseCore.optimal`)."""
        if self._dense is None:
            raise BackendError("the core is not a table")
        cost, rows = self._dense.optimal(self.decomposition, posed, every=False)
        if cost >= min(limit, self._hard):
            return None
        values: list[int] = rows[0].tolist()
        return Optimum(self.network.offset + cost, self.network.world(self.decomposition.completed(values, posed)))

    def _limited(self) -> bool:
        """Whether the last search stopped at a limit (its budget, or a signal), which is
        then cleared."""
        cfn = self._cfn
        if cfn.Limit is None:
            return False
        cfn.Limit = None
        cfn.CFN.timerStop()  # (clears the flag a signal's handler set: the next search would stop at once)
        return True

    def _answer(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int | None = None) -> Optimum | None:
        """The optimum of the evidence (``bound``: a world of cost at most ``bound``), from
        toulbar2 and CP-SAT in turns, each round with budgets :data:`GROWTH` times the
        last; the solver that answered the last question goes first."""
        try:
            evidence = self._evidence(units, extra)
        except LookupError:
            self.answered["cpsat"] += 1
            return self._fallback().within(units, extra, bound)
        if evidence is None:
            return None
        limit = self._hard if bound is None else min(bound - self.network.offset + 1, self._hard)
        if limit <= 0:
            return None
        posed = self._posed(evidence)
        if self._dense is not None:
            self.answered["table"] += 1
            return self._dense_optimum(posed, limit)
        cells = self._cells(posed)
        if cells is not None:
            self.answered["toulbar2"] += 1  # (the table's searches are toulbar2's)
            cost, rows = cells.dense.optimal(self.decomposition, posed, every=False)
            if cost >= min(limit, self._hard):
                return None
            return Optimum(self.network.offset + cost,
                           self.network.world(self.decomposition.completed(cells.core_values(rows[0]), posed)))
        budgets = {"toulbar2": float(FIRST_BACKTRACKS), "cpsat": FIRST_WORK}
        order = ("toulbar2", "cpsat") if self._lead == "toulbar2" else ("cpsat", "toulbar2")
        if self._lead != "toulbar2":
            # toulbar2 learns from its failures (its variables' weights, its last solution)
            # and may answer the next questions at once, where CP-SAT copies its model anew
            # at every question: a short try first (pracmln's meals: after one question it
            # failed, a lead by CP-SAT made a conversion five times slower)
            try:
                found = self._search(posed, limit, PROBE_BACKTRACKS, units)
            except OverBudget:
                pass
            else:
                self._lead = "toulbar2"
                self.answered["toulbar2"] += 1
                return found
        while True:
            for solver in order:
                try:
                    if solver == "toulbar2":
                        found = self._search(posed, limit, int(budgets[solver]), units)
                    else:
                        found = self._fallback().within(units, extra, bound, budgets[solver])
                except OverBudget:
                    continue
                self._lead = solver
                self.answered[solver] += 1
                return found
            budgets = {solver: budget * GROWTH for solver, budget in budgets.items()}

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        return self._answer(units, extra)

    @contextmanager
    def bounded(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Check]:
        def check(more: tuple[int, ...]) -> Optimum | None:
            return self._answer(units + more, extra, bound)

        yield check

    def enumerate_optima(self, units: tuple[int, ...], extra: tuple[Formula, ...], known: World, cost: int,
                         read: Sequence[int] = (), limit: int | None = None) -> tuple[list[World], bool] | None:
        """The optimal worlds of the evidence (``known`` is one, ``cost`` the optimum): up
        to about ``limit`` of them (default :data:`ENUMERATED`), and whether they are all
        as far as the atoms of ``read`` tell (the members of interchangeable classes that
        neither they nor the evidence mention are listed in ascending order only).

        toulbar2 lists the assignments below ``cost + 1`` with the variables in no cost
        function fixed to their values in ``known`` (their values are independent of
        everything else: listing them would multiply the worlds); each other value of
        such a variable gives one more world, ``known`` with that value."""
        try:
            evidence = self._evidence(units, extra)
        except LookupError:
            return None
        if evidence is None:
            return [], True
        network = self.network
        assigned, removed = evidence
        worlds: list[World] = []
        fixed = dict(assigned)
        for v in sorted(network.free - set(assigned)):
            fixed[v] = value = network.value_in(v, known)
            worlds.extend(network.with_value(known, v, x) for x in range(network.variables[v].size)
                          if x != value and (v, x) not in removed)
        if self._dense is not None:
            return None
        posed = self._posed((fixed, removed))
        listed, complete = self._list(posed, cost - network.offset + 1, ENUMERATED if limit is None else limit,
                                      (*units, *read))
        worlds.extend(self._optimum(values, 0, posed).world for values in listed)
        # (a leaf's other least-cost assignments are not listed)
        return worlds, complete and not self.decomposition.leaves

    def backbone(self, units: tuple[int, ...], extra: tuple[Formula, ...], cost: int, candidates: set[int]
                 ) -> set[int] | None:
        """The candidates true in every optimal world of the evidence (``cost`` the optimum):
        the values each variable takes in some optimal world, from the optimal entries of
        the core's table, or from toulbar2's list of the core's optimal assignments
        (:meth:`.Decomposition.present`); None when they are more than :data:`ENUMERATED`."""
        try:
            evidence = self._evidence(units, extra)
        except LookupError:
            return None
        if evidence is None:
            return set()
        network, decomposition = self.network, self.decomposition
        posed = self._posed(evidence)
        wanted = {network.place[abs(c)][0] for c in candidates}
        if self._dense is not None:
            least, rows = self._dense.optimal(decomposition, posed, every=True)
            if least != cost - network.offset:
                raise BackendError(f"the core's optimum ({least}) is not the known one ({cost - network.offset})")
        elif (cells := self._cells(posed)) is not None:
            least, optimal = cells.dense.optimal(decomposition, posed, every=True)
            if least != cost - network.offset:
                raise BackendError(f"the table's optimum ({least}) is not the known one ({cost - network.offset})")
            found = self._cell_rows(cells, optimal, (*units, *candidates))
            if found is None:
                return None
            rows = np.array(found, dtype=np.intp).reshape(len(found), len(decomposition.core))
        else:
            listed, complete = self._list(posed, cost - network.offset + 1, ENUMERATED, (*units, *candidates))
            if not complete:
                return None
            rows = np.array(listed, dtype=np.intp).reshape(len(listed), len(decomposition.core))
        present = decomposition.present(posed, rows, wanted)
        kept = set()
        for c in candidates:
            var, x, positive = network.literal(c)
            if present[var] == {x} if positive else x not in present[var]:
                kept.add(c)
        return kept

    def _list(self, posed: Posed, limit: int, most: int, read: Iterable[int]) -> tuple[list[list[int]], bool]:
        """The core's assignments under the question of cost (without the offset) below ``limit``,
        at most ``most`` of them, and whether that is all (toulbar2 writes them to a file
        of ours as it finds them: its list in memory only grows).

        toulbar2's limit on solutions counts those of every listing since the network
        was built (it never resets its count): the limit asked for is past the ones
        already listed, which this backend counts as it reads them."""
        if self._listing is None:
            self._listing = os.path.join(tempfile.mkdtemp(prefix="pracmln-poss-"), "optima")
        cfn, option = self._cfn, self._option
        while True:
            try:
                with self.guard.native(_stop_handler()) as run, _solutions_written_to(option, self._listing):
                    option.allSolutions = self._solutions + most + 1
                    try:
                        with self._stored(posed, limit, ENUMERATION_BACKTRACKS, read):
                            cfn.SolveNext()
                    except self._contradiction:
                        pass
                    finally:
                        option.allSolutions = 0
                        over = self._limited()
            finally:
                lines = self._read_listing(self._listing)  # (a stopped listing's solutions count too)
            if not run.signals:
                break
        size = len(self.decomposition.core)
        listed = [[int(x) for x in line.split()] for line in lines]
        wrong = next((values for values in listed if len(values) != size), None)
        if wrong is not None:
            raise BackendError(f"toulbar2 listed an assignment of {len(wrong)} variables, not {size}")
        return listed, not over and len(listed) <= most

    def _read_listing(self, path: str) -> list[str]:
        """The lines of the last listing (one per solution), counted; the file removed
        (a listing that never opened it reads nothing)."""
        try:
            with open(path) as listing:
                lines = listing.read().splitlines()
        except FileNotFoundError:
            return []
        os.unlink(path)
        self._solutions += len(lines)
        return lines


_SET_BY_DEFAULT = ("btdSubTree", "hbfsGlobalLimit", "maxEACIter", "weightedDegree")
"""toulbar2 options whose defaults are not 0 (-1, 32768, 10000, 1000000)."""


def runs_here() -> bool:
    """Whether toulbar2 can search in the calling thread: its options are the thread's
    own (``thread_local`` in its C++ library), given their defaults in the thread that
    loaded it only; elsewhere every one is 0, and a search refuses to start ("bad
    solver configuration") or would run with settings no one chose."""
    from pytoulbar2 import pytb2

    return any(getattr(pytb2.option, name) != 0 for name in _SET_BY_DEFAULT)


@functools.cache  # (the library's address: looked up once)
def _stop_handler() -> int | None:
    """The address of toulbar2's own time-out handler, the C function its time limit
    calls (it makes the search stop at its next choice point; pytoulbar2 installs it for
    Ctrl-C too when given a time limit); None when the library does not export it."""
    from pytoulbar2 import pytb2

    try:
        return ctypes.cast(ctypes.CDLL(pytb2.__file__)._Z7timeOuti, ctypes.c_void_p).value or None
    except (OSError, AttributeError):  # pragma: no cover - another toulbar2 build
        return None


class _SolutionFile(Protocol):
    """pytoulbar2's options, as far as they say where solutions are written."""

    def closeSolution(self) -> None: ...  # (pytoulbar2's names)

    def writeSolution(self, path: str) -> None: ...


@contextmanager
def _solutions_written_to(option: _SolutionFile, path: str) -> Iterator[None]:
    """toulbar2 writes every solution it finds to ``path`` inside the block.

    Its ``closeSolution`` closes the file but keeps writing to it (a freed ``FILE``: the
    heap is corrupted at the next solution found), and ``writeSolution`` opens a file
    without closing the last one.  So: the null device's file, if open, is closed, ours
    opened; after the block, ours is closed (its lines flushed) and the null device's
    opened again, for every later search of any toulbar2 network of the process (so
    there is always one to close: :func:`_null_sink` opens it at the process's first)."""
    _null_sink()
    option.closeSolution()
    option.writeSolution("1")  # (the format: value indices)
    option.writeSolution(path)
    try:
        yield
    finally:
        option.closeSolution()
        option.writeSolution(os.devnull)


@functools.cache  # (once per process: toulbar2's options are the process's)
def _null_sink() -> None:
    """Open toulbar2's solution file on the null device, at the process's first search
    that lists solutions."""
    from pytoulbar2 import pytb2

    pytb2.option.writeSolution(os.devnull)


Link = tuple[int, int, list[list[int]]]
"""Two key variables and the value pairs that break their order (the first's larger)."""


@dataclass(frozen=True)
class Chains:
    """Per class of interchangeable constants, one network variable per member (its key,
    :mod:`.interchangeable`), whose values correspond across the members: value ``x``
    of each is the image of the others' value ``x`` under the permutations."""

    found: Interchangeable
    variables: tuple[tuple[int, ...], ...]  # per class (as in found), per member; () for a class left alone
    sizes: tuple[int, ...]

    @classmethod
    def of(cls, found: Interchangeable, network: CostNetwork, index: Mapping[int, int]) -> Chains:
        """For each class the key with the most values that is a whole variable of the
        network per member, searched by toulbar2 (``index``: the network's variables
        searched, and their toulbar2 indices) and in some cost function, the same value
        for the images of an atom; none where no key is (the chains are in toulbar2's
        indices)."""
        variables: list[tuple[int, ...]] = []
        sizes: list[int] = []
        for keys in found.keys:
            best: tuple[tuple[int, ...], int] = ((), 0)
            for key in keys.values():
                placed = [[network.place.get(a) for a in member] for member in key]
                if any(p is None for member in placed for p in member):
                    continue  # (an atom fixed by the database)
                by_member = [{p[0] for p in member if p is not None} for member in placed]
                if any(len(v) != 1 for v in by_member):
                    continue
                chain = tuple(next(iter(v)) for v in by_member)
                values = [tuple(p[1] for p in member if p is not None) for member in placed]
                size = network.variables[chain[0]].size
                whole = all(len(network.variables[v].atoms or (0,)) == len(member) for v, member in zip(chain, key))
                if (len(set(chain)) == len(chain) and whole and all(v == values[0] for v in values)
                        and all(v in index and v not in network.free for v in chain) and size > best[1]):
                    best = (tuple(index[v] for v in chain), size)
            variables.append(best[0])
            sizes.append(best[1])
        return cls(found, tuple(variables), tuple(sizes))

    @cached_property
    def _above(self) -> dict[int, list[list[int]]]:
        """Per domain size, the value pairs ``(x, y)`` with ``x > y``."""
        return {size: [[x, y] for x in range(size) for y in range(x)] for size in set(self.sizes) if size}

    def links(self, read: Iterable[int]) -> list[Link]:
        """The order to impose when the atoms of ``read`` must keep their values: each
        class's key variables of the members they do not mention, ascending."""
        out: list[Link] = []
        for chain, size, free in zip(self.variables, self.sizes, self.found.free_members(read)):
            if chain and len(free) > 1:
                out.extend((chain[a], chain[b], self._above[size]) for a, b in zip(free, free[1:]))
        return out
