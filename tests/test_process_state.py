"""A command run in-process (as the tests and any program embedding the command line
call ``main``) leaves the process as it found it: its signal handlers, the signals'
wakeup fd, the interval timer, the garbage collector (its freeze count, on or off) and
PySAT's own SIGINT check."""

from __future__ import annotations

import gc
import signal
import threading

import pytest

from pracmln_poss.cli import main

from .support import ANTARCTIC, PAPER

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)


def _state() -> dict[str, object]:
    from pysat._utils import MainThread

    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    return {"handlers": {s: signal.getsignal(s) for s in SIGNALS}, "wakeup": wakeup,
            "timer": signal.getitimer(signal.ITIMER_REAL), "frozen": gc.get_freeze_count(),
            "collecting": gc.isenabled(), "pysat check": MainThread.__dict__["check"],
            "threads": {t.name for t in threading.enumerate()}}


@pytest.mark.parametrize("argv", [
    ["convert", str(ANTARCTIC), "--method", "defaults", "-k", "2", "--quiet"],
    ["convert", str(PAPER / "smokers.mln"), "-k", "2", "-j", "2", "--quiet", "--no-checkpoint"],
    ["map", str(PAPER / "smokers.mln"), "--time-limit", "60", "--backend", "rc2", "-e", "s(Alice)"],
    ["map", str(ANTARCTIC), "--backend", "toulbar2", "-e", "antarcticBird(Tweety)"],
])
def test_a_command_run_in_process_leaves_the_process_as_it_found_it(argv, tmp_path, capsys):
    if argv[0] == "convert":
        argv = [*argv, "-o", str(tmp_path / "out.theory")]
    before = _state()
    assert main(argv) == 0, capsys.readouterr().err
    after = _state()
    threads_after = after.pop("threads")
    assert after == {k: v for k, v in before.items() if k != "threads"}
    assert not {t for t in threads_after - before["threads"] if t.startswith("pracmln-poss")}


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
    assert calls == ["freeze"]
    calls.clear()
    frozen[0] = 25_017  # (a host's own freeze: left as it is, nothing of ours added)
    with collector.Freezer() as freezer:
        freezer.keep("model")
    assert calls == []


def test_starting_the_workers_leaves_a_freeze_made_before_it():
    """The pool freezes this process's objects while it forks its workers, and unfreezes
    them after only when nothing was frozen before: the command line's freeze (given
    back as the command ends) is not undone at the first chunk."""
    from pracmln_poss.search.workers import local_pool

    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with local_pool(1) as pool:
            assert pool.submit(abs, -2).result() == 2
            assert gc.get_freeze_count() >= frozen > 0
    finally:
        gc.unfreeze()
