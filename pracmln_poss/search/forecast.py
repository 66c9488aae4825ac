"""How long the rules pass will take, forecast while the penalties pass runs (:class:`Forecast`)."""

from __future__ import annotations

__all__ = ["Forecast", "SAMPLE_SHARE", "SAMPLE_LEAST", "RULE_SECONDS", "CLASSIFIED", "ENGINE_LEAST"]

import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from ..map.engine import World
from ..weights import INF, Level
from .checkpoint import Packed, unpack_world
from .evidence import EvidenceSet
from .progress import Reporter
from .rule_search import RuleSearch
from .rules_pass import (
    CAUTIOUS,
    ENGINE,
    IMPOSSIBLE,
    RuleState,
    Tables,
    TimedState,
    backbone_kind,
    drop_each,
    kind_of,
    run_rules,
    work_clock,
)
from .run import RuleStats
from .symmetry import Memo
from .tally import nearest, spread
from .workers import ChunkRunner

SAMPLE_SHARE = 0.02
"""What timing the rules of sets costs, as a share of the penalties pass so far (at least
:data:`SAMPLE_LEAST` seconds): the forecast of the rules pass as the optima come."""

SAMPLE_LEAST = 0.05
"""The least seconds the sample of the rules may take (the penalties pass's first
seconds would allow it next to nothing)."""

CLASSIFIED = 64
"""Sets of each chunk of the last size whose kind is counted, spread over it, and of
those left waiting before (table lookups, about 35 µs a set over CORA at k = 4, whose
sample 256 a chunk would have spent): the kinds' shares of the pass."""

