"""What a long command shows on stderr while it works.

Three ways, chosen by the command line: on a terminal one line that updates in place
and fits the terminal's width (a ``tqdm`` bar per pass: the pass, the items done of all,
the rules found, the time left for the whole run); with ``--progress`` and no terminal, a
plain line every :attr:`ProgressDisplay.LINE_INTERVAL` seconds; otherwise only one-off
notes (resuming from a checkpoint) and, once, a line announcing a run expected to take
more than :attr:`ProgressDisplay.LONG` seconds.  A command ends its report with a line
that counts what it wrote.

The time left is estimated from the measured rate (its recent moving average, as tqdm
measures it) and shown from the :attr:`ProgressDisplay.ESTIMATE_AFTER`-th second of the
run on, when the rate has settled: within a factor of :data:`FACTOR` of the truth (below
:data:`SOON` seconds a bound that holds), on the benchmark that checks it
(``benchmarks/time_left.py``).
"""

from __future__ import annotations

__all__ = ["ProgressDisplay", "duration", "time_left", "FACTOR", "SOON"]

import functools
import os
import shutil
import sys
import time
from typing import Protocol, TextIO

from .search.progress import ProgressInfo
from .sources import MAX_INPUT_BYTES

FACTOR = 2.0
"""What the time-left estimate is checked against: at most this many times the time
that really remains, and at least that time divided by it."""

BYTES_PER_RULE = 250
"""About what a rule takes in a theory file (learned models' lifted theories: 190 to 264
bytes): the size a theory on course for many rules is announced with."""

SOON = 10.0
"""Below this many seconds the time left is shown as a bound ("under 10 s left"): a few
seconds either way is no factor a user can read, and the last ones go to writing."""


