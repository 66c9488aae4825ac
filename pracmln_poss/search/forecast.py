"""How long the rules pass will take, forecast while the penalties pass runs (:class:`Forecast`)."""

from __future__ import annotations

__all__ = ["Forecast", "SAMPLE_SHARE", "SAMPLE_LEAST", "RULE_SECONDS"]

import time
from collections.abc import Mapping, Sequence

from ..map.engine import World
from ..weights import INF, Level
from .checkpoint import Packed, unpack_world
from .evidence import EvidenceSet
from .progress import Reporter
from .rule_search import RuleSearch
from .rules_pass import Tables, TimedState, run_rules
from .symmetry import Memo
from .workers import ChunkRunner

SAMPLE_SHARE = 0.02
"""What timing the rules of sets costs, as a share of the penalties pass so far (at least
:data:`SAMPLE_LEAST` seconds): the forecast of the rules pass as the optima come."""

SAMPLE_LEAST = 0.05
"""The least seconds the sample of the rules may take (the penalties pass's first
seconds would allow it next to nothing)."""

RULE_SECONDS = 5e-6
"""What taking in one rule costs the caller of the search (writing it, mostly): 2.1 s
for the 371,041 rules of object-recognition over 2 clusters at k = 2."""


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

    The backbones of the smaller sets the rules ask for are found once in the pass, and
    once here (one state keeps them from chunk to chunk), and priced by their size: over
    meals the one of no evidence costs what a dozen of one literal do, and found again
    for each chunk it said a rules pass of 80 s would take 20 minutes.

    :param smaller: how many sets of each size below the last there are.
    """

    def __init__(self, search: RuleSearch, runner: ChunkRunner[RuleSearch],
                 optima: Mapping[EvidenceSet, Packed | None], smaller: Mapping[int, int]) -> None:
        self.search, self.runner, self.optima, self.smaller = search, runner, optima, smaller
        self.spent = 0.0
        self.timed = self.rules = 0
        self.set_seconds = 0.0
        self.state: TimedState | None = None

    def time(self, chunk: Sequence[EvidenceSet], report: Reporter) -> None:
        """Time the rules of sets of ``chunk`` (its optima just found), and tell ``report``."""
        empty = self.optima.get(())
        budget = max(SAMPLE_LEAST, SAMPLE_SHARE * report.elapsed)
        if empty is None or report.total is None or (self.timed and self.spent >= budget):
            return
        state = self._state(empty[0])
        k = self.search.options.k
        start, backbones = time.process_time(), state.seconds
        for e in chunk:  # (its first sets, in their order, as the pass finds them: alone, one costs 3 times as much)
            self.rules += len(run_rules(self.search, self.runner.engine, state,
                                         [(e, self.optima[e] if len(e) == k else None)]).rules)
            self.timed += 1
            if self.spent + time.process_time() - start >= budget:
                break
        seconds = time.process_time() - start
        self.spent += seconds
        self.set_seconds += seconds - (state.seconds - backbones)
        found = [t for took in state.by_size.values() for t in took]
        mean = sum(found) / len(found) if found else 0.0
        below = sum(n * (sum(state.by_size[size]) / len(state.by_size[size]) if state.by_size.get(size) else mean)
                    for size, n in self.smaller.items())
        # (the workers find the rules; this process takes each in)
        report.expect_after((self.set_seconds / self.timed * report.total + below) / self.runner.workers
                            + RULE_SECONDS * self.rules / self.timed * report.total)

    def _state(self, base: int) -> TimedState:
        """The rule state, over the optima found so far (the search's own engine: one of
        its own would cost its making and first optimum, 0.57 s for object-recognition
        over two objects; the questions asked here add what they teach it, about 1.5%
        more solver calls in the rest of CORA at k = 3)."""
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

        levels = tuple(sorted({o[0] - base for o in optima.values() if o is not None}))
        tables = Tables(Memo(penalty_of), Memo(world_of), levels, base)
        if self.state is None:
            self.state = TimedState(self.search, self.runner.engine, tables)
        else:  # (the backbones found kept: the pass finds each once)
            self.state.tables = tables
        return self.state