ENGINE_LEAST = 16
"""Sets the engine answers timed ahead of their chunk's order, one per chunk, before the
sample keeps to the chunks' order: over meals at k = 2 the first sets of each chunk
met five in all (7% of the sets, 18 s of a rules pass of 21), over CORA at k = 4 the
chunks' order meets hundreds, which alone, out of their order, cost three times as much."""

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

    The sets of the last size are of four kinds (:func:`~.rules_pass.kind_of`), and one,
    those the engine answers, costs a hundred times the others: the kinds are counted
    on many sets of each chunk (:meth:`_classify`, with the penalties found so far; a set
    waits for one not found yet; a chunk not counted yet has its neighbours' kinds:
    :meth:`_by_chunk`), a set the engine answers is timed first in a chunk
    while few have been (:data:`ENGINE_LEAST`), and each kind is priced at what its sets
    timed cost (:meth:`_at_last_size`): over meals at k = 2, the first sets of each
    chunk met five of them in all, where the pass spent 18 of its 21 s on them.

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

    Every time taken here leaves out what the engine makes once, when first needed
    (:func:`~.rules_pass.work_clock`): a worker made its own in the penalties pass.

    :param smaller: the sets below the last size.
    :param chunks: the chunks of the last size, in the pass's order (none: the kinds of
        all counted pooled).
    """

    def __init__(self, search: RuleSearch, runner: ChunkRunner[RuleSearch],
                 optima: Mapping[EvidenceSet, Packed | None], smaller: Sequence[EvidenceSet],
                 chunks: Sequence[Sequence[EvidenceSet]] = ()) -> None:
        self.search, self.runner, self.optima = search, runner, optima
        self.sizes = [len(c) for c in chunks]  # (the chunks of the last size, in the pass's order)
        self._chunk_of = {c[0]: i for i, c in enumerate(chunks) if c}
        self.counts = Counter(len(e) for e in smaller)  # (sets below the last size, by size)
        self.spent = 0.0
        self.timed = 0
        self.found = RuleStats()  # (the rules of the sets of the last size timed: the theory gets theirs as written)
        self.set_seconds = 0.0
        self.lazy_seconds = 0.0  # (the backbones one literal smaller the timed sets found that their subsets had not)
        self.touched: set[EvidenceSet] = set()  # (the representatives one literal smaller of the timed sets)
        self.kinds: dict[str, float] = {}  # (the sets of the last size classified, of each kind, as many as they stand for)
        self.chunk_kinds: dict[int, dict[str, float]] = {}  # (the same, by chunk of the last size)
        self._kept: tuple[tuple[int, float, int], dict[str, float]] | None = None  # (_expected's last answer)
        self.by_kind: dict[str, tuple[int, float]] = {}  # (sets of the last size timed, by kind, and their seconds)
        self.optima_seconds = 0.0  # (what the optima of the last size found so far took, and how many they are)
        self.optima_found = 0
        # (a penalty not found yet: the sets waiting for it, each with as many as it stands for)
        self._waiting: dict[EvidenceSet, list[tuple[EvidenceSet, float, int]]] = {}
        self.state: TimedState | None = None
        self.small: TimedState | None = None  # (the sets below the last size: their backbones their own)
        self.strict: RuleState | None = None  # (classifies: a penalty not yet found raises _Unknown)
        self.by_size: dict[int, tuple[int, float]] = {}  # (sets below the last size timed, by size, and their seconds)
        self._smaller = _sample_order(smaller)
        self._firsts = len(self.counts)  # (the first set of each size below is timed before the rest are weighed)
        self._levels: set[Level] | None = None  # (the finite penalties found so far)
        self._before: set[EvidenceSet] = set()  # (the smaller sets whose rules ran in the state of the last size)

    def time(self, chunk: Sequence[EvidenceSet], report: Reporter, seconds: float) -> None:
        """Time the rules of sets of ``chunk`` (its optima just found, in ``seconds``), and
        tell ``report``."""
        empty = self.optima.get(())
        if empty is None or report.total is None:
            return
        if chunk and len(chunk[0]) == self.search.options.k:
            self.optima_seconds += seconds
            self.optima_found += len(chunk)
        self._learn(chunk, empty[0])
        state, small, strict = self._states(empty[0])
        start = time.process_time()
        # (the kinds counted whatever the budget: a few microseconds a set)
        firsts = self._classify(chunk, strict)
        budget = max(SAMPLE_LEAST, SAMPLE_SHARE * report.elapsed) - self.spent
        # (first a set the engine answers, while fewer than ENGINE_LEAST were timed, and one
        # of each kind none of whose sets was timed yet; the others then in their order, as
        # the pass finds them: alone, one costs 3 times as much)
        first = [e for kind, e in firsts.items()
                 if kind not in self.by_kind or kind == ENGINE and self.by_kind[kind][0] < ENGINE_LEAST]
        sets = iter(dict.fromkeys([*sorted(first, key=lambda e: firsts.get(ENGINE) != e), *chunk]))
        while time.process_time() - start < budget or not self.timed:
            lesser = next(self._smaller, None) if self._behind(report.total) else None
            if lesser is not None:
                began = work_clock(self.runner.engine)
                run_rules(self.search, self.runner.engine, small, [(lesser, None)])
                n, seconds = self.by_size.get(len(lesser), (0, 0.0))
                self.by_size[len(lesser)] = (n + 1, seconds + work_clock(self.runner.engine) - began)
                continue
            e = next(sets, None)
            if e is None:
                break
            self._time_set(state, e)
        self.spent += time.process_time() - start
        if not self.timed:
            return
        # (the workers find the rules; this process takes each in)
        report.expect_after((self._at_last_size(report.total) + self._below()) / self.runner.workers + self._lazy()
                            + RULE_SECONDS * self.found.written(self.search.one_per_class) / self.timed * report.total)

    def _time_set(self, state: TimedState, e: EvidenceSet) -> None:
        """Time the rules of ``e``, of the last size, in ``state`` (with one worker, its
        subsets' run first, untimed: :meth:`_as_before`)."""
        if self.runner.workers == 1:
            self._as_before(state, e)
        known = self.optima[e] if len(e) == self.search.options.k else None
        began, backbones = work_clock(self.runner.engine), state.seconds
        found = run_rules(self.search, self.runner.engine, state, [(e, known)])
        lazy = state.seconds - backbones
        seconds = work_clock(self.runner.engine) - began - lazy
        self.found.add(1, found)
        self.set_seconds += seconds
        self.lazy_seconds += lazy
        self.touched.update(self.search.canon(rest)[0] for _y, rest in drop_each(e))
        self.timed += 1
        kind = IMPOSSIBLE if found.impossible else CAUTIOUS if found.cautious else backbone_kind(known)
        n, total = self.by_kind.get(kind, (0, 0.0))
        self.by_kind[kind] = (n + 1, total + seconds)

    def _classify(self, chunk: Sequence[EvidenceSet], strict: RuleState) -> dict[str, EvidenceSet]:
        """Count the kinds of up to :data:`CLASSIFIED` sets of ``chunk``, spread over it,
        each for as many sets of the chunk as it stands for, whose kind the penalties
        found so far decide, and of those that waited for a penalty of ``chunk`` (a set
        one of whose penalties is not found yet waits for it: taken as 0, it would be
        answered by the engine where the pass skips it); the first set of ``chunk`` of
        each kind counted."""
        firsts: dict[str, EvidenceSet] = {}
        if not chunk or len(chunk[0]) != self.search.options.k:
            return firsts
        freed = [waiting for found in chunk for waiting in self._waiting.pop(found, ())]
        step = max(1, len(chunk) // CLASSIFIED)
        index = self._chunk_of.get(chunk[0], -1)
        mine = [(e, len(chunk) / len(chunk[::step]), index) for e in chunk[::step]]
        for i, (e, weight, at) in enumerate([*freed, *mine]):
            try:
                kind = kind_of(self.search, strict, e, self.optima[e])
            except _Unknown as missing:
                self._waiting.setdefault(missing.args[0], []).append((e, weight, at))
                continue
            if i >= len(freed):
                firsts.setdefault(kind, e)
            self.kinds[kind] = self.kinds.get(kind, 0.0) + weight
            counted = self.chunk_kinds.setdefault(at, {})
            counted[kind] = counted.get(kind, 0.0) + weight
        return firsts

    def _at_last_size(self, total: int) -> float:
        """The seconds the rules of the sets of the last size take, as those timed did:
        each kind of set (:func:`~.rules_pass.kind_of`) as many as :meth:`_expected`
        says, at what those of its kind timed cost (a kind none of whose sets was
        timed yet, at what those of the other kinds but the engine's did: they only look
        up tables; the engine's, at what all did; with one worker, no less than an
        optimum of the last size cost on average: :meth:`_engine_price`)."""
        if not self.timed:
            return 0.0
        n, mean = total - self.counts.total(), self.set_seconds / self.timed
        classified = sum(self.kinds.values())
        if not classified:
            return n * mean
        cheap = [self.by_kind[kind] for kind in self.by_kind if kind != ENGINE]
        lookups = sum(seconds for _n, seconds in cheap) / sum(n for n, _seconds in cheap) if cheap else mean

        def price(kind: str) -> float:
            if kind == ENGINE:
                return self._engine_price(mean)
            timed = self.by_kind.get(kind)
            return timed[1] / timed[0] if timed is not None else lookups

        return sum(count * price(kind) for kind, count in self._expected(n).items())

    def _expected(self, n: int) -> dict[str, float]:
        """How many of the ``n`` sets of the last size are of each kind: each chunk's as its
        kinds go (:meth:`_by_chunk`; not told the chunks, as the kinds of all counted go).
        Kept until more are counted: the sample asks at every set it times."""
        key = (n, sum(self.kinds.values()), len(self.chunk_kinds))
        if self._kept is not None and self._kept[0] == key:
            return self._kept[1]
        expected: dict[str, float] = {}
        chunks = zip(self.sizes, self._by_chunk(), strict=True) if sum(self.sizes) == n else [(n, self.kinds)]
        for size, kinds in chunks:
            counted = sum(kinds.values())
            for kind, weight in kinds.items():
                expected[kind] = expected.get(kind, 0.0) + size * weight / counted
        self._kept = (key, expected)
        return expected

    def _by_chunk(self) -> list[dict[str, float]]:
        """The kinds of each chunk of the last size: as counted on its sets, and for a chunk
        none of whose sets is counted yet, those of its nearest counted neighbours in the
        pass's order, one on each side.  The pass's order is by atom, and the sets the
        engine answers are not spread evenly over it (over meals at k = 2, by tenths of
        the sets: 2, 2, 2, 3, 4, 1, 15, 10, 16 and 18%), and the chunks run last are those
        at its end: pooled over the chunks done, the engine's share was 1.4 to 3.5% for
        most of the penalties pass, of 7.3% (simulated on the true kinds, the engine's sets
        left came out 1.6 to 8 times too few pooled, 0.9 to 1.6 times by neighbours, over
        meals and CORA at k = 3)."""
        counted = sorted(i for i in self.chunk_kinds if i >= 0)
        out: list[dict[str, float]] = []
        for i in range(len(self.sizes)):
            if i in self.chunk_kinds:
                out.append(self.chunk_kinds[i])
                continue
            near: dict[str, float] = {}
            for j in nearest(counted, i, 1):  # (one on either side: the kinds change by stretches)
                for kind, weight in self.chunk_kinds[j].items():
                    near[kind] = near.get(kind, 0.0) + weight
            out.append(near or self.kinds)
        return out

    def _engine_price(self, mean: float) -> float:
        """The seconds of a set the engine answers: what those timed cost (none yet: what all
        timed did, ``mean``), with one worker no less than an optimum of the last size
        cost on average.  The engine asks its solver for the set's optimal worlds and
        then for each literal left open, where an optimum is often an optimal world of a
        subset read off; and with one worker, a set timed here is often one whose
        optimum the engine has just found, which it still holds: over meals at k = 2 the
        ten timed cost 22 ms on average (eight of them 0.2 ms), the same ten 190 ms in
        the pass, whose 245 cost 96 ms on average and its optima 87 ms (over CORA at
        k = 4, timed 0.65 ms, in the pass 0.5, its optima 0.07: the floor stays below).
        With workers, this process's engine found none of the optima, so holds none:
        its price stands (meals with two: 43 ms a set timed, 71 to 85 ms in the pass
        with the backbones one literal smaller they found, 110 ms an optimum; before
        what the engine makes once was left out of it, 0.88 s)."""
        timed = self.by_kind.get(ENGINE)
        sampled = timed[1] / timed[0] if timed is not None else mean
        if self.runner.workers > 1 or not self.optima_found:
            return sampled
        return max(sampled, self.optima_seconds / self.optima_found)

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

    def _states(self, base: int) -> tuple[TimedState, TimedState, RuleState]:
        """The rule states of the sets of the last size and of those below, over the
        optima found so far (the search's own engine: one of its own would cost its
        making and first optimum, 0.57 s for object-recognition over two objects; the
        questions asked here add what they teach it, about 1.5% more solver calls in the
        rest of CORA at k = 3), and one that classifies sets of the last size, where a
        penalty not found yet raises :class:`_Unknown`."""
        optima = self.optima

        def penalty_of(e: EvidenceSet) -> Level:
            if e not in optima:
                return 0
            found = optima[e]
            return INF if found is None else found[0] - base

        def known_penalty_of(e: EvidenceSet) -> Level:
            if e not in optima:
                raise _Unknown(e)
            return penalty_of(e)

        def world_of(e: EvidenceSet) -> World:  # (asked only of possible sets)
            found = optima[e]
            if found is None:
                raise KeyError(e)
            return unpack_world(found)

        levels = tuple(sorted(self._levels or ()))
        tables = Tables(Memo(penalty_of), Memo(world_of), levels, base)
        strict = Tables(Memo(known_penalty_of), tables.worlds, levels, base)
        if self.state is None or self.small is None or self.strict is None:
            self.state = TimedState(self.search, self.runner.engine, tables)
            self.small = TimedState(self.search, self.runner.engine, tables)
            # (no backbones of its own: a subset's, found over the penalties found so far,
            # may lack literals a penalty not found yet would have put in; so each test of
            # cautious monotonicity is the lookup of a penalty, which is found or raises)
            self.strict = RuleState(self.search, self.runner.engine, strict)
        else:  # (the backbones found kept: the pass finds each once)
            self.state.tables = self.small.tables = tables
            self.strict.tables = strict
        return self.state, self.small, self.strict


class _Unknown(KeyError):
    """A penalty not found yet (the set's chunk of optima is not done)."""


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
