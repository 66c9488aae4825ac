"""How the chunks of a search report as they run (``search/workers.py``): a chunk run
here reports after every part of it (the first of one item, each next of about a tick at
the slowest pace seen, at most twice the one before and ``PART`` items) and gives the result of the whole
chunk; a chunk run on a worker is reported as still running while it has not come back."""

from __future__ import annotations

from concurrent.futures import Executor, Future

import pytest

from pracmln_poss.search import workers
from pracmln_poss.search.workers import ChunkRunner, Phase


def _phase() -> Phase:
    """A phase whose result of a chunk is its items doubled."""
    return Phase(lambda context, engine, shared: None, lambda context, engine, state, chunk: [2 * x for x in chunk],
                 object, type(None), lambda parts: [x for part in parts for x in part])


def test_a_chunk_run_here_reports_its_parts_and_gives_the_whole_result(monkeypatch):
    monkeypatch.setattr(workers, "PART", 3)
    heard: list[int | None] = []
    runner = ChunkRunner("context", None)  # type: ignore[arg-type]
    out = list(runner.map(_phase(), None, [list(range(7)), [7, 8]], {}, heard.append))
    assert out == [[0, 2, 4, 6, 8, 10, 12], [14, 16]]
    assert heard == [1, 3, 6]  # (items of the chunk at hand done, after each part but its last: 1, 2, 3, 1 items)
    assert list(runner.map(_phase(), None, [list(range(7))])) == [[0, 2, 4, 6, 8, 10, 12]]  # (no one to hear)


class _Waiting(Executor):
    """An executor whose chunks come back only once the runner has said, at least once,
    that the chunk is still running."""

    def __init__(self) -> None:
        self.pending: list[Future] = []

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        self.pending.append(future)
        return future

    def still_running(self, n: int | None) -> None:
        assert n is None
        for future in self.pending:
            if not future.done():
                future.set_result((["came back"], 0))


def test_a_chunk_on_a_worker_is_reported_as_running_until_it_comes_back(monkeypatch):
    """(Reports came only as chunks ended: a chunk of minutes, minutes without a line.)"""
    monkeypatch.setattr(workers, "TICK", 0.01)
    executor = _Waiting()
    heard: list[int | None] = []

    def part(n: int | None) -> None:
        heard.append(n)
        executor.still_running(n)

    runner = ChunkRunner("context", None, executor)  # type: ignore[arg-type]
    assert list(runner.map(_phase(), None, [[1, 2]], {}, part)) == [["came back"]]
    assert heard == [None]


def test_chunks_run_in_the_order_asked_and_come_back_in_theirs():
    """Run here in ``order``, each heard finished as it is done; the results come in the
    chunks' order (each held until its turn), and a replayed chunk is not run."""
    heard: list[int] = []
    runner = ChunkRunner("context", None)  # type: ignore[arg-type]
    out = list(runner.map(_phase(), None, [[0], [1], [2], [3]], {1: ["resumed"]}, None, None, None, [2, 0, 3],
                          lambda i, result, seconds: heard.append(i)))
    assert out == [[0], ["resumed"], [4], [6]] and heard == [2, 0, 3]
    with pytest.raises(ValueError, match="each chunk not done once"):
        list(runner.map(_phase(), None, [[0], [1]], {}, None, None, None, [0, 0]))


class _Finishing(Executor):
    """An executor whose second chunk is done at once and whose first only once the runner
    has said, at least once, that it is still running."""

    def __init__(self) -> None:
        self.pending: list[Future] = []

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        self.pending.append(future)
        if len(self.pending) == 2:
            future.set_result((["second"], 0, 1.0))
        return future

    def still_running(self, n: int | None) -> None:
        self.pending[0].set_result((["first"], 0, 2.0))


def test_a_chunk_a_worker_finishes_out_of_turn_is_heard_as_it_finishes(monkeypatch):
    """(A chunk done ahead of the one whose turn it is was heard only at its own turn:
    with workers, the count and the time left held still behind one slow chunk.)"""
    monkeypatch.setattr(workers, "TICK", 0.01)
    executor = _Finishing()
    heard: list[tuple[str, object]] = []

    def part(n: int | None) -> None:
        heard.append(("tick", n))
        executor.still_running(n)

    runner = ChunkRunner("context", None, executor)  # type: ignore[arg-type]
    out = list(runner.map(_phase(), None, [[1], [2]], {}, part, None, None, None,
                          lambda i, result, seconds: heard.append((f"finished {i}", seconds))))
    assert out == [["first"], ["second"]]
    assert heard == [("finished 1", 1.0), ("tick", None), ("finished 0", 2.0)]
