"""What is done of a pass, and what the rest will cost: its chunks run spread over it, so
that those done say what those to come cost.

The items of a pass are not alike, and their order does not hide how: over meals at
``k = 2`` the first three quarters of the optima cost seven times what the last quarter
does, over CORA at ``k = 4`` the rules of the last evidence sets cost more than those of
the first, and single items of one stretch differ a hundredfold.  A rate measured on
the items done in their order says what those cost, not what the rest will; a sample
of single items ahead of their turn (tried: ``benchmarks/time_left.py``) is too noisy
where one item in ten costs most of the time, and costs more than in its turn.

So a pass that someone watches runs its chunks in :func:`spread_order`: those holding
its middle item, then its quarters, its eighths, ..., each chunk's items in their order
(the results still come in the pass's order: :class:`~.workers.ChunkRunner` holds them
back until their turn; what a pass makes does not depend on the order it runs in, as
workers show, whose chunks finish in any order).  The last eighth of the chunks to run
come last, the largest first, so that workers still end a pass together on short ones.  A
:class:`Tally` hears each chunk as it finishes, and what it took; it predicts a chunk
not yet done to cost, per item, what the done chunks nearest it on either side cost
together, and the time left is the chunks left as predicted, at the
pace the pass has kept (its seconds per second its chunks took, about ``1 / n`` on ``n``
workers), less the time since the last chunk finished, taken off the chunks under way
only (:meth:`Tally.left`)."""

from __future__ import annotations

__all__ = ["Tally", "spread", "spread_order", "nearest", "LAST", "FIRST", "ROUGH", "NEAREST"]

import bisect
import time
from collections.abc import Iterator, Sequence

LAST = 0.125
"""The share of a pass's chunks run last, the largest first, so that workers end a
pass together on short ones: the rest of the spread, wherever they are (the last eighth
of the pass's chunks run last in their order hid its dearest items until the end: over
meals at ``k = 2``, the rules of its last 63 evidence sets took 10 s of its 40)."""

FIRST = 8
"""Chunks worked before the done ones say what the rest cost (the middle one alone can
be of sets its subsets decide, which cost nothing; after the first four, the rules pass
of CORA at k = 4 said 11 s where 24 s remained, and the pass's forecast said 1.5 times
the truth: ``benchmarks/time_left.py``)."""

ROUGH = 3
"""Chunks worked before the mean cost per item of those done says what the rest cost,
in a pass with no prior (:meth:`Tally.rough`): one chunk alone, the middle one of the
last size of meals' optima at k = 2, said 528 s where 189 s remained, and the next two
chunks brought it to 191 s."""

NEAREST = 2
"""Worked chunks on either side of one not done that price its items: neighbouring
chunks differ tenfold (over CORA at ``k = 4`` 0.015 and 0.26 ms an item side by side),
and the one on either side, interpolated by position, missed the time its passes had
left by up to 1.7 and 1.6 times where two on each side missed by 1.3 and 1.5 (the
seconds of one run's chunks, replayed in the order they ran, while 10 s or more were
left)."""


def spread(n: int) -> Iterator[int]:
    """The positions ``0 .. n - 1`` in an order whose every first few are spread evenly
    (the middle, then the quarters, the eighths, ...), made as they are asked for (the
    first few of 339,308 are wanted, all of them took 0.16 s)."""
    seen: set[int] = set()
    m = 1
    while len(seen) < n:
        for j in range(m):
            position = (2 * j + 1) * n // (2 * m)
            if position not in seen:
                seen.add(position)
                yield position
        m *= 2


def nearest(done: Sequence[int], chunk: int, n: int = NEAREST) -> Sequence[int]:
    """The chunks of ``done`` (ascending) nearest ``chunk`` in the pass's order, up to ``n``
    on either side."""
    j = bisect.bisect_left(done, chunk)
    return done[max(0, j - n):j + n]


def spread_order(sizes: Sequence[int]) -> list[int]:
    """The order to run chunks of ``sizes`` items in (consecutive, in the pass's order):
    the chunk of each position of :func:`spread` over all the items, but for the last
    :data:`LAST` of the chunks, which are the rest, the largest first."""
    ahead = len(sizes) - int(len(sizes) * LAST)
    starts = [0]
    for size in sizes:
        starts.append(starts[-1] + size)
    order: list[int] = []
    seen: set[int] = set()
    for position in spread(starts[-1]) if ahead else ():
        chunk = bisect.bisect_right(starts, position) - 1
        if chunk not in seen:
            seen.add(chunk)
            order.append(chunk)
            if len(order) == ahead:
                break
    rest = sorted((c for c in range(len(sizes)) if c not in seen), key=lambda c: (-sizes[c], c))
    return order + rest


