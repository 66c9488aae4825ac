"""Progress of a long computation (a conversion's passes, a verification): what it
reports (:class:`ProgressInfo`), to whom (:data:`Progress`), and how often (:class:`Reporter`)."""

from __future__ import annotations

__all__ = ["Progress", "ProgressInfo", "Reporter", "SizeCosts", "LATER_RULES", "SMOOTHING", "SIZE_COSTS_FIRST"]

import bisect
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from .tally import Tally


@dataclass(frozen=True)
class ProgressInfo:
    """Where a conversion is: evidence sets done (of ``total``), the size of the current
    evidence set, and the rules found so far; ``phase`` names the pass."""

    phase: str
    done: int
    total: int | None
    size: int | None
    rules: int | None  # None where no rules are made (verification)
    elapsed: float = 0.0  # seconds since the phase started
    note: str | None = None  # a one-off message (resuming from a checkpoint), not a count
    later: float = 0.0  # what the phases after this one cost per item, relative to this one
    recent_rate: float | None = None  # items per second lately (tqdm's moving average; None: not yet)
    resumed: int = 0  # of ``done``, the items taken from a checkpoint (they took no time in this run)
    after: float | None = None  # seconds the later phases take, measured on a sample (None: ``later`` guesses)
    estimate: float | None = None  # seconds left in this phase by its chunks done (None: by its rate)
    weighed: bool = False  # the time left is the chunks' to tell (None while they cannot: no rate stands in)

    @property
    def rate(self) -> float | None:
        """Evidence sets (or items) per second so far (those done in this run)."""
        worked = self.done - self.resumed
        return worked / self.elapsed if self.elapsed > 0 and worked > 0 else None

    @property
    def remaining(self) -> float | None:
        """Seconds left in this phase: as its chunks done predict those to come
        (:meth:`Reporter.weigh`), else at the recent rate (the rate so far until there is
        one; None when unknown): the items of a pass grow slower as their evidence sets
        grow, which the rate so far would average away."""
        if self.estimate is not None or self.weighed:
            return self.estimate
        rate = self.recent_rate or self.rate
        return None if rate is None or self.total is None else max(self.total - self.done, 0) / rate

    @property
    def remaining_overall(self) -> float | None:
        """Seconds left for the whole run: this phase at its recent rate, and the later
        phases as a sample of them measured (``after``), else at ``later`` times this
        phase's own duration (a prior; None when unknown)."""
        left = self.remaining
        if left is None:
            return None
        return left + (self.after if self.after is not None else self.later * (self.elapsed + left))

    @property
    def overall(self) -> bool:
        """Whether later phases follow this one (the time left is then the whole run's)."""
        return bool(self.later) or self.after is not None


LATER_RULES = 1.0
"""The rules of the evidence sets take about this many times their optima (CORA at
k = 4: 21 s against 22 s with one worker, ``benchmarks/time_left.py``); what the first
pass's estimate of the whole run assumes until a sample of the rules is timed
(:meth:`Reporter.expect_after`: the ratio runs from 0.002 to 3.5 by the model)."""


Progress = Callable[[ProgressInfo], None] | None
"""A progress callback (or None: no reports)."""


SMOOTHING = 0.1
"""How much the latest report weighs in the recent rate (tqdm's ``smoothing``; with a
report every half second, the rate of about the last five seconds)."""


class _Average(Protocol):
    """A moving average as tqdm keeps one (``tqdm.std.EMA``): called with a value it
    takes it in, without one it gives the average; ``calls`` counts the values."""

    calls: int

    def __call__(self, x: float | None = None) -> float: ...


