"""How long the rules pass will take, forecast while the penalties pass runs (:class:`Forecast`)."""

from __future__ import annotations

__all__ = ["Forecast", "SAMPLE_SHARE", "SAMPLE_LEAST", "RULE_SECONDS"]

import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from ..map.engine import World
from ..weights import INF, Level
from .checkpoint import Packed, unpack_world
from .evidence import EvidenceSet
from .progress import Reporter
from .rule_search import RuleSearch
from .rules_pass import Tables, TimedState, drop_each, run_rules
from .run import RuleStats
from .symmetry import Memo
from .tally import spread
from .workers import ChunkRunner

SAMPLE_SHARE = 0.02
"""What timing the rules of sets costs, as a share of the penalties pass so far (at least
:data:`SAMPLE_LEAST` seconds): the forecast of the rules pass as the optima come."""

SAMPLE_LEAST = 0.05
"""The least seconds the sample of the rules may take (the penalties pass's first
seconds would allow it next to nothing)."""

RULE_SECONDS = 6e-6
"""What taking in one rule, as the theory writes it, costs the caller of the search
(writing it, mostly): 2.17 s for the 370,619 rules of object-recognition over 2 clusters
at k = 2, 0.14 s for the 24,296 of CORA at k = 3 (5.9 and 5.8 µs: per rule as found,
one with many conclusions, 123 and 48 µs)."""


