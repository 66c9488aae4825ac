"""Random host states around every public entry point, in a process of its own
(``python -m tests.host_states EXAMPLES``; :func:`tests.test_process_state` runs it).

A host program sets up its process (an interval timer pending, Python handlers of its own
for SIGINT, SIGTERM, SIGHUP and SIGALRM, or none, or ignored, ``faulthandler.register``
of some of them with and without ``chain``, the collector's thresholds, enabled or not,
objects frozen), then calls an entry point (the command line in-process, a conversion,
MAP inference inside ``stoppable()`` with a time limit, toulbar2's native searches),
which returns, raises, is interrupted by Ctrl-C or runs out of its time limit.  After it,
the state is as it was: the same Python handlers and kernel actions, the timer's time
left as it would have been, the same thresholds, the freeze not grown, no thread of
ours; and each faulthandler registration still writes its traceback (and, chained, runs
the host's handler) when its signal comes."""

from __future__ import annotations

import faulthandler
import gc
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pracmln_poss import load_first_order, map_inference, transform
from pracmln_poss.cli import main
from pracmln_poss.errors import PossError, TimeLimitReached
from pracmln_poss.stopping import SIGNALS, stoppable

from .support import ANTARCTIC, PAPER, kernel_actions

HANDLERS = ("default", "ignore", "own")
"""A host's Python handler of a signal: Python's default (Ctrl-C's raises), ignored, or a
function of its own that notes the signal."""


@dataclass(frozen=True)
class HostState:
    """What a host program set up before it called us."""

    timer: tuple[float, float] | None  # (seconds left, interval), or none pending
    handlers: tuple[str, ...]  # per signal of SIGNALS, one of HANDLERS
    faulthandler: tuple[bool | None, ...]  # per signal: registered with chain (True, False), or not (None)
    thresholds: tuple[int, int, int]
    collecting: bool
    frozen: bool


@st.composite
def host_states(draw: st.DrawFn) -> HostState:
    timer = draw(st.none() | st.tuples(st.floats(100, 1000), st.sampled_from([0.0, 50.0])))
    handlers = []
    registered = []
    for signum in SIGNALS:
        # (a timer pending comes with a handler of its own: Python's default would end the process)
        choices = ["own"] if signum == signal.SIGALRM and timer is not None else list(HANDLERS)
        handler = draw(st.sampled_from(choices))
        handlers.append(handler)
        # (chained to the default action, a registration's signal would end the process)
        chained = handler == "own" or (handler == "default" and signum == signal.SIGINT)
        registered.append(draw(st.sampled_from([None, False, True] if chained else [None, False])))
    thresholds = (draw(st.integers(100, 5000)), draw(st.integers(2, 20)), draw(st.integers(2, 20)))
    return HostState(timer, tuple(handlers), tuple(registered), thresholds, draw(st.booleans()), draw(st.booleans()))