class Reporter:
    """Rate-limits progress callbacks (a few per second, plus the final one), and
    measures the recent rate as tqdm's bars do: a moving average (``tqdm.std.EMA``) of the
    items done and of the seconds taken between reports; or, once told of a pass's chunks
    as they are done (:meth:`weigh`), the time left from those."""

    INTERVAL = 0.5
    """Seconds between two reports (tests set it to 0 to see every one)."""

    def __init__(self, progress: Progress, phase: str, total: int | None, interval: float | None = None,
                 later: float = 0.0) -> None:
        self.progress = progress
        self.phase = phase
        self.total = total
        self.later = later
        self.seconds = 0.0  # how long the pass has taken so far
        self.after: float | None = None  # seconds the later passes take, once measured
        self.interval = self.INTERVAL if interval is None else interval
        self._last = 0.0
        self._start: float | None = None
        self._done = 0
        self._resumed = 0
        self._size: int | None = None
        self._items: _Average | None = None  # tqdm's moving averages, made at the first report
        self._seconds: _Average | None = None
        self._since: float | None = None  # when the items done last grew
        # (the tally, the items before it, the pass's prior, the items resumed before it, when weighed)
        self._tally: tuple[Tally, int, float | None, int, float] | None = None

    def note(self, text: str) -> None:
        """Pass on a one-off message (always, not rate-limited)."""
        if self.progress is not None:
            self.progress(ProgressInfo(self.phase, 0, self.total, None, None, note=text))

    def __call__(self, done: int, rules: int | None, size: int | None = None, final: bool = False,
                 costs: SizeCosts | None = None) -> None:
        """Report ``done`` items (``size``: of the evidence sets at hand; None: as last
        said), unless the last report is too recent; ``costs``: the time left is theirs
        (:class:`SizeCosts`) once they can tell it."""
        if self.progress is None:
            return
        size = self._size = size if size is not None else self._size
        now = time.monotonic()
        if self._start is None:
            self._start = now
        if final or now - self._last >= self.interval:
            estimate, resumed, weighed = None, self._resumed, self._tally is not None
            if costs is not None:
                estimate = costs.left()
                weighed = estimate is not None
            if self._tally is not None:  # (the chunks done in any order: more than those come back in order)
                tally, offset, prior, before, since = self._tally
                done, resumed = max(done, offset + tally.done), before + tally.resumed_items
                estimate = tally.left()
                if prior is not None:  # (the prior, as far as the chunks done do not say otherwise)
                    expected, share = max(prior - (now - since), 0.0), tally.share
                    estimate = expected if estimate is None else share * estimate + (1 - share) * expected
                if estimate is None:  # (no prior: what the first chunks cost, none: nothing yet)
                    estimate = tally.rough()
            recent = self._measure(done, now)
            self._last = now
            self.seconds = now - self._start
            self.progress(ProgressInfo(self.phase, done, self.total, size, rules, self.seconds, later=self.later,
                                       recent_rate=recent, resumed=resumed, after=self.after, estimate=estimate,
                                       weighed=weighed))

    @property
    def elapsed(self) -> float:
        """Seconds since the first report of this pass (0 before it)."""
        return 0.0 if self._start is None else time.monotonic() - self._start

    def expect_after(self, seconds: float) -> None:
        """The passes after this one take about ``seconds`` (measured on a sample of
        them): the whole run's time left says so from the next report on."""
        self.after = seconds

    def weigh(self, tally: Tally, offset: int = 0, prior: float | None = None) -> None:
        """From now on, this pass's items done and time left are those of ``tally`` (its
        items: those after ``offset`` of the reporter's; ``prior``: seconds the pass is
        expected to take, said until its first chunks are done, then weighed against what
        they say by the share of the pass they are (:attr:`.Tally.share`); without one,
        what those done cost, and nothing before the first: the rate of the items before
        the pass says nothing of its own)."""
        self._tally = (tally, offset, prior, self._resumed, time.monotonic())

    def resumed(self, done: int) -> None:
        """The items up to ``done`` were taken from a checkpoint: counted as done, but
        in no rate (they took no time), and not reported as they come, so that the
        first report after them says where the run resumed (it is made at once)."""
        now = time.monotonic()
        if self._start is None:
            self._start = now
        self._resumed = self._done = done
        self._last = 0.0

    def _measure(self, done: int, now: float) -> float | None:
        """The recent rate: a moving average of the items each growth of the count brings
        and of the seconds since the one before.  Items may come in bursts (a worker's
        chunk at a time, tens of seconds apart): a report between two bursts changes
        nothing, and the rate falls only once the count has not grown for longer than
        it usually takes to (then as the items of a burst over the time since the last)."""
        from tqdm.std import EMA

        if self._items is None or self._seconds is None:
            self._items, self._seconds = EMA(SMOOTHING), EMA(SMOOTHING)
        average_items, average_seconds = self._items, self._seconds
        start = self._start if self._start is not None else now
        since = self._since if self._since is not None else max(self._last, start)
        items, seconds = done - self._done, now - since
        if items > 0 and seconds > 0:
            average_items(items)
            average_seconds(seconds)
            self._done = done
            self._since = now
            seconds = 0.0
        if not average_seconds.calls or average_seconds() <= 0:
            return None
        rate = average_items() / average_seconds()
        if seconds > average_seconds():  # (nothing done for longer than usual: the rate falls)
            return min(rate, average_items() / seconds)
        return rate


