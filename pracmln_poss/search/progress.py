"""Progress of a long computation (a conversion's passes, a verification): what it
reports (:class:`ProgressInfo`), to whom (:data:`Progress`), and how often (:class:`Reporter`)."""

from __future__ import annotations

__all__ = ["Progress", "ProgressInfo", "Reporter", "LATER_RULES"]

import time
from collections.abc import Callable
from dataclasses import dataclass


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

    @property
    def rate(self) -> float | None:
        """Evidence sets (or items) per second so far."""
        return self.done / self.elapsed if self.elapsed > 0 and self.done else None

    @property
    def remaining(self) -> float | None:
        """Seconds left at the rate so far (None when unknown)."""
        rate = self.rate
        if rate is None or self.total is None:
            return None
        return max(self.total - self.done, 0) / rate

    @property
    def remaining_overall(self) -> float | None:
        """Seconds left for the whole run: this phase at its rate so far, and the later
        phases at ``later`` times that rate per item (a rough prior; None when unknown)."""
        left, rate = self.remaining, self.rate
        if left is None or rate is None or self.total is None:
            return None
        return left + self.later * self.total / rate


LATER_RULES = 1.4
"""The rules of an evidence set cost about this many times its optimum (CORA at k = 4:
49% of the time against 36%); what the first pass's estimate of the whole run assumes."""


Progress = Callable[[ProgressInfo], None] | None
"""A progress callback (or None: no reports)."""


class Reporter:
    """Rate-limits progress callbacks (a few per second, plus the final one)."""

    INTERVAL = 0.5
    """Seconds between two reports (tests set it to 0 to see every one)."""

    def __init__(self, progress: Progress, phase: str, total: int | None, interval: float | None = None,
                 later: float = 0.0) -> None:
        self.progress = progress
        self.phase = phase
        self.total = total
        self.later = later
        self.interval = self.INTERVAL if interval is None else interval
        self._last = 0.0
        self._start: float | None = None

    def note(self, text: str) -> None:
        """Pass on a one-off message (always, not rate-limited)."""
        if self.progress is not None:
            self.progress(ProgressInfo(self.phase, 0, self.total, None, None, note=text))

    def __call__(self, done: int, rules: int | None, size: int | None = None, final: bool = False) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if self._start is None:
            self._start = now
        if final or now - self._last >= self.interval:
            self._last = now
            self.progress(ProgressInfo(self.phase, done, self.total, size, rules, now - self._start, later=self.later))
