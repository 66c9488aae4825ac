"""Running a search in chunks: in this process, or on any ``concurrent.futures.Executor``.

A search (the rule search of Transformations 3 and 4) is a *context* (what every chunk
needs: the ground MLN, the options, the name of the MAP backend) and phases; each
phase has *shared* data (the tables of the phases before) and chunks of evidence sets
that can be worked on independently.  :class:`ChunkRunner` runs a phase's chunks and
yields their results in chunk order, whatever order they finish in, so the output does
not depend on how the work was spread.

On an executor, the context and the shared data are pickled once in this process and
sent as bytes with each chunk; a worker process unpickles them (and opens its MAP
engine) only when they change, so each worker builds its engine once per conversion.
(The workers of a local pool that forks them find the context in their copy of this
process's memory instead, and a Dask cluster gets the bytes once per worker.)
That is all an executor needs to offer: a local process pool (:func:`local_pool`), a
Dask cluster (``distributed.Client.get_executor()``), or any other executor that runs
picklable functions in processes.
"""

from __future__ import annotations

__all__ = ["ChunkRunner", "Context", "Phase", "Part", "Keep", "Finished", "Shipped", "local_pool", "executor_for", "chunked",
           "CHUNKS", "PART", "TICK", "workers_for"]

import gc
import hashlib
import multiprocessing
import os
import pickle
import secrets
import shutil
import signal
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence, Sized
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Generic, ParamSpec, Protocol, TypeVar, cast

from .. import arguments
from ..closable import Closable
from ..errors import ArgumentError
from ..map import open_engine
from ..map.engine import MapEngine
from ..map.interchangeable import Interchangeable
from ..model.ground_mln import GroundMLN
from ..startup import start_helper
from ..stopping import Guard, forget_in_child, take

T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")
Shared = TypeVar("Shared")
State = TypeVar("State")
Chunk = TypeVar("Chunk", bound=Sized)
Result = TypeVar("Result")

CHUNKS = 64
"""Chunks per phase: enough to keep a few dozen workers busy to the end, few enough
that shipping the shared tables with each stays cheap.  Fixed (not a function of the
number of workers), so that a checkpoint resumes with any number of them."""


class Context(Protocol):
    """What a worker needs to open its own MAP engine."""

    @property
    def mln(self) -> GroundMLN: ...

    @property
    def backend(self) -> str: ...

    @property
    def interchangeable(self) -> Interchangeable | None: ...


def equipped(engine: MapEngine, context: Context) -> MapEngine:
    """``engine`` told how to find the context's interchangeable constants
    (:mod:`~pracmln_poss.map.interchangeable`: found only if its backend uses them)."""
    engine.use_interchangeable(lambda: context.interchangeable)
    return engine


C = TypeVar("C", bound=Context)


@dataclass(frozen=True)
class Phase(Generic[C, Shared, State, Chunk, Result]):
    """One phase of a search: how a process makes its state from the data every chunk
    shares, and what it makes of one chunk.  The functions are module-level (an executor
    ships them by name); the types are checked where values come out of a process's memory
    or a pickle.

    :ivar prepare: ``(context, engine, shared) -> state``, once per process and phase.
    :ivar run: ``(context, engine, state, chunk) -> result``.
    :ivar context: the class of the search's context.
    :ivar state: the class of the state ``prepare`` makes.
    :ivar combine: a chunk's result from those of its consecutive parts, in order (None:
        a chunk is run whole); it lets a chunk run here in parts, and report as it goes.
    """

    prepare: Callable[[C, MapEngine, Shared], State]
    run: Callable[[C, MapEngine, State, Chunk], Result]
    context: type[C]
    state: type[State]
    combine: Callable[[list[Result]], Result] | None = None


PART = 64
"""At most this many items of a chunk run here between two reports of how far it is."""

TICK = 1.0
"""Seconds between two reports that nothing new is done, while a worker's chunk runs;
and what a part of a chunk run here should take: a chunk holds up to 3% of a pass, and
on a model whose items take a second, :data:`PART` items were a minute without a word."""