class Forecast:
    """How long the rules pass will take, told ``report`` (:meth:`.Reporter.expect_after`)
    as the chunks of optima of the last size are done (``optima``: of the sets found so
    far), from the rules of the first sets of each timed here, in their order (the
    chunks come spread over the pass, :mod:`.tally`; sets spread over a chunk cost three
    times what they do in the pass over CORA, which finds one after the other): for
    :data:`SAMPLE_SHARE` of the pass so far in all.  The rules pass costs 0.002 to 3.5 times the penalties pass by the
    model (meals: the backbones come with the optima; the smokers: the rules ask for
    them), so no constant makes the first estimate of a whole run hold; the sets of the
    last size are most of the sets.  The tables are as far as they are known (a penalty
    not yet found is taken as 0): the rules are thrown away, only their time counts.

    The backbones of the smaller sets the rules of the last size ask for are found once
    in the pass, and once here (one state keeps them from chunk to chunk): not in the
    cost of a set of the last size (found again for each chunk, the one of no evidence
    said a rules pass of 80 s over meals would take 20 minutes); with one worker, the
    rules of its subsets are run before it, untimed (:meth:`_as_before`).  The sets below the
    last size are timed whole, their backbones included, in a state of their own: the
    pass finds the backbone of each that its subsets do not decide, and only of those
    (over CORA at k = 4, 3,016 of 15,438, where pricing a backbone for each said 13.5 s
    of a rules pass of 31 s).  They are timed the first of each size first, then spread
    over them (:func:`_sample_order`), as much as they weigh in the pass
    (:meth:`_behind`); and the rules taken in are counted as the theory writes them (a
    rule found over object-recognition at k = 2 has 41 conclusions on average, each
    written).

    :param smaller: the sets below the last size.
    """

    def __init__(self, search: RuleSearch, runner: ChunkRunner[RuleSearch],
                 optima: Mapping[EvidenceSet, Packed | None], smaller: Sequence[EvidenceSet]) -> None:
        self.search, self.runner, self.optima = search, runner, optima
        self.counts = Counter(len(e) for e in smaller)  # (sets below the last size, by size)
        self.spent = 0.0
        self.timed = 0
        self.found = RuleStats()  # (the rules of the sets of the last size timed: the theory gets theirs as written)
        self.set_seconds = 0.0
        self.lazy_seconds = 0.0  # (the backbones one literal smaller the timed sets found that their subsets had not)
        self.touched: set[EvidenceSet] = set()  # (the representatives one literal smaller of the timed sets)
        self.state: TimedState | None = None
        self.small: TimedState | None = None  # (the sets below the last size: their backbones their own)
        self.by_size: dict[int, tuple[int, float]] = {}  # (sets below the last size timed, by size, and their seconds)
        self._smaller = _sample_order(smaller)
        self._firsts = len(self.counts)  # (the first set of each size below is timed before the rest are weighed)
        self._levels: set[Level] | None = None  # (the finite penalties found so far)
        self._before: set[EvidenceSet] = set()  # (the smaller sets whose rules ran in the state of the last size)

    def time(self, chunk: Sequence[EvidenceSet], report: Reporter) -> None:
        """Time the rules of sets of ``chunk`` (its optima just found), and tell ``report``."""
        empty = self.optima.get(())
        if empty is None or report.total is None:
            return
        self._learn(chunk, empty[0])
        budget = max(SAMPLE_LEAST, SAMPLE_SHARE * report.elapsed) - self.spent
        if self.timed and budget <= 0:
            return
        state, small = self._states(empty[0])
        k = self.search.options.k
        start = time.process_time()
        sets = iter(chunk)  # (its first sets, in their order, as the pass finds them: alone, one costs 3 times as much)
        while time.process_time() - start < budget or not self.timed:
            lesser = next(self._smaller, None) if self._behind(report.total) else None
            if lesser is not None:
                began = time.process_time()
                run_rules(self.search, self.runner.engine, small, [(lesser, None)])
                n, seconds = self.by_size.get(len(lesser), (0, 0.0))
                self.by_size[len(lesser)] = (n + 1, seconds + time.process_time() - began)
                continue
            e = next(sets, None)
            if e is None:
                break
            if self.runner.workers == 1:
                self._as_before(state, e)
            began, backbones = time.process_time(), state.seconds
            self.found.add(1, run_rules(self.search, self.runner.engine, state,
                                        [(e, self.optima[e] if len(e) == k else None)]))
            lazy = state.seconds - backbones
            self.set_seconds += time.process_time() - began - lazy
            self.lazy_seconds += lazy
            self.touched.update(self.search.canon(rest)[0] for _y, rest in drop_each(e))
            self.timed += 1
        self.spent += time.process_time() - start
        if not self.timed:
            return
        # (the workers find the rules; this process takes each in)
        report.expect_after((self._at_last_size(report.total) + self._below()) / self.runner.workers + self._lazy()
                            + RULE_SECONDS * self.found.written(self.search.one_per_class) / self.timed * report.total)

    def _at_last_size(self, total: int) -> float:
        """The seconds the rules of the sets of the last size take, as those timed did."""
        return self.set_seconds / self.timed * (total - self.counts.total()) if self.timed else 0.0

    def _lazy(self) -> float:
        """The seconds the backbones of sets one literal smaller take that only the rules of
        the last size ask for (their own rules decided without), as the timed sets found
        them per representative they touched: each is found once, by every worker whose
        chunks ask for it (over meals at k = 2 with one worker, 2.3 s of a rules pass of
        21 s)."""
        if not self.touched:
            return 0.0
        return self.lazy_seconds * max(self.counts[self.search.options.k - 1], len(self.touched)) / len(self.touched)

    @property
    def small_seconds(self) -> float:
        """What the sets below the last size timed took, in all."""
        return sum(seconds for _n, seconds in self.by_size.values())

    def _below(self) -> float:
        """The seconds the rules of the sets below the last size take, as those timed did
        (a size none of whose sets was timed, at the mean of all timed)."""
        timed = sum(n for n, _seconds in self.by_size.values())
        mean = self.small_seconds / timed if timed else 0.0
        return sum(n * (self.by_size[size][1] / self.by_size[size][0] if size in self.by_size else mean)
                   for size, n in self.counts.items())

    def _behind(self, total: int) -> bool:
        """Whether a set below the last size is timed next: the first of each size, then
        while their share of the sample's seconds is below their share of the pass as
        the sample has it (stratified: each kind of set timed as much as it weighs; over
        CORA they are a twentieth of the pass, over meals two thirds)."""
        if len(self.by_size) < self._firsts:
            return True
        below, last = self._below(), self._at_last_size(total)
        return self.small_seconds * (below + last) < below * (self.small_seconds + self.set_seconds)

    def _as_before(self, state: TimedState, e: EvidenceSet) -> None:
        """Run, untimed, the rules of each ``E - {y}`` of ``e`` in ``state`` (once each): with
        one worker the pass has run all the smaller sets' before the last size, so it has
        the backbones they found, and its test of cautious monotonicity looks them up (a
        table lookup a literal otherwise; over CORA at k = 4 a set of the last size cost
        0.13 ms in the sample without them, 0.074 in the pass)."""
        for _y, rest in drop_each(e):
            rep = self.search.canon(rest)[0]
            if rep not in self._before:
                self._before.add(rep)
                run_rules(self.search, self.runner.engine, state, [(rep, None)])

    def _learn(self, chunk: Sequence[EvidenceSet], base: int) -> None:
        """Take in the penalties of ``chunk`` (all those found so far at the first)."""
        optima = self.optima
        if self._levels is None:
            self._levels = {o[0] - base for o in optima.values() if o is not None}
        else:
            for e in chunk:
                found = optima.get(e)
                if found is not None:
                    self._levels.add(found[0] - base)

    def _states(self, base: int) -> tuple[TimedState, TimedState]:
        """The rule states of the sets of the last size and of those below, over the
        optima found so far (the search's own engine: one of its own would cost its
        making and first optimum, 0.57 s for object-recognition over two objects; the
        questions asked here add what they teach it, about 1.5% more solver calls in the
        rest of CORA at k = 3)."""
        optima = self.optima

        def penalty_of(e: EvidenceSet) -> Level:
            if e not in optima:
                return 0
            found = optima[e]
            return INF if found is None else found[0] - base

        def world_of(e: EvidenceSet) -> World:  # (asked only of possible sets)
            found = optima[e]
            if found is None:
                raise KeyError(e)
            return unpack_world(found)

        tables = Tables(Memo(penalty_of), Memo(world_of), tuple(sorted(self._levels or ())), base)
        if self.state is None or self.small is None:
            self.state = TimedState(self.search, self.runner.engine, tables)
            self.small = TimedState(self.search, self.runner.engine, tables)
        else:  # (the backbones found kept: the pass finds each once)
            self.state.tables = self.small.tables = tables
        return self.state, self.small


def _sample_order(smaller: Sequence[EvidenceSet]) -> Iterator[EvidenceSet]:
    """The sets below the last size in the order they are timed: the first of each size
    (over meals the one of no evidence costs what a dozen of one literal do), then the
    rest spread over them all."""
    firsts: dict[int, int] = {}
    for i, e in enumerate(smaller):
        firsts.setdefault(len(e), i)
    yield from (smaller[i] for i in firsts.values())
    taken = set(firsts.values())
    yield from (smaller[i] for i in spread(len(smaller)) if i not in taken)