class Tally:
    """The chunks of a pass done (finished here or on workers, or taken from a
    checkpoint), and what the rest will take.

    :param sizes: the items of each chunk, in the pass's order.
    :param order: the order the chunks run in (None: not known), which tells the
        chunks under way: the first not done, one per worker.
    """

    def __init__(self, sizes: Sequence[int], order: Sequence[int] | None = None) -> None:
        self.sizes = list(sizes)
        self.order = list(order) if order is not None else None
        self._worked: dict[int, float] = {}  # chunk -> the seconds it took
        self._resumed: set[int] = set()
        self._positions: list[int] = []  # the worked chunks, in order
        self.done = 0  # items of the chunks done
        self.resumed_items = 0  # of those, the items of chunks taken from a checkpoint
        self.start: float | None = None  # when the first chunk worked began
        self._last: float | None = None  # when a chunk was last done
        self._pace: float | None = None  # the pass's seconds per second its chunks took, then

    def resumed(self, chunk: int) -> None:
        """Chunk ``chunk`` was taken from a checkpoint (done, in no time)."""
        if chunk not in self._resumed and chunk not in self._worked:
            self._resumed.add(chunk)
            self.done += self.sizes[chunk]
            self.resumed_items += self.sizes[chunk]

    def finished(self, chunk: int, seconds: float) -> None:
        """Chunk ``chunk`` is done; its items took ``seconds`` (a worker's, or here)."""
        if chunk in self._worked or chunk in self._resumed:
            return
        self._last = now = time.monotonic()
        if self.start is None:  # (the pace from the first chunk's start: not what preparing the pass took)
            self.start = now - seconds
        self._worked[chunk] = max(seconds, 1e-9)
        bisect.insort(self._positions, chunk)
        self.done += self.sizes[chunk]
        # (here about 1, with the work between chunks; on n workers about 1 / n)
        self._pace = (now - self.start) / sum(self._worked.values())

    def left(self) -> float | None:
        """Seconds the chunks not done will take, the time since the last was done taken
        off those under way (None: fewer than :data:`FIRST` have been worked, or all)."""
        if self._pace is None or self._last is None or len(self._worked) < min(FIRST, len(self.sizes)):
            return None
        todo = sum(self._predicted(c) for c in range(len(self.sizes))
                   if c not in self._worked and c not in self._resumed)
        under_way = self._under_way()
        return (todo - under_way) * self._pace + max(under_way * self._pace - (time.monotonic() - self._last), 0.0)

    def _under_way(self) -> float:
        """Seconds the chunks under way were predicted to take (all those not done, when
        the order is not known): the time since the last chunk was done is taken off
        these only.  A chunk that runs longer than foreseen leaves the others' time
        whole (over meals at ``k = 2`` one of the last ran 27 s where 7 were foreseen,
        and the time left, taken off all, fell by the second to 4 s where 19 remained)."""
        left = [c for c in (self.order if self.order is not None else range(len(self.sizes)))
                if c not in self._worked and c not in self._resumed]
        if self.order is None or self._pace is None:
            return sum(self._predicted(c) for c in left)
        workers = max(1, round(1 / self._pace))  # (the pace is about 1 / n on n workers)
        return sum(self._predicted(c) for c in left[:workers])

    @property
    def share(self) -> float:
        """The share of the items to work in this run that have been (a prior for the
        pass weighs the rest): neighbouring chunks differ tenfold, so the first few
        chunks done are a small sample of the pass.  The sample of a pass's sets that
        forecast it is larger: over CORA at ``k = 4`` with one worker, the rules pass's
        first eight chunks (18% of its sets) said 22 s where 41 s remained, its forecast
        40 s; weighed by share, 37 s, and no worse than 0.83 of the truth after."""
        todo = sum(self.sizes) - self.resumed_items
        return 1.0 if todo <= 0 else (self.done - self.resumed_items) / todo

    def _predicted(self, chunk: int) -> float:
        """Seconds chunk ``chunk`` takes: what it took, or its items at the cost per item of
        the :data:`NEAREST` worked chunks nearest it on either side, together."""
        if chunk in self._worked:
            return self._worked[chunk]
        near = nearest(self._positions, chunk)
        return self.sizes[chunk] * sum(self._worked[c] for c in near) / sum(self.sizes[c] for c in near)

    def rough(self) -> float | None:
        """Seconds the chunks not done will take at the cost per item of all those worked
        (None: fewer than :data:`ROUGH` have been, of those not taken from a checkpoint):
        what :meth:`left` says before it can say more."""
        if self._pace is None or self._last is None \
                or len(self._worked) < min(ROUGH, len(self.sizes) - len(self._resumed)):
            return None
        worked = sum(self.sizes[c] for c in self._worked)
        todo = sum(self.sizes) - self.done
        return max(todo * sum(self._worked.values()) / worked * self._pace - (time.monotonic() - self._last), 0.0)