Part = Callable[[int | None], None]
"""Told how many items of the chunk at hand are done (None: none new, it is still
running), between the results of ``ChunkRunner.map``."""


Finished = Callable[[int, Result, float], None]
"""Told each chunk's index, result and the seconds its items took (here, or on a
worker) as soon as it is done, in the order the chunks finish."""


class Keep(Protocol[Result]):
    """Told, after a part of a chunk run here, the chunk's index, how many of its first
    items are done, and the results of its parts so far (to keep them should the run
    stop)."""

    def __call__(self, chunk: int, items: int, results: list[Result], /) -> None: ...


Shipped = tuple[str, object]
"""A context or shared data as it travels to workers: its digest (or token) and its
pickled bytes (a Dask future of them once scattered; None for a context forked workers
find in their memory)."""


def chunked(items: Sequence[T], n: int = CHUNKS) -> list[Sequence[T]]:
    """``items`` in at most ``n`` consecutive chunks, each smaller than the one before.

    Chunk ``i`` holds about ``(2n - 2i - 1) / n**2`` of the items (twice the mean at the
    start, next to nothing at the end), so that the workers, taking chunks as they
    finish, end a phase together: the last chunks to start are the short ones.
    """
    total = len(items)
    if total <= n:
        return [items[i : i + 1] for i in range(total)]
    sizes = [total * (2 * n - 2 * i - 1) // (n * n) for i in range(n)]
    for i in range(total - sum(sizes)):  # (fewer than n left over: one more to the first ones)
        sizes[i] += 1
    out, start = [], 0
    for size in sizes:
        if size:
            out.append(items[start : start + size])
            start += size
    return out


def _packed(value: object) -> tuple[str, bytes]:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.sha256(data).hexdigest(), data


# -- the worker side: one context, engine and phase state per process -------------------

@dataclass
class _Worker:
    """What a worker keeps between chunks: one context and its engine, and the state of
    the phase whose shared data it last unpacked; its engine is closed by :meth:`close`,
    or when the worker is dropped (its thread ended), or at exit, whichever comes first."""

    token: str
    context: Context
    engine: MapEngine
    shared: str | None = None
    state: object = None

    def __post_init__(self) -> None:
        # (no reference to the worker itself: only what closes its engine)
        self._closing = weakref.finalize(self, self.engine.close)

    def close(self) -> None:
        """Close its engine (once)."""
        self._closing()


_WORKER = threading.local()
"""A worker process's own worker (``.worker``), once it has worked on a chunk: the
process's thread that runs the chunks keeps it from one to the next (a task function
of ``ProcessPoolExecutor``, Dask or any executor of processes is called with freshly
unpickled arguments, so between chunks it can reach only what its process holds).  In
a local pool's forked worker, also the contexts it inherited (``.inherited``: its
pool's, as they were when it was forked; :class:`_LocalPool`).  The threads of an
executor in the process that runs the search keep their workers in the runner's
:class:`_Home` instead, closed with the runner, unless the executor pickles their
arguments even there (a Dask cluster of threads): then here, one per thread, closed
when the thread moves to another search or ends.  Per thread, not per context: Dask
runs each chunk in a copy of its thread's context, where a worker set would be gone at
the next."""


def _pickled(data: object) -> bytes:
    """``data``, the pickled bytes of what a worker was sent (a Dask future arrives resolved)."""
    if not isinstance(data, bytes):
        raise TypeError(f"a worker got {type(data).__name__}, not the pickled bytes of its data")
    return data


def _opened(context: Shipped, inherited: Mapping[str, Context]) -> _Worker:
    """A worker for ``context`` (unpickled, or found among the ``inherited``), its engine opened."""
    found = inherited[context[0]] if context[1] is None else pickle.loads(_pickled(context[1]))
    if not all(hasattr(found, name) for name in ("mln", "backend", "interchangeable")):
        raise TypeError(f"a worker got {type(found).__name__} for a search's context")
    return _Worker(context[0], found, equipped(open_engine(found.mln, found.backend), found))


def _worker(context: Shipped) -> _Worker:
    """This thread's worker state for ``context`` (a worker process's), its engine opened
    (once per context); the engine is closed when the worker moves to another context."""
    current: _Worker | None = getattr(_WORKER, "worker", None)
    if current is not None and current.token == context[0]:
        return current
    # (frozen only in a worker process of its own: a task run in the process that runs
    # the search, whose freeze is not ours to change, is its home's)
    child = multiprocessing.parent_process() is not None
    if current is not None:
        current.close()
        if child:
            gc.unfreeze()  # (the previous context's objects can go)
    worker = _opened(context, getattr(_WORKER, "inherited", {}))
    _WORKER.worker = worker
    # the collector's passes need not walk what every chunk reads (and, in a forked
    # worker, would write to the parent's pages they share)
    if child:
        gc.freeze()
    return worker


def _elsewhere() -> None:
    """What a :class:`_Home` is in another process: none."""
    return None


class _Home:
    """The workers that run a runner's chunks in the runner's own process (the threads
    of an executor of threads), one per thread, owned by the runner: each opens its
    engine at its thread's first chunk and keeps it for the next, and all are closed as
    the runner is (a worker still running a chunk then, after an interrupt, closes its
    own as that chunk ends: an engine's solvers are not to be freed under it).  Sent to
    another process it arrives as None (it pickles as :func:`_elsewhere`), and a worker
    process keeps its worker itself (:data:`_WORKER`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._workers: dict[int, _Worker] = {}
        self._busy: set[int] = set()
        self._closed = False

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        return _elsewhere, ()

    def run(self, context: Shipped, work: Callable[[_Worker], R]) -> R:
        """``work`` done with this thread's worker for ``context`` (opened at its first chunk)."""
        me = threading.get_ident()
        with self._lock:
            self._busy.add(me)
            worker = self._workers.get(me)
        try:
            if worker is None:
                worker = _opened(context, {})
                with self._lock:
                    self._workers[me] = worker
            return work(worker)
        finally:
            with self._lock:
                self._busy.discard(me)
                ended = self._workers.pop(me, None) if self._closed else None
            if ended is not None:
                ended.close()

    def close(self) -> None:
        """Close the workers' engines (a busy one's as its chunk ends)."""
        with self._lock:
            self._closed = True
            idle = [self._workers.pop(t) for t in list(self._workers) if t not in self._busy]
        for worker in idle:
            worker.close()


def _task(phase: Phase[C, Shared, State, Chunk, Result], context: Shipped, shared: Shipped,
          chunk: Chunk, home: _Home | None = None) -> tuple[Result, int, float]:
    """Run one chunk on a worker: the result, and the MAP solver calls and seconds it took
    (``home``: the runner's, when the chunk runs in the runner's process)."""
    if home is not None:
        return home.run(context, lambda worker: _run(phase, worker, shared, chunk))
    return _run(phase, _worker(context), shared, chunk)


def _run(phase: Phase[C, Shared, State, Chunk, Result], worker: _Worker, shared: Shipped,
         chunk: Chunk) -> tuple[Result, int, float]:
    """Run one chunk with ``worker`` (its phase's state made when the shared data changed)."""
    ctx = worker.context
    if not isinstance(ctx, phase.context):
        raise TypeError(f"a {phase.context.__name__} phase got a {type(ctx).__name__} context")
    if worker.shared != shared[0]:
        worker.shared, worker.state = shared[0], phase.prepare(ctx, worker.engine, pickle.loads(_pickled(shared[1])))
    state = worker.state
    if not isinstance(state, phase.state):
        raise TypeError(f"a phase's state is {type(state).__name__}, not {phase.state.__name__}")
    before, start = worker.engine.calls, time.perf_counter()
    result = phase.run(ctx, worker.engine, state, chunk)
    return result, worker.engine.calls - before, time.perf_counter() - start


class ChunkRunner(Closable, Generic[C]):
    """Runs the chunks of a search's phases, here or on ``executor``, results in order;
    closed, it closes the engines the executor's workers opened in this process (an
    executor of threads: they are the run's, not the threads').

    :ivar calls: MAP solver calls made in worker processes (this process's engine
        counts its own).
    :ivar shipped_context: how the context reaches the workers: ``(token, None)`` when
        forked workers find it in their memory, ``(token, bytes)`` when it is sent (a
        Dask future once scattered), None when the chunks run here.
    """

    def __init__(self, context: C, engine: MapEngine, executor: Executor | None = None) -> None:
        self.context = context
        self.engine = engine
        self.executor = executor
        self.calls = 0
        self._home = _Home()
        # a Dask cluster's executor: big arguments go to every worker once (scatter),
        # not through the scheduler with each chunk
        self._client = getattr(executor, "_client", None) if executor is not None else None
        if self._client is not None and not hasattr(self._client, "scatter"):
            self._client = None
        self.shipped_context: Shipped | None = None
        if isinstance(executor, _LocalPool) and executor.forks and not executor.started:
            # its workers are forked at the first chunk, with the context in their memory
            token = f"inherited:{os.getpid()}:{secrets.token_hex(8)}"
            executor.inherited[token] = context
            self.shipped_context = (token, None)
        elif executor is not None:
            self.shipped_context = self._shipped(_packed(context))

    def close(self) -> None:
        """Close the engines of the workers that ran chunks in this process."""
        self._home.close()

    @property
    def workers(self) -> int:
        """How many chunks run at once (1 here; an executor's own count where it says one)."""
        if self.executor is None:
            return 1
        count = getattr(self.executor, "_max_workers", None)
        return count if isinstance(count, int) and count > 0 else 1

    def _shipped(self, packed: tuple[str, bytes]) -> Shipped:
        """``(token, bytes)``, the bytes scattered to every Dask worker when there are any."""
        if self._client is None:
            return packed
        return packed[0], self._client.scatter(packed[1], broadcast=True, hash=False)

    def map(self, phase: Phase[C, Shared, State, Chunk, Result], shared: Shared, chunks: Sequence[Chunk],
            done: dict[int, Result] | None = None, part: Part | None = None,
            begun: tuple[int, int, Result] | None = None, keep: Keep[Result] | None = None,
            order: Sequence[int] | None = None, finished: Finished[Result] | None = None) -> Iterator[Result]:
        """The results of ``phase`` on each chunk, in order; chunks whose index is in ``done``
        are not run again (their results are given).  ``part`` hears how far the chunk
        at hand is: here after every part of it (when the phase combines parts: of about
        :data:`TICK` seconds, at most :data:`PART` items; a chunk's result is the same
        either way: the items of a chunk are independent, which is what lets any worker
        run any chunk), on workers every :data:`TICK` seconds that nothing new came.
        The chunks run (here, or are handed to workers) in ``order`` (None: theirs), and
        ``finished`` hears of each as it is done.

        Here (not on workers, whose parts are not seen), ``begun`` (a chunk, how many of
        its first items are done, and their result) is not run again, and ``keep`` hears,
        after each part of the chunk at hand but its last, the chunk, its items done and
        the results of its parts so far (to be combined only if they are kept)."""
        done = done or {}
        runs = [i for i in (order if order is not None else range(len(chunks))) if i not in done]
        if sorted(runs) != [i for i in range(len(chunks)) if i not in done]:
            raise ValueError("the order to run the chunks in must name each chunk not done once")
        if self.executor is None:
            yield from _in_order(len(chunks), done, self._map_here(phase, shared, chunks, runs, part, begun, keep,
                                                                   finished))
            return
        if self.shipped_context is None:
            raise ValueError("a runner with an executor ships its context when made")
        packed = self._shipped(_packed(shared))
        futures: dict[int, Future[tuple[Result, int, float]]] = {
            i: self.executor.submit(_task, phase, self.shipped_context, packed, chunks[i], self._home)
            for i in runs}
        # (decided now: a generator left suspended by an exception in its consumer may be
        # closed only as the interpreter ends, when this module's names are None)
        local = isinstance(self.executor, _LocalPool)
        heard: set[int] = set()

        def hear(i: int, outcome: tuple[Result, int, float]) -> None:
            if i not in heard:
                heard.add(i)
                self.calls += outcome[1]
                if finished is not None:
                    finished(i, outcome[0], outcome[2])

        def poll() -> None:  # (the chunks done out of turn, heard as they finish)
            for j, f in futures.items():
                if j not in heard and f.done() and not f.cancelled() and f.exception() is None:
                    hear(j, f.result())

        try:
            for i in range(len(chunks)):
                if i in done:
                    yield done[i]
                    continue
                while True:
                    try:
                        outcome = futures[i].result(timeout=TICK if part is not None else None)
                        break
                    except TimeoutError:  # (concurrent.futures' and Dask's, from Python 3.11)
                        if finished is not None:
                            poll()
                        if part is not None:
                            part(None)
                hear(i, outcome)
                yield outcome[0]
        finally:
            if not local:  # (a local pool is stopped whole)
                for f in futures.values():
                    f.cancel()

    def _map_here(self, phase: Phase[C, Shared, State, Chunk, Result], shared: Shared, chunks: Sequence[Chunk],
                  runs: Sequence[int], part: Part | None, begun: tuple[int, int, Result] | None,
                  keep: Keep[Result] | None, finished: Finished[Result] | None) -> Iterator[tuple[int, Result]]:
        """The chunks ``runs`` run in this process in that order, part by part where the
        phase has parts, each with its index as it is done."""
        state: list[State] = []  # (made at the first chunk run)
        pace = [0.0]  # (the most seconds an item of a part has taken on average, in this phase)
        size = 1  # (items in a part: the first one item, what an item costs not known yet)
        for i in runs:
            chunk = chunks[i]
            if not state:
                state.append(phase.prepare(self.context, self.engine, shared))
            start = time.perf_counter()
            if phase.combine is None or (part is None and keep is None):
                result = phase.run(self.context, self.engine, state[0], chunk)
            else:
                results, size = self._parts(phase, state[0], i, chunk, size, pace, begun, part, keep)
                result = phase.combine(results)
            if finished is not None:
                finished(i, result, time.perf_counter() - start)
            yield i, result

    def _parts(self, phase: Phase[C, Shared, State, Chunk, Result], state: State, i: int, chunk: Chunk,
               size: int, pace: list[float], begun: tuple[int, int, Result] | None, part: Part | None,
               keep: Keep[Result] | None) -> tuple[list[Result], int]:
        """The results of the consecutive parts of chunk ``i``, run here after the items
        ``begun`` holds of it (if it is that chunk's): the first of ``size`` items, each
        next of what takes :data:`TICK` seconds at the slowest ``pace`` seen (a part's
        seconds per item), at most twice the one before (the items of a phase differ a
        thousandfold, and come in runs: a part sized at the pace of the one before took
        54 s over meals); and the size of the part that would come next."""
        # (a part begun is of the chunk's first items, fewer than all: else it is run whole)
        taken = begun is not None and begun[0] == i and 0 < begun[1] < len(chunk)
        items, results = (begun[1], [begun[2]]) if begun is not None and taken else (0, [])
        while items < len(chunk):
            if results and part is not None:  # (after the last part the chunk's own result is reported)
                part(items)
            piece = cast(Chunk, chunk[items:items + size])  # type: ignore[index]
            start = time.perf_counter()
            results.append(phase.run(self.context, self.engine, state, piece))
            items += len(piece)
            pace[0] = max(pace[0], (time.perf_counter() - start) / len(piece))
            size = min(PART, 2 * size, max(1, int(TICK / pace[0])) if pace[0] > 0 else PART)
            if keep is not None and items < len(chunk):
                keep(i, items, list(results))
        return results, size


def _in_order(n: int, done: dict[int, R], run: Iterator[tuple[int, R]]) -> Iterator[R]:
    """The results of ``n`` chunks in their order, from ``done`` and from ``run`` (which
    gives them with their index in the order they were run: each is held until its turn)."""
    held = dict(done)
    for i in range(n):
        while i not in held:
            j, result = next(run)
            held[j] = result
        yield held.pop(i)


def _worker_start(parent: int, inherited: Mapping[str, Context], folder: str) -> None:
    """Set up a worker process: Ctrl-C is the main process's to handle (it saves the
    checkpoint and stops the pool), the main process's handlers of other signals are not
    the worker's (the pool stops a worker with SIGTERM), and the worker ends with the
    process that started it, however that one ends (killed, it cannot stop its workers).
    ``inherited``: the contexts its chunks find by token (the pool's, in a forked worker's
    copy of its memory); ``folder``: where its temporary files go (the pool's)."""
    _WORKER.inherited = inherited
    tempfile.tempdir = folder
    forget_in_child()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGHUP):  # (the command line's handlers are its own)
        signal.signal(signum, signal.SIG_DFL)
    _die_with_parent(parent)


