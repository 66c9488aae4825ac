"""A command run in-process (as the tests and any program embedding the command line
call ``main``) leaves the process as it found it: its signal handlers, the signals'
wakeup fd, the interval timer, the garbage collector (its freeze count, on or off),
PySAT's own SIGINT check and ``sys.unraisablehook``."""

from __future__ import annotations

import dataclasses
import faulthandler
import gc
import signal
import subprocess
import sys
import threading

import pytest

from pracmln_poss.cli import main

from .support import ANTARCTIC, PAPER, ROOT, kernel_actions

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)


def _state() -> dict[str, object]:
    from pysat._utils import MainThread

    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    return {"handlers": {s: signal.getsignal(s) for s in SIGNALS}, "kernel": kernel_actions(), "wakeup": wakeup,
            "timer": signal.getitimer(signal.ITIMER_REAL), "frozen": gc.get_freeze_count(),
            "collecting": gc.isenabled(), "pysat check": MainThread.__dict__["check"],
            "unraisable hook": sys.unraisablehook,
            "threads": {t.name for t in threading.enumerate()}}


@pytest.mark.parametrize("argv", [
    ["convert", str(ANTARCTIC), "--method", "defaults", "-k", "2", "--quiet"],
    ["convert", str(PAPER / "smokers.mln"), "-k", "2", "-j", "2", "--quiet", "--no-checkpoint"],
    ["map", str(PAPER / "smokers.mln"), "--time-limit", "60", "--backend", "rc2", "-e", "s(Alice)"],
    ["map", str(ANTARCTIC), "--backend", "toulbar2", "-e", "antarcticBird(Tweety)"],
    ["map", str(PAPER / "cora.mln"), "--backend", "toulbar2"],  # (toulbar2's own searches: faulthandler's handlers)
])
def test_a_command_run_in_process_leaves_the_process_as_it_found_it(argv, tmp_path, capsys):
    if argv[0] == "convert":
        argv = [*argv, "-o", str(tmp_path / "out.theory")]
    # (from no freeze: CPython 3.12 starts with 375 objects of its own frozen; a host's
    # freeze is the next test's)
    gc.unfreeze()
    before = _state()
    assert main(argv) == 0, capsys.readouterr().err
    after = _state()
    threads_after = after.pop("threads")
    assert after == {k: v for k, v in before.items() if k != "threads"}
    assert not {t for t in threads_after - before["threads"] if t.startswith("pracmln-poss")}
    # faulthandler's own table is not the kernel's: a registration of ours left in it
    # shows only as a program's own registration that installs nothing
    with open(tmp_path / "stack", "wb") as stack:
        faulthandler.register(signal.SIGHUP, file=stack, chain=False)
        try:
            assert kernel_actions()[signal.SIGHUP] != before["kernel"][signal.SIGHUP]
        finally:
            faulthandler.unregister(signal.SIGHUP)
    assert kernel_actions() == before["kernel"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_hosts_own_freeze_is_left_as_it_was(jobs, tmp_path, capsys):
    """A program that froze objects of its own before calling the command line finds
    none of ours added (CI caught a conversion on two workers growing it from 375 to
    293,821: the pool froze everything while its workers started and, seeing a freeze
    made before it, took it for the command line's and left it)."""
    gc.unfreeze()
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        argv = ["convert", str(PAPER / "smokers.mln"), "-k", "2", "-j", jobs, "--quiet",
                "--no-checkpoint", "-o", str(tmp_path / "out.theory")]
        assert main(argv) == 0, capsys.readouterr().err
        # (frozen objects can die meanwhile; none may be added)
        assert 0 < gc.get_freeze_count() <= before
    finally:
        gc.unfreeze()


def test_the_freezer_gives_back_what_it_froze_and_leaves_a_hosts_freeze_alone(monkeypatch):
    from pracmln_poss import collector

    calls: list[str] = []
    frozen = [0]
    monkeypatch.setattr(collector.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(collector.gc, "unfreeze", lambda: calls.append("unfreeze"))
    monkeypatch.setattr(collector.gc, "get_freeze_count", lambda: frozen[0])
    with collector.Freezer() as freezer:
        assert freezer.keep("model") == "model" and freezer.keep("theory") == "theory"
    assert calls == ["freeze", "freeze", "unfreeze"]
    calls.clear()
    with collector.Freezer(give_back=False) as freezer:  # (the command line's own process, which ends with it)
        freezer.keep("model")
    assert calls == ["freeze", "freeze"]  # (what the command made after: the exit's collection has nothing to walk)
    calls.clear()
    frozen[0] = 375  # (the command line's process is its own, whatever its interpreter froze as it started)
    with collector.Freezer(give_back=False) as freezer:
        freezer.keep("model")
    assert calls == ["freeze", "freeze"]
    calls.clear()
    frozen[0] = 25_017  # (a host's own freeze: left as it is, nothing of ours added)
    with collector.Freezer() as freezer:
        freezer.keep("model")
    assert calls == []


def test_starting_the_workers_leaves_a_freeze_made_before_it():
    """The pool freezes this process's objects while it forks its workers and unfreezes
    them after; a freeze made before it (the command line's, given back as the command
    ends, or a host's) is neither undone nor added to."""
    from pracmln_poss.search.workers import local_pool

    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with local_pool(1) as pool:
            assert pool.submit(abs, -2).result() == 2
            assert 0 < gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()
    with local_pool(1) as pool:  # (nothing frozen before: what it froze is given back)
        assert pool.submit(abs, -2).result() == 2
        assert gc.get_freeze_count() == 0


def test_an_executor_of_threads_leaves_the_callers_freeze_alone(pracmln):
    """An executor whose chunks run in the caller's own process (threads) gives the
    same theory and freezes nothing there: only a worker process of its own freezes
    what its chunks read."""
    from concurrent.futures import ThreadPoolExecutor

    from .test_parallel import converted, smokers

    gc.unfreeze()
    m = smokers()
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert converted(m, {"k": 2}, executor=pool) == converted(m, {"k": 2})
    assert gc.get_freeze_count() == 0


def test_each_thread_of_an_executor_of_threads_has_an_engine_of_its_own(pracmln, monkeypatch):
    """An engine (its SAT solvers, which run with the GIL released) is not to be shared
    between threads: each thread that runs chunks opens its own, and keeps it for the
    chunks that follow (a worker process's thread likewise)."""
    from concurrent.futures import ThreadPoolExecutor

    from pracmln_poss.search import workers

    from .test_parallel import converted, smokers

    used: list[tuple[int, int]] = []
    real = workers._run

    def recorded(phase, worker, shared, chunk):
        used.append((threading.get_ident(), id(worker.engine)))
        return real(phase, worker, shared, chunk)

    monkeypatch.setattr(workers, "_run", recorded)
    m = smokers()
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert converted(m, {"k": 2}, executor=pool) == converted(m, {"k": 2})
    engines: dict[int, set[int]] = {}
    for thread, engine in used:
        engines.setdefault(thread, set()).add(engine)
    assert len(used) > len(engines)  # (a thread ran several chunks)
    assert all(len(e) == 1 for e in engines.values())  # (one engine per thread and context)
    assert len(set().union(*engines.values())) == len(engines)  # (no engine shared)


def test_the_engines_an_executor_of_threads_opened_go_with_the_run(pracmln, monkeypatch):
    """The engines the threads of a caller's executor open are the run's: closed as the
    search ends, while the caller's threads live on (they were kept by the threads, and
    by the exit's callbacks for good: every conversion on a new pool left its engines
    in the process until it ended), and nothing is kept by the threads."""
    import atexit
    import weakref
    from concurrent.futures import ThreadPoolExecutor

    from pracmln_poss.map.engine import MapEngine
    from pracmln_poss.search import workers

    from .test_parallel import converted, smokers

    opened: list[weakref.ref[MapEngine]] = []
    closed: set[int] = set()
    runners: list[workers.ChunkRunner] = []  # (held: closed, not merely dropped)
    real_open, real_close, real_init = workers._opened, MapEngine.close, workers.ChunkRunner.__init__

    def recorded(context, inherited):
        worker = real_open(context, inherited)
        opened.append(weakref.ref(worker.engine))
        return worker

    def init(runner, *args, **kwargs):
        real_init(runner, *args, **kwargs)
        runners.append(runner)

    def close(engine):
        closed.add(id(engine))
        real_close(engine)

    monkeypatch.setattr(workers, "_opened", recorded)
    monkeypatch.setattr(MapEngine, "close", close)
    monkeypatch.setattr(workers.ChunkRunner, "__init__", init)
    m = smokers()
    # (weakref.finalize registers its exit hook once per process, at its first use: made
    # here, so that a first use inside the run does not count; alone, this test failed)
    weakref.finalize(type("Anchor", (), {})(), lambda: None)
    callbacks = atexit._ncallbacks()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for _ in range(3):
            converted(m, {"k": 2}, executor=pool)
        assert len(opened) >= 3 and len(runners) == 3
        assert {id(engine()) for engine in opened if engine() is not None} <= closed
        runners.clear()
        gc.collect()
        assert [engine for engine in opened if engine() is not None] == []
        assert atexit._ncallbacks() == callbacks
        assert all(not vars(state) for state in pool.map(lambda _: workers._WORKER, range(8)))


@dataclasses.dataclass(frozen=True)
class _Context:
    """A search's context as a worker gets it (picklable: defined at module level)."""

    mln: object
    backend: str = "rc2"
    interchangeable: object = None


def test_a_threads_own_worker_is_closed_as_its_thread_ends(monkeypatch):
    """Where an executor pickles a chunk's arguments even in this process (a Dask
    cluster of threads), each thread keeps its worker itself: its engine is closed when
    the thread ends, not kept by the exit's callbacks until the process ends."""
    import atexit
    import pickle

    from pracmln_poss.logic.formula import Atom
    from pracmln_poss.map.engine import MapEngine
    from pracmln_poss.model.ground_mln import GroundMLN, WeightedFormula
    from pracmln_poss.search import workers

    closed: list[int] = []
    real_close = MapEngine.close
    monkeypatch.setattr(MapEngine, "close", lambda engine: (closed.append(id(engine)), real_close(engine)))
    shipped = ("a search", pickle.dumps(_Context(GroundMLN.create(["p"], [WeightedFormula(Atom(1), 1)]))))
    callbacks = atexit._ncallbacks()
    engines: list[int] = []
    thread = threading.Thread(target=lambda: engines.append(id(workers._worker(shipped).engine)))
    thread.start()
    thread.join()
    del thread
    gc.collect()
    assert len(engines) == 1 and closed == engines
    assert atexit._ncallbacks() == callbacks


def test_an_engine_busy_when_the_run_is_closed_is_closed_as_its_chunk_ends():
    """An interrupted run closes its runner while a thread of the caller's executor may
    still be running a chunk (a running future cannot be cancelled): that thread's
    engine is closed as the chunk ends, not under it; an idle one at once."""
    from pracmln_poss.search import workers

    class Engine:
        closes = 0

        def close(self):
            self.closes += 1

    home = workers._Home()
    started, release = threading.Event(), threading.Event()
    busy_engine, idle_engine = Engine(), Engine()

    def opened(engine):
        return lambda context, inherited: workers._Worker("t", object(), engine)  # type: ignore[arg-type]

    kept = []  # (the chunk's work holds its worker: closed, not merely dropped)

    def slow(worker):
        kept.append(worker)
        started.set()
        release.wait(10)
        return worker.engine.closes

    original = workers._opened
    try:
        workers._opened = opened(idle_engine)  # type: ignore[assignment]
        ran, end = threading.Event(), threading.Event()  # (the idle thread lives on: its ident not reused)
        idle = threading.Thread(target=lambda: (home.run(("t", b""), lambda worker: ran.set()), end.wait(10)))
        idle.start()
        assert ran.wait(10)
        workers._opened = opened(busy_engine)  # type: ignore[assignment]
        seen: list[int] = []
        busy = threading.Thread(target=lambda: seen.append(home.run(("t", b""), slow)))
        busy.start()
        assert started.wait(10)
        home.close()
        assert idle_engine.closes == 1 and busy_engine.closes == 0
        release.set()
        busy.join()
        end.set()
        idle.join()
    finally:
        workers._opened = original  # type: ignore[assignment]
    assert seen == [0] and busy_engine.closes == 1 and idle_engine.closes == 1


@pytest.mark.parametrize("argv", [
    ["convert", str(ANTARCTIC), "--method", "defaults", "-k", "2", "--filter", "aggressive", "--quiet",
     "--no-checkpoint"],
    ["convert", str(PAPER / "smokers.mln"), "-k", "1", "--backend", "rc2", "--quiet", "--no-checkpoint"],
    ["convert", str(PAPER / "example4-selective.mln"), "--method", "selective", "--family",
     str(PAPER / "example4-family.txt"), "--quiet"],
    ["convert", str(PAPER / "example3-exhaustive.mln"), "--method", "exhaustive", "--backend", "cpsat", "--quiet"],
    ["map", str(PAPER / "smokers.mln"), "--time-limit", "60", "--backend", "oll", "-e", "s(Alice)"],
    ["map", str(PAPER / "cora.mln"), "--backend", "toulbar2"],  # (toulbar2's own searches)
    ["map", str(ANTARCTIC), "--backend", "wcsp", "-e", "antarcticBird(Tweety)"],
    ["query", str(ROOT / "examples" / "penguin.theory"), "-e", "penguin(T)", "-q", "flies(T)"],
    ["explain", str(ROOT / "examples" / "penguin.theory"), "-e", "penguin(T)", "-q", "flies(T)"],
    ["verify", "THEORY", "--mln", str(ANTARCTIC), "-k", "1"],
    ["explain", "THEORY", "--mln", str(ANTARCTIC), "-e", "antarcticBird(Tweety)", "-q", "!flies(Tweety)"],
    ["show", "THEORY", "--mln", str(ANTARCTIC)],
])
def test_every_solve_of_a_command_goes_through_the_commands_guard(argv, monkeypatch, capsys, tmp_path):
    """The run's guard reaches every solver the command makes (a solver made without it
    has a guard of its own, which no signal stops: a Ctrl-C would wait for its solve)."""
    from pracmln_poss import stopping

    if "THEORY" in argv:
        theory = tmp_path / "antarctic.theory"
        assert main(["convert", str(ANTARCTIC), "-k", "1", "--quiet", "-o", str(theory)]) == 0
        argv = [str(theory) if word == "THEORY" else word for word in argv]

    seen: list[bool] = []
    for name in ("sat", "solving", "native"):
        method = getattr(stopping.Guard, name)

        def recorded(guard, *args, _method=method, **kwargs):
            if threading.current_thread() is threading.main_thread():
                seen.append(guard.watcher is not None)
            return _method(guard, *args, **kwargs)

        monkeypatch.setattr(stopping.Guard, name, recorded)
    assert main(argv) == 0, capsys.readouterr().err
    assert seen and all(seen), f"{seen.count(False)} of {len(seen)} solves went through a guard of their own"


def _host_alarm(seen: list[float]):
    def handler(signum, frame):
        seen.append(signal.getitimer(signal.ITIMER_REAL)[0])
    return handler


@pytest.mark.parametrize("ending", ["return", "exception", "time limit", "ctrl-c"])
def test_a_deadline_gives_the_hosts_timer_back_running(ending):
    """A host's interval timer (100 s to go) runs on after a deadline of ours, however the
    block ends: its time left is what it would have been, its handler its own (the
    deadline used to stop it: ``getitimer`` said ``(0.0, 0.0)``)."""
    import os
    import time

    from pracmln_poss import stopping
    from pracmln_poss.errors import TimeLimitReached

    seen: list[float] = []
    host = _host_alarm(seen)
    previous = signal.signal(signal.SIGALRM, host)
    try:
        signal.setitimer(signal.ITIMER_REAL, 100, 7)
        raised = {"return": None, "exception": ValueError, "time limit": TimeLimitReached,
                  "ctrl-c": KeyboardInterrupt}[ending]
        try:
            with stopping.stoppable() as guard, guard.deadline(0.05 if ending == "time limit" else 50):
                if ending == "exception":
                    raise ValueError
                if ending == "ctrl-c":
                    os.kill(os.getpid(), signal.SIGINT)
                end = time.monotonic() + 5
                while ending in ("time limit", "ctrl-c") and time.monotonic() < end:
                    pass
        except BaseException as exc:
            assert raised is not None and isinstance(exc, raised), exc
        else:
            assert raised is None
        left, interval = signal.getitimer(signal.ITIMER_REAL)
        assert 90 < left <= 100 and interval == 7
        assert signal.getsignal(signal.SIGALRM) is host and seen == []
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_hosts_timer_that_falls_due_inside_a_deadline_goes_off_as_it_ends():
    """Held back, not lost: the host's handler runs once the block has given it back."""
    import time

    from pracmln_poss import stopping

    seen: list[float] = []
    previous = signal.signal(signal.SIGALRM, _host_alarm(seen))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with stopping.stoppable() as guard, guard.deadline(50):
            time.sleep(0.2)
            assert seen == []
        end = time.monotonic() + 5
        while not seen and time.monotonic() < end:
            time.sleep(0.01)
        assert len(seen) == 1
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_an_outer_time_limit_still_stops_the_run_after_an_inner_one_ended():
    """Deadlines nest: an inner one's end sets the outer's timer running again."""
    import time

    from pracmln_poss import stopping
    from pracmln_poss.errors import TimeLimitReached

    with stopping.stoppable() as guard, pytest.raises(TimeLimitReached, match="0.3 s"), guard.deadline(0.3):
        with guard.deadline(30):
            pass
        end = time.monotonic() + 10
        while time.monotonic() < end:
            pass
        pytest.fail("the outer limit never came")


def test_every_entry_point_gives_back_any_host_state():
    """Random host states (a timer pending, handlers of its own for SIGINT, SIGTERM,
    SIGHUP and SIGALRM, or none, or ignored, faulthandler registered with and without
    ``chain``, the collector's thresholds, on or off, objects frozen) around every
    public entry point (the command line in-process, a conversion and MAP inside
    ``stoppable()`` with a time limit, toulbar2's native searches, MAP without a block),
    each returning, raising, interrupted by Ctrl-C or out of time: the state after is
    the state before (``tests.host_states``).  In a child process: the states are its own."""
    done = subprocess.run([sys.executable, "-m", "tests.host_states", "25"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-5000:]
    assert done.stdout.splitlines()[-1] == "ok 36", done.stdout[-2000:]