def duration(seconds: float) -> str:
    """``45 s``, ``3 min 5 s``, ``2 h 10 min``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


class _Bar(Protocol):
    """What we use of a tqdm bar."""

    total: int | None
    bar_format: str
    n: int
    ncols: int

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None: ...

    def clear(self) -> None: ...

    def refresh(self) -> None: ...

    def close(self) -> None: ...


def _round(n: float) -> str:
    """A projected count to two significant figures: ``370,000``, ``2.0 million``."""
    if n >= 1e6:
        return f"{n / 1e6:.2g} million" if n < 1e7 else f"{round(n / 1e6):,} million"
    digits = len(str(int(n))) - 2
    return f"{round(n, -digits):,.0f}"


class ProgressDisplay:
    """A progress callback for the transformations and ``verify``.

    :param mode: ``bar`` (a terminal), ``lines`` (``--progress`` without one) or
        ``notes`` (neither: notes and the long-run notice only).
    :param smaller: what makes a theory on course to be large smaller, as its notice says it.
    """

    LINE_INTERVAL = 10.0
    """Seconds between two plain progress lines."""
    LONG = 30.0
    """A run expected to take longer than this is announced in ``notes`` mode."""
    ESTIMATE_AFTER = 10.0
    """Seconds of the run before a time left is shown (the rate settles)."""

    def __init__(self, prog: str, mode: str, stream: TextIO | None = None,
                 smaller: str = "--evidence-preds and --query-preds focus it, --filter conservative shrinks it") -> None:
        if mode not in ("bar", "lines", "notes"):
            raise ValueError(f"unknown progress mode {mode!r}")
        self.prog = prog
        self.smaller = smaller  # (what would make a large theory smaller: the options not given yet)
        self.mode = mode
        self.stream = stream if stream is not None else sys.stderr
        self.announced = False
        self.sized = False
        self._bar: _Bar | None = None
        self._phase: str | None = None
        # (benchmarks/time_left.py samples the estimate every second)
        self.line_interval = float(os.environ.get("PRACMLN_POSS_PROGRESS_INTERVAL") or self.LINE_INTERVAL)
        self._last_line = -self.line_interval
        self._start = time.monotonic()

    LARGE = 100_000
    """A theory on course for this many rules is announced, with how to make it smaller."""
    SAMPLE = 0.02
    """The share of a rules pass done before its rules are projected onto the rest."""

    def __call__(self, info: ProgressInfo) -> None:
        if info.note is not None:
            self.note(info.note)
            return
        self._project_size(info)
        if self.mode == "bar":
            self._update_bar(info)
        elif self.mode == "lines":
            self._line(info)
        else:
            self._announce(info)

    def note(self, text: str) -> None:
        """Say ``text`` on a line of its own (a one-off message)."""
        self._print(f"{self.prog}: {text}")

    def finish(self, text: str) -> None:
        """End the report with ``text`` (what was written), unless nothing was shown."""
        self._close_bar()
        if self.mode != "notes" or self.announced:
            self._print(f"{self.prog}: {text} ({duration(time.monotonic() - self._start)})")

    def _print(self, text: str) -> None:
        if self._bar is not None:
            self._bar.clear()
        print(text, file=self.stream, flush=True)
        if self._bar is not None:
            self._bar.refresh()

    def _project_size(self, info: ProgressInfo) -> None:
        """Once into a pass that makes rules, say when the theory is on course to be large:
        the rules so far per evidence set, times the sets (an estimate, said as one)."""
        if self.sized or not info.rules or not info.total or info.done < max(1, self.SAMPLE * info.total):
            return
        projected = info.rules * info.total / info.done
        if info.done >= info.total:
            self.sized = True  # (done: the final line says how many)
            return
        if projected >= self.LARGE:
            self.sized = True
            size = projected * BYTES_PER_RULE
            big = (f"; its file will be about {size / 2**20:,.0f} MB, past the {MAX_INPUT_BYTES // 2**20} MB that show, "
                   "query and report read without --force") if size > MAX_INPUT_BYTES else ""
            self._print(f"{self.prog}: the theory is on course for about {_round(projected)} rules ({info.rules:,} "
                        f"from {info.done:,} of {info.total:,} {_items(info.phase)}){big}; {self.smaller}")

    def _settled(self) -> bool:
        return time.monotonic() - self._start >= self.ESTIMATE_AFTER

    def _announce(self, info: ProgressInfo) -> None:
        left = info.remaining_overall
        if self.announced or left is None or info.total is None or not self._settled() or left < self.LONG:
            return
        self.announced = True
        self._print(f"{self.prog}: {info.total:,} {_items(info.phase)}; about {duration(left)} left "
                    "(--progress shows more, --quiet nothing)")

    def _update_bar(self, info: ProgressInfo) -> None:
        if self._bar is None or info.phase != self._phase:
            self._close_bar()
            self._phase = info.phase
            # the terminal's size as shutil sees it: one that reports none (0 x 0, a bare
            # pseudo-terminal) is taken as 100 x 24, where tqdm would hide its bar
            size = shutil.get_terminal_size((100, 24))
            self._bar = _bar_class()(total=info.total, desc=info.phase, unit="", file=self.stream,
                             leave=False, ncols=size.columns, nrows=size.lines, mininterval=0.2, bar_format=_BAR)
        bar = self._bar
        if info.total != bar.total:
            bar.total = info.total
        # (a pass that finds its items as it goes has no total yet: "1,234 so far", not "1234/?")
        bar.bar_format = _BAR if info.total is not None else _COUNTING
        bar.n = info.done
        # what fits the terminal: the pass and its count, then as many details as fit (the
        # time left first), and a bar of at least 10 columns when there is room
        head = len(f"{info.phase}: {info.done}/{info.total if info.total is not None else '?'}")
        bar.set_postfix_str(_details(info, self._settled(), bar.ncols - head - 12), refresh=True)

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _line(self, info: ProgressInfo) -> None:
        now = time.monotonic()
        final = info.total is not None and info.done >= info.total
        if not final and now - self._last_line < self.line_interval:
            return
        self._last_line = now
        total = f" of {info.total:,}" if info.total is not None else ""
        details = _details(info, self._settled())
        self._print(f"{self.prog}: {info.phase}: {info.done:,}{total}{', ' + details if details else ''}")


@functools.cache
def _bar_class() -> type:
    """tqdm's bar without its monitor thread, which tqdm starts with its first bar and
    never ends: a host program would keep a thread of ours (``monitor_interval`` is set
    on a class of our own, not on tqdm's, which the host may use)."""
    from tqdm import tqdm

    return type("_Bar", (tqdm,), {"monitor_interval": 0})

_BAR = "{desc}: {n_fmt}/{total_fmt}{postfix} {bar}"  # (the bar takes what width is left)
_COUNTING = "{desc}: {n_fmt} so far{postfix}"


def time_left(seconds: float) -> str:
    """``about 3 min 20 s left``, or ``under 10 s left``."""
    return f"under {SOON:g} s left" if seconds < SOON else f"about {duration(seconds)} left"


def _items(phase: str) -> str:
    """``evidence classes`` from ``penalties of evidence classes``."""
    return phase.split(" of ", 1)[-1]


def _details(info: ProgressInfo, settled: bool = True, width: int | None = None) -> str:
    """The size, rules found and time left of ``info`` (the time left once ``settled``),
    in at most ``width`` characters: the least telling left out first."""
    left = info.remaining_overall if info.overall else info.remaining
    parts = []
    if settled and left is not None and info.done < (info.total or 0):
        parts.append(time_left(left))
    if info.rules is not None:
        parts.append(f"{info.rules:,} rules found")
    if info.size is not None:
        parts.append(f"size {info.size}")
    if width is not None:
        while parts and len(", ".join(parts)) + 2 > width:
            parts.pop()
    return ", ".join(reversed(parts))  # (shown as size, rules, time left)
