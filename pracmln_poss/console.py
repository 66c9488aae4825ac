"""What a long command shows on stderr while it works.

Three ways, chosen by the command line: on a terminal one line that updates in place
(a ``tqdm`` bar per pass: the pass, the items done of all, the rules found, the time
left for the pass and for the whole run); with ``--progress`` and no terminal, a plain
line every :attr:`ProgressDisplay.LINE_INTERVAL` seconds; otherwise only one-off notes
(resuming from a checkpoint) and, once, a line announcing a run expected to take more
than :attr:`ProgressDisplay.LONG` seconds.  A command ends its report with a line that
counts what it wrote.
"""

from __future__ import annotations

__all__ = ["ProgressDisplay", "duration"]

import shutil
import sys
import time
from typing import Any, TextIO

from .search.progress import ProgressInfo


def duration(seconds: float) -> str:
    """``45 s``, ``3 min 5 s``, ``2 h 10 min``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


class ProgressDisplay:
    """A progress callback for the transformations and ``verify``.

    :param mode: ``bar`` (a terminal), ``lines`` (``--progress`` without one) or
        ``notes`` (neither: notes and the long-run notice only).
    """

    LINE_INTERVAL = 10.0
    """Seconds between two plain progress lines."""
    LONG = 30.0
    """A run expected to take longer than this is announced in ``notes`` mode."""

    def __init__(self, prog: str, mode: str, stream: TextIO | None = None) -> None:
        if mode not in ("bar", "lines", "notes"):
            raise ValueError(f"unknown progress mode {mode!r}")
        self.prog = prog
        self.mode = mode
        self.stream = stream if stream is not None else sys.stderr
        self.announced = False
        self._bar: Any = None
        self._phase: str | None = None
        self._last_line = -self.LINE_INTERVAL
        self._start = time.monotonic()

    def __call__(self, info: ProgressInfo) -> None:
        if info.note is not None:
            self._print(f"{self.prog}: {info.note}")
        elif self.mode == "bar":
            self._update_bar(info)
        elif self.mode == "lines":
            self._line(info)
        else:
            self._announce(info)

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

    def _announce(self, info: ProgressInfo) -> None:
        left = info.remaining_overall
        if self.announced or left is None or info.total is None or info.elapsed < 1 or left < self.LONG:
            return
        self.announced = True
        self._print(f"{self.prog}: {info.total:,} {_items(info.phase)}; about {duration(left)} left "
                    "(--progress shows more, --quiet nothing)")

    def _update_bar(self, info: ProgressInfo) -> None:
        from tqdm import tqdm

        if self._bar is None or info.phase != self._phase:
            self._close_bar()
            self._phase = info.phase
            # the terminal's size as shutil sees it: one that reports none (0 x 0, a bare
            # pseudo-terminal) is taken as 100 x 24, where tqdm would hide its bar
            size = shutil.get_terminal_size((100, 24))
            self._bar = tqdm(total=info.total, desc=info.phase, unit="", file=self.stream,
                             leave=False, ncols=size.columns, nrows=size.lines, mininterval=0.2, bar_format=_BAR)
        bar = self._bar
        if info.total != bar.total:
            bar.total = info.total
        bar.n = info.done
        bar.set_postfix_str(_details(info), refresh=True)

    def _close_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _line(self, info: ProgressInfo) -> None:
        now = time.monotonic()
        final = info.total is not None and info.done >= info.total
        if not final and now - self._last_line < self.LINE_INTERVAL:
            return
        self._last_line = now
        total = f" of {info.total:,}" if info.total is not None else ""
        details = _details(info)
        self._print(f"{self.prog}: {info.phase}: {info.done:,}{total}{', ' + details if details else ''}")


_BAR = "{desc}: {n_fmt}/{total_fmt}{postfix} {bar}"  # (the bar takes what width is left)


def _items(phase: str) -> str:
    """``evidence classes`` from ``penalties of evidence classes``."""
    return phase.split(" of ", 1)[-1]


def _details(info: ProgressInfo) -> str:
    parts = []
    if info.size is not None:
        parts.append(f"size {info.size}")
    if info.rules is not None:
        parts.append(f"{info.rules:,} rules found")
    if info.rate is not None and info.elapsed >= 1:
        left, overall = info.remaining, info.remaining_overall
        if overall is not None and info.later and info.done < (info.total or 0):
            parts.append(f"this pass about {duration(left or 0)} left, the run about {duration(overall)}")
        elif left is not None and info.done < (info.total or 0):
            parts.append(f"about {duration(left)} left")
    return ", ".join(parts)
