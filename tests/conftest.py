"""Shared fixtures (the rest tests share is in :mod:`.support`).  Tests that need pracmln
skip where it is missing, except under tox or CI (``PRACMLN_POSS_REQUIRE_PRACMLN=1`` or
``CI``), where they fail instead."""

from __future__ import annotations

import functools

import pytest

from .support import required

ALONE = frozenset({"test_parallel", "test_stopping"})
"""The modules whose tests time a process (a stop within a second) or send it signals,
all marked ``alone`` (other modules mark such tests one by one), so that tox runs them
after the rest, on a machine no other test loads (the rest share its two cores:
``pytest -n 2``)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.module is not None and item.module.__name__.rpartition(".")[2] in ALONE:
            item.add_marker(pytest.mark.alone)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # (tox's two runs split the suite by ``alone``: a selection that falls wholly in one
    # of them leaves the other nothing to run, which is no failure)
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and "alone" in (session.config.option.markexpr or ""):
        session.exitstatus = pytest.ExitCode.OK


@pytest.fixture(scope="session")
def pracmln():
    """The pracmln module, imported through our bridge."""
    from pracmln_poss.compat import import_pracmln
    from pracmln_poss.errors import DependencyError

    try:
        return import_pracmln()
    except DependencyError as exc:
        if required():
            pytest.fail(f"pracmln is required here but cannot be imported: {exc}")
        pytest.skip(f"pracmln not importable: {exc}")


@pytest.fixture
def every_report(monkeypatch):
    """Progress reports not rate-limited: a callback sees every chunk."""
    from pracmln_poss.search.progress import Reporter

    monkeypatch.setattr(Reporter, "INTERVAL", 0.0)


_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGALRM", "SIGUSR1")


@functools.cache
def _interpreters_own_freeze() -> int:
    """How many objects the interpreter itself keeps frozen after a full collection
    (375 on CPython 3.12, none on 3.11 and 3.13), measured as the session starts,
    before any test froze anything."""
    import gc

    gc.collect()
    return gc.get_freeze_count()


def pytest_configure(config: pytest.Config) -> None:
    _interpreters_own_freeze()
    _python_s_own_ctrl_c()


def _python_s_own_ctrl_c() -> None:
    """Ctrl-C raises ``KeyboardInterrupt``, as in a Python started from a terminal, where
    the suite was started with SIGINT ignored: a shell without job control starts every
    background command so (``tox -e py &`` in a script, ``nohup``), and Python then
    keeps it ignored.  The tests of a Ctrl-C expect Python's own handler (ours respects
    an ignored SIGINT: it installs its handler only over Python's); under an ignored one
    three of them failed every time, which looked like a flaky test under load."""
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _process_state() -> dict[str, object]:
    """What a test may change of this process and must give back: the signals' handlers,
    the main thread's signal mask, the wakeup fd, the interval timer, ``sys.unraisablehook``, the garbage collector and
    the threads (a test that leaves any of them changed makes a later one fail, where
    nothing says why: a stop test met a thread a Dask cluster had left behind)."""
    import gc
    import signal
    import sys
    import threading

    fd = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(fd)
    return {
        "handlers": {name: signal.getsignal(getattr(signal, name)) for name in _SIGNALS},
        "wakeup fd": fd,
        "timer": signal.getitimer(signal.ITIMER_REAL)[0] > 0,
        "signal mask": signal.pthread_sigmask(signal.SIG_BLOCK, ()),
        "unraisablehook": sys.unraisablehook,
        # (a freeze count past the interpreter's own: CPython 3.12 puts 375 objects of
        # its own back among the frozen at every full collection, even after
        # gc.unfreeze(), so its count alone goes from 0 to 375 and back by itself)
        "gc": (gc.isenabled(), gc.get_freeze_count() > _interpreters_own_freeze()),
        "threads": {t.ident for t in threading.enumerate()},
    }


@pytest.fixture(autouse=True)
def _gives_back_the_process_state(request):
    """Each test leaves the process as it found it (:func:`_process_state`); where it
    does not, it fails itself, naming what it left."""
    import threading
    import time

    before = _process_state()
    yield
    after = _process_state()
    if after["threads"] != before["threads"]:  # (a thread on its way out is given a moment)
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline and _process_state()["threads"] - before["threads"]:
            time.sleep(0.02)
        after = _process_state()
    left = [key for key in before if key != "threads" and after[key] != before[key]]
    new = after["threads"] - before["threads"]  # (threads that ended are no harm)
    if new:
        names = sorted(t.name for t in threading.enumerate() if t.ident in new)
        left.append(f"threads {', '.join(names)}")
    if left:
        pytest.fail(f"{request.node.nodeid} left the process changed: {'; '.join(map(str, left))}", pytrace=False)