SIZE_COSTS_FIRST = 20
"""Items of a pass :class:`SizeCosts` hears before it tells the time left (before, the
rate does)."""


class SizeCosts:
    """The time left of a pass whose work comes in sizes, from what the work done of
    each size cost.

    A verification's pairs cost by their size (one MAP solve over ``|E| + |C|`` fixed
    literals, unless an earlier pair asked it, and a possibilistic entailment), and
    single pairs differ a hundredfold.  Where the pairs come in their order (all of
    them: the smallest evidence sets first) and how much work of each kind and size
    there is is known (``counts``: e.g. the pairs of each size and the distinct solves
    of each size), the time left is the work not done at the cost per item of its kind
    and size, a size not met yet at that of the nearest one met.  Where they are drawn
    at random (a sample: ``counts`` None), every stretch of them is like the rest, so
    the time left is the items left at the cost per item of all those done: the rate of
    the last few seconds, which the progress otherwise shows, follows the cheap and
    dear stretches a heavy tail makes.

    :param total: the items of the pass (of kind ``"item"``, what a sample counts).
    :param counts: per kind, the work of each size (None: drawn at random).
    """

    def __init__(self, total: int, counts: Mapping[str, Mapping[int, int]] | None = None) -> None:
        self.total = total
        self.counts = {kind: dict(by_size) for kind, by_size in counts.items()} if counts is not None else None
        self.done: dict[tuple[str, int], int] = {}
        self.seconds: dict[tuple[str, int], float] = {}
        self.items = 0
        self._start: float | None = None

    def add(self, size: int, seconds: float, kind: str = "item") -> None:
        """One piece of work of ``kind`` and ``size`` done, in ``seconds``."""
        if self._start is None:
            self._start = time.monotonic() - seconds
        self.done[kind, size] = self.done.get((kind, size), 0) + 1
        self.seconds[kind, size] = self.seconds.get((kind, size), 0.0) + seconds
        self.items += kind == "item"

    def left(self) -> float | None:
        """Seconds the work not done will take (None: fewer than
        :data:`SIZE_COSTS_FIRST` items are done), at the pace the pass keeps (its
        seconds per second its work took: what happens between counted)."""
        worked = sum(self.seconds.values())
        if self.items < SIZE_COSTS_FIRST or worked <= 0 or self._start is None:
            return None
        elapsed = max(time.monotonic() - self._start, worked)
        if self.counts is None:
            return max(self.total - self.items, 0) * elapsed / self.items
        todo = 0.0
        for kind, by_size in self.counts.items():
            met = sorted(size for k, size in self.done if k == kind)
            for size, count in by_size.items():
                left = count - self.done.get((kind, size), 0)
                if left > 0 and met:
                    j = bisect.bisect_left(met, size)
                    near = min(met[max(j - 1, 0):j + 1], key=lambda m: (abs(m - size), -m))
                    todo += left * self.seconds[kind, near] / self.done[kind, near]
        return todo * elapsed / worked