def _die_with_parent(parent: int) -> None:
    """End this process within a second of ``parent``'s end: the kernel's parent-death
    signal where there is one (Linux), and a watcher thread for the main process (a
    fork server, not the main process, may be the parent)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except OSError:
                pass

    start_helper(threading.Thread(target=watch, name="pracmln_poss parent watch", daemon=True))


class _LocalPool(ProcessPoolExecutor):
    """The pool :func:`local_pool` makes (and stops whole).

    :ivar forks: whether its workers are forked from this process (at the first
        submission: :attr:`started`), with a copy of its memory.
    """

    started = False

    def __init__(self, max_workers: int, mp_context: BaseContext | None) -> None:
        self.forks = (mp_context or multiprocessing.get_context()).get_start_method() == "fork"
        # the contexts its workers inherit (token -> context), filled before they are forked:
        # a forked process's arguments are in its copy of our memory, not pickled (where
        # the workers are not forked, it is sent empty)
        self.inherited: dict[str, Context] = {}
        # (the workers' temporary files go in a folder of the pool's, removed with it: a
        # worker stopped by SIGTERM cannot remove its own, such as toulbar2's listings)
        self.folder = tempfile.mkdtemp(prefix="pracmln-poss-workers-")
        super().__init__(max_workers=max_workers, initializer=_worker_start,
                         initargs=(os.getpid(), self.inherited, self.folder), mp_context=mp_context)

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        with nullcontext() if self.forks else _ctrl_c_held():
            return self._submit(fn, *args, **kwargs)

    def _submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        if self.started:
            return super().submit(fn, *args, **kwargs)
        # the first submission starts the processes (forks them, where that is how they
        # start): this process's objects frozen meanwhile, the children's collectors
        # leave them alone instead of copying the pages they share with us, and unfrozen
        # after.  Where something was frozen before (the command line's freeze,
        # collector.Freezer, or a host program's own) nothing is added: gc.unfreeze()
        # cannot give back only our part, and a host's freeze count must stay its own
        self.started = True
        if gc.get_freeze_count():
            return super().submit(fn, *args, **kwargs)
        gc.freeze()
        try:
            return super().submit(fn, *args, **kwargs)
        finally:
            gc.unfreeze()


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C held back inside the block (a pool's submission, which may start a worker
    that is not forked), and given to the handler it finds as the block ends.

    - Here: an interrupt raised inside :meth:`~multiprocessing.Process.start` left a worker
      started but not known to the pool, which could not stop it; it read its queues'
      semaphores after they were gone, and printed a traceback after our line (2 of 30
      Ctrl-Cs once a conversion's checkpoint was written: docs/parallel.md).  So the
      main thread's handler only notes it inside, and the signal is sent again after.
    - In the processes started inside (a fork server, a spawned worker): a terminal's
      Ctrl-C goes to every process of its group, and one that found a fork server starting
      printed a traceback.  A blocked signal stays blocked in a child, through ``exec``,
      until its start-up has it ignore the signal (as Python's resource tracker starts
      itself: ``multiprocessing.resource_tracker``)."""
    came: list[int] = []
    taken = take(signal.SIGINT, lambda signum, frame: came.append(signum)) \
        if threading.current_thread() is threading.main_thread() else None
    # (the mask read first, unchanged: a handler raising from the call that changes it
    # must not leave Ctrl-C blocked: startup.start_helper)
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # (one that came meanwhile is noted here)
        finally:
            if taken is not None:
                taken.give_back()
        if came:
            signal.raise_signal(signal.SIGINT)


