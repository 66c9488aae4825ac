"""How the chunks of a search report as they run (``search/workers.py``): a chunk run
here reports after every part of it and gives the result of the whole chunk; a chunk
run on a worker is reported as still running while it has not come back."""

from __future__ import annotations

from concurrent.futures import Executor, Future

from pracmln_poss.search import workers
from pracmln_poss.search.workers import ChunkRunner, Phase, in_parts


def _phase() -> Phase:
    """A phase whose result of a chunk is its items doubled."""
    return Phase(lambda context, engine, shared: None, lambda context, engine, state, chunk: [2 * x for x in chunk],
                 object, type(None), in_parts, lambda parts: [x for part in parts for x in part])


def test_a_chunk_run_here_reports_its_parts_and_gives_the_whole_result(monkeypatch):
    monkeypatch.setattr(workers, "PART", 3)
    heard: list[int | None] = []
    runner = ChunkRunner("context", None)  # type: ignore[arg-type]
    out = list(runner.map(_phase(), None, [list(range(7)), [7, 8]], {}, heard.append))
    assert out == [[0, 2, 4, 6, 8, 10, 12], [14, 16]]
    assert heard == [3, 6]  # (items of the chunk at hand done, after each part but its last)
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