class Host:
    """A host state set up, and what its handlers and registrations saw."""

    def __init__(self, state: HostState) -> None:
        self.state = state
        self.seen: list[int] = []
        self.records: dict[int, object] = {}

    def own(self, signum: int, frame: object) -> None:
        self.seen.append(signum)

    def set_up(self) -> None:
        state = self.state
        for signum, handler, chain in zip(SIGNALS, state.handlers, state.faulthandler):
            if handler == "own":
                signal.signal(signum, self.own)
            elif handler == "ignore":
                signal.signal(signum, signal.SIG_IGN)
            else:
                signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
            if chain is not None:
                record = tempfile.TemporaryFile()
                self.records[int(signum)] = record
                faulthandler.register(signum, file=record, all_threads=False, chain=chain)
        gc.set_threshold(*state.thresholds)
        (gc.enable if state.collecting else gc.disable)()
        if state.frozen:
            gc.freeze()
        if state.timer is not None:
            signal.setitimer(signal.ITIMER_REAL, *state.timer)

    def take_down(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for signum in SIGNALS:
            faulthandler.unregister(signum)
            signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
        for record in self.records.values():
            record.close()  # type: ignore[attr-defined]
        gc.unfreeze()
        gc.set_threshold(700, 10, 10)
        gc.enable()


def snapshot() -> dict[str, object]:
    """The process state a call must give back (the timer apart: its time runs)."""
    wakeup = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(wakeup)
    return {"handlers": [signal.getsignal(s) for s in SIGNALS], "kernel": kernel_actions(), "wakeup": wakeup,
            "thresholds": gc.get_threshold(), "collecting": gc.isenabled(), "unraisable hook": sys.unraisablehook}


def ours() -> set[str]:
    return {t.name for t in threading.enumerate() if t.name.startswith("pracmln-poss")}


def _interrupted(call: Callable[[], object]) -> Callable[[], object]:
    """``call`` with a Ctrl-C sent 0.3 s into it (from a thread: the host's timer is its own)."""
    def run() -> object:
        sender = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        sender.start()
        try:
            return call()
        finally:
            sender.cancel()
            sender.join()
    return run


def _in_block(call: Callable[..., object], seconds: float) -> Callable[[], object]:
    def run() -> object:
        with stoppable() as guard, guard.deadline(seconds):
            return call(guard)
    return run


def entry_points(tmp: str) -> dict[str, Callable[[], object]]:
    smokers, cora = str(PAPER / "smokers.mln"), str(PAPER / "cora.mln")
    out = os.path.join(tmp, "out.theory")
    return {
        "command line: convert": lambda: main(["convert", str(ANTARCTIC), "-k", "1", "--quiet", "-o", out]),
        "command line: map, toulbar2": lambda: main(["map", cora, "--backend", "toulbar2", "--time-limit", "60"]),
        "command line: an error": lambda: main(["map", os.path.join(tmp, "missing.mln")]),
        "command line: a time limit passes": lambda: main(["map", cora, "--time-limit", "0.01"]),
        "command line: Ctrl-C": _interrupted(lambda: main(["convert", cora, "-k", "3", "--no-checkpoint", "-o", out])),
        "block: map, toulbar2": _in_block(lambda guard: map_inference(
            load_first_order(cora), backend="toulbar2", guard=guard).map_world(), 60),
        "block: convert": _in_block(lambda guard: transform(load_first_order(smokers), k=1, guard=guard), 60),
        "block: a time limit passes": _in_block(lambda guard: transform(load_first_order(cora), k=3, guard=guard), 0.2),
        "block: an error": _in_block(lambda guard: transform(os.path.join(tmp, "missing.mln"), guard=guard), 60),
        "block: Ctrl-C": _interrupted(_in_block(lambda guard: transform(load_first_order(cora), k=3, guard=guard), 60)),
        "no block: map": lambda: map_inference(load_first_order(smokers), backend="cpsat").map_world(),
    }


ENDINGS = (KeyboardInterrupt, TimeLimitReached, PossError)
"""What an entry point may end with besides returning."""


def check(state: HostState, name: str, tmp: str) -> None:
    host = Host(state)
    started = time.monotonic()  # (before the timer is set: its time left is bounded whatever the load)
    host.set_up()
    try:
        before, frozen, threads = snapshot(), gc.get_freeze_count(), ours()
        called = time.monotonic()
        try:
            entry_points(tmp)[name]()
        except ENDINGS:
            pass
        call = time.monotonic() - called
        after = snapshot()
        assert after == before, (name, before, after)
        # (frozen objects may die meanwhile; none may be added, and a host's freeze stays one)
        assert (0 < gc.get_freeze_count() <= frozen) if frozen else gc.get_freeze_count() == 0, name
        assert ours() <= threads, (name, ours())
        left, interval = signal.getitimer(signal.ITIMER_REAL)
        elapsed = time.monotonic() - started
        if state.timer is None:
            assert (left, interval) == (0.0, 0.0), (name, left, interval)
        else:
            assert interval == state.timer[1], (name, interval)
            # (running on from where it was: no less left than the time since it was set
            # allows, no more than the call's own time leaves; bounds that hold under any load)
            assert state.timer[0] - elapsed - 0.1 <= left <= state.timer[0] - call + 0.1, (name, left, elapsed, call)
            signal.setitimer(signal.ITIMER_REAL, 0)
        host.seen.clear()
        for signum, handler, chain in zip(SIGNALS, state.handlers, state.faulthandler):
            if chain is None:
                continue
            try:
                os.kill(os.getpid(), signum)
            except KeyboardInterrupt:
                host.seen.append(int(signum))
            record = host.records[int(signum)]
            assert os.lseek(record.fileno(), 0, os.SEEK_END) > 0, (name, signal.Signals(signum).name, "not written")  # type: ignore[attr-defined]
            runs = chain and handler in ("own", "default")
            assert (int(signum) in host.seen) == runs, (name, signal.Signals(signum).name, host.seen)
    finally:
        host.take_down()


def run(examples: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        names = sorted(entry_points(tmp))

        @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(host_states(), st.sampled_from(names))
        def property_(state: HostState, name: str) -> None:
            check(state, name, tmp)

        property_()
        for name in names:  # (each entry point at least once, whatever the draw)
            check(HostState((500.0, 0.0), ("own",) * 4, (True, True, False, True), (900, 7, 7), True, True), name, tmp)
    print("ok", examples + len(names))


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