def _threads(guard: Guard | None) -> int:
    """Threads of this process (the OS's count where there is one: libraries start
    threads Python does not know of), but for the watcher of the run's ``guard`` (it
    holds no lock a forked child could need, and the child forgets it)."""
    try:
        count = len(os.listdir("/proc/self/task"))
    except OSError:
        count = threading.active_count()
    return count - (guard.helper_threads() if guard is not None else 0)


def _start_method(guard: Guard | None) -> BaseContext | None:
    """How the workers start: the platform's default, except that a process with
    threads (a notebook, a Dask client, a test runner) is not forked (its children could
    deadlock on a lock some thread held): a fork server starts them instead."""
    if multiprocessing.get_start_method(allow_none=True) in (None, "fork") and _threads(guard) > 1 \
            and "forkserver" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("forkserver")
    return None


def workers_for(jobs: int) -> int:
    """The worker processes ``jobs`` asks for (0: one per core), at most one per core and
    :data:`CHUNKS` (more would only wait: a phase has no more chunks than that)."""
    jobs = arguments.integer("jobs", jobs, 0)
    cores = os.cpu_count() or 1
    return min(jobs or cores, cores, CHUNKS)


@contextmanager
def local_pool(jobs: int, guard: Guard | None = None) -> Iterator[Executor]:
    """A pool of worker processes (:func:`workers_for` ``jobs``), stopped on leaving, at
    once on an interrupt or error (the workers' running chunks are abandoned); ``guard``:
    the run's, whose watcher thread does not keep the workers from being forked."""
    pool = _LocalPool(workers_for(jobs), _start_method(guard))
    try:
        yield pool
    except BaseException:
        _stop(pool)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        pool.inherited.clear()  # (the contexts go with the search, not with the pool object)
        shutil.rmtree(pool.folder, ignore_errors=True)  # (the workers are gone: what they left)


def _stop(pool: _LocalPool) -> None:
    """Stop a pool at once (an interrupt, an error): pending chunks are dropped by the
    pool itself; running ones would be waited for (the documented API has no way to stop
    them), so their processes are stopped.  A worker stopped while writing its result
    leaves part of a message that the pool's own thread would wait for the rest of,
    forever (the interpreter could then not exit): closing this process's copy of the
    result pipe's writing end, once the workers are gone, gives it the end of the pipe,
    and it winds up as for any broken pool."""
    running = list((getattr(pool, "_processes", None) or {}).values())
    results = getattr(pool, "_result_queue", None)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in running:
        process.terminate()
    for process in running:
        process.join(timeout=5)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()
    if manager is not None:
        manager.join(timeout=5)


def executor_for(jobs: int, executor: Executor | None, guard: Guard | None = None
                 ) -> AbstractContextManager[Executor | None]:
    """The executor a search runs on: the caller's, else a local pool of ``jobs``
    processes when ``jobs`` is not 1 (:func:`local_pool`, for the run of ``guard``), else
    none (this process)."""
    if executor is not None:
        return nullcontext(executor)
    if jobs == 1:
        return nullcontext(None)
    if multiprocessing.current_process().daemon:  # (multiprocessing's own refusal is a bare AssertionError)
        raise ArgumentError(f"jobs={jobs} cannot start worker processes from a daemonic process (a worker of "
                            "a multiprocessing.Pool): give jobs=1, or an executor")
    return local_pool(jobs, guard)
