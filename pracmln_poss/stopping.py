"""Stopping a solve: Ctrl-C, SIGTERM, SIGHUP and a time limit reach every solver within a second.

Python runs a signal's handler in the main thread, between two bytecodes; a solver's C
code that runs for minutes never gets there, so a handler alone cannot stop it.
:func:`stoppable` (the command line runs every command inside it) makes the run's
:class:`Guard`, which every solver of the run is given and solves through:

- solvers that release the GIL while they search (CP-SAT; PySAT's ``solve_limited``)
  are stopped from a watcher thread: Python's own C-level handler writes the signal's
  number to a pipe (:func:`signal.set_wakeup_fd`), the thread reads it and calls the stop
  function of the solve under way (CP-SAT's ``stop_search``, PySAT's ``interrupt``),
  registered by :meth:`Guard.solving`;
- toulbar2 holds the GIL: during each of its searches, :meth:`Guard.native` makes these
  signals call the solver's own time-out handler (what its time limit calls: it makes
  the search stop at its next choice point), through :mod:`faulthandler`, whose handler
  notes which signal came in a file of its own; afterwards Python's handlers are put
  back and the signals that came are raised again for them.

After a stopped solve, the Python handlers run at once (:func:`run_handlers`): Ctrl-C
raises ``KeyboardInterrupt``, the command line's SIGTERM handler its own interrupt, a
:meth:`Guard.deadline` :class:`~pracmln_poss.errors.TimeLimitReached`; when none raises
(a handler that ignores the signal), the solve is asked again: a stopped solve never
passes for an answer.  Python may run a handler inside a finalizer (a ``__del__``, a
weak reference's callback, a generator closed as it is freed), which hands what it raises
to ``sys.unraisablehook`` and goes on; so a handler that raises to stop the work raises
``guard.expire(exc, signum)``, which keeps ``exc``: every later solve of the run raises it
before it starts (:meth:`Guard.check`), and the run's hook, instead of printing it as
an error, has the watcher send its signal again :data:`~pracmln_poss.startup.RETRY`
seconds later (out of the finalizer by then), whose handler raises it again
(:meth:`Guard.again`; a time limit's alarm comes again by itself); the block raises it
as it ends if it is still swallowed.

A solver given no guard makes a ``Guard()`` of its own, which installs nothing: PySAT
catches Ctrl-C itself during a solve and raises its own error (:data:`INTERRUPTS`,
:func:`interrupted`).

What a run changes of the process (the signals' handlers and wakeup fd, PySAT's own
handler check, ``sys.unraisablehook``, the watcher thread, the exception kept, the deadlines running,
faulthandler's registrations for a native search) is held by one owner, its guard, and
all of it is given back as the block ends: a program that calls us in-process finds its
process as it left it, its own ``faulthandler.register`` of a signal among it (left to
it by native searches).  The module itself keeps only which block is running (a context
variable): a block inside another joins its run.
"""

from __future__ import annotations

__all__ = [
    "INTERRUPTS", "MAX_TIME_LIMIT", "RESTOP", "SAT_SOLVER", "SIGNALS", "Guard", "Run", "NativeRun", "SatOracle",
    "Taken", "forget_in_child", "given", "interrupted", "model_of", "run_handlers", "stoppable", "take",
]

import contextvars
import ctypes
import faulthandler
import functools
import os
import select
import signal
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import IO, Protocol, overload

from pycard import error as _CardinalityError
from pysolvers import error as _SolverError

from .errors import ArgumentError, TimeLimitReached
from .startup import RETRY, importing, start_helper, to_main_thread

_PYSAT_ERRORS = (_SolverError, _CardinalityError)
"""PySAT's C extensions' errors: the solvers', and the totalizers' (RC2 and ours grow
them while a question is answered), each raised for a SIGINT caught inside them."""

INTERRUPTS: tuple[type[BaseException], ...] = (KeyboardInterrupt, *_PYSAT_ERRORS)
"""What an interrupt may arrive as: Python's, or PySAT's (among its other errors)."""

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)
"""The signals that stop a solve (SIGALRM: a :meth:`Guard.deadline`)."""

SAT_SOLVER = "m22"
"""The PySAT solver every SAT call of the package uses by default: MiniSat 2.2 notices an
``interrupt`` at every decision, Glucose only between restarts (measured: up to 2.8 s
late); as fast as Glucose on the conversions and MAP questions measured."""


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C: ``KeyboardInterrupt``, or PySAT's error for a SIGINT
    caught during a solve or while a totalizer grows."""
    return isinstance(exc, KeyboardInterrupt) or (
        isinstance(exc, _PYSAT_ERRORS) and "keyboard interrupt" in str(exc).lower())


@dataclass
class Run:
    """One solve that can be stopped: ``stopped`` is set when a signal stopped it."""

    stop: Callable[[], None]
    stopped: bool = False


@dataclass
class _Watcher:
    """The watcher thread's state while :func:`stoppable` is active."""

    read: int
    write: int
    thread: threading.Thread | None = None
    current: Run | None = None
    signalled: bool = False  # a signal came that has not stopped a solve yet
    again_at: float | None = None  # when to send a swallowed stop's signal again (Guard._unraisable)
    send_again: Callable[[], None] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class Guard:
    """What one stoppable run holds of the process (:func:`stoppable` makes it), given to
    every solver of the run, which asks it to solve: the watcher thread and its pipe,
    the exception a signal's handler raised to stop the work, the deadlines running and
    faulthandler's registrations for native searches; all of it is given back as the run
    ends.  ``Guard()`` is a run without a watcher (outside :func:`stoppable`, or not in
    the main thread): its solves are not stopped by signals, but its deadlines keep what
    they raise.

    :ivar watcher: the watcher thread and its pipe (None: signals stop no solve).
    :ivar pending: what a signal's handler raised to stop the work (:meth:`expire`).
    :ivar pending_signal: the signal whose handler raised it (None: not a signal's).
    :ivar swallowed: a finalizer swallowed it, and it has not been raised again since.
    :ivar deadlines: how many :meth:`deadline` blocks run inside it.
    :ivar armed: faulthandler's registrations for native searches, made at the first
        (:meth:`native`) and unregistered as the run ends.
    :ivar hosts: the signals a host program handles in C (its own
        :func:`faulthandler.register`, which faulthandler holds one of per signal), whose
        handler the run replaced for a while: native searches leave them to it.
    """

    def __init__(self, watcher: _Watcher | None = None) -> None:
        self.watcher = watcher
        self.pending: BaseException | None = None
        self.pending_signal: int | None = None
        self.swallowed = False
        self.deadlines = 0
        self.armed: _Armed | None = None
        self.hosts: set[int] = set()

    @property
    def watching(self) -> bool:
        """Whether solves are stopped by signals here (a watcher, and the main thread)."""
        return self.watcher is not None and threading.current_thread() is threading.main_thread()

    @property
    def under_deadline(self) -> bool:
        """Whether a :meth:`deadline` is running (solvers then keep the best world they
        find as they go, for ``map --anytime``)."""
        return self.deadlines > 0

    def helper_threads(self) -> int:
        """Threads of the guard running (its watcher: 1 inside :func:`stoppable`)."""
        watcher = self.watcher
        return int(watcher is not None and watcher.thread is not None and watcher.thread.is_alive())

    def expire(self, exc: BaseException, signum: int | None = None) -> BaseException:
        """Keep ``exc``, the exception the handler of ``signum`` raises to stop the work, so
        that every later solve of the run raises it too before it starts (:meth:`check`);
        returns it.

        Python runs a handler at whatever bytecode comes next, which may be inside a
        finalizer: that hands the exception to ``sys.unraisablehook`` and goes on, and the
        signal would be lost.  Inside :func:`stoppable` the run's hook then has ``signum``
        sent again, and its handler calls :meth:`again`."""
        self.pending, self.pending_signal, self.swallowed = exc, signum, False
        return exc

    def check(self) -> None:
        """Raise the exception a signal's handler raised to stop the work, if one did
        (every solve asks before it starts)."""
        if self.pending is not None:
            self.swallowed = False
            raise self.pending

    def again(self) -> None:
        """Raise the exception a signal's handler raised to stop the work again, if a
        finalizer swallowed it (a handler calls it when its signal comes once more: the
        hook of :func:`stoppable` has it sent)."""
        if self.swallowed and self.pending is not None:
            self.swallowed = False
            raise self.pending

    def interrupt(self, signum: int, frame: object) -> None:
        """Ctrl-C inside :func:`stoppable`: Python's ``KeyboardInterrupt``, kept (:meth:`expire`);
        once, as the command line's (a second one while the first is on its way out is
        let go, unless a finalizer swallowed the first: :meth:`again`)."""
        if isinstance(self.pending, KeyboardInterrupt):
            self.again()
            return
        raise self.expire(KeyboardInterrupt(), signum)

    def _unraisable(self, previous: Callable[[sys.UnraisableHookArgs], object]
                    ) -> Callable[[sys.UnraisableHookArgs], None]:
        """The ``sys.unraisablehook`` of a :func:`stoppable` block: the run's stop, which a
        finalizer swallowed, is noted (:attr:`swallowed`) and its signal sent again by the
        watcher a moment later (:func:`_watch`), not printed as an error; anything else
        goes to ``previous``.  Not at once: a signal that comes inside the hook would run
        its handler there, whose exception Python would print and drop."""

        def hook(unraisable: sys.UnraisableHookArgs) -> None:
            pending = self.pending
            if pending is None or unraisable.exc_value is not pending:
                previous(unraisable)
                return
            self.swallowed = True
            watcher = self.watcher
            if self.pending_signal is not None and watcher is not None:
                watcher.again_at = time.monotonic() + RETRY
                try:
                    os.write(watcher.write, _WAKE)
                except OSError:  # pragma: no cover - a pipe full of unread signals: awake already
                    pass

        return hook

    def _send_again(self) -> None:
        """Send the signal whose handler's stop a finalizer swallowed again (from the
        watcher), unless it got out meanwhile."""
        signum = self.pending_signal
        if self.swallowed and self.pending is not None and signum is not None:
            to_main_thread(signum)

    @contextmanager
    def solving(self, stop: Callable[[], None]) -> Iterator[Run]:
        """The block runs one solve that releases the GIL; a signal calls ``stop`` (from
        another thread) and sets the run's ``stopped``; so does a signal that came since
        the last stopped solve."""
        run = Run(stop)
        watcher = self.watcher
        if watcher is None or not self.watching:
            yield run
            return
        with watcher.lock:
            watcher.current = run
            if watcher.signalled:
                run.stopped = True
                run.stop()
        try:
            yield run
        finally:
            with watcher.lock:
                watcher.current = None
                if run.stopped:  # (its caller runs the handlers, or asks again)
                    watcher.signalled = False

    @overload
    def sat(self, oracle: SatOracle, assumptions: list[int]) -> bool: ...
    @overload
    def sat(self, oracle: SatOracle, assumptions: list[int], budgeted: bool) -> bool | None: ...
    def sat(self, oracle: SatOracle, assumptions: list[int], budgeted: bool = False) -> bool | None:
        """``oracle.solve(assumptions)`` of a PySAT solver, stopped by the signals when
        :attr:`watching` (``solve_limited``, which releases the GIL, and ``interrupt``);
        else PySAT catches Ctrl-C during the solve, and it ends in ``KeyboardInterrupt``.
        ``budgeted``: the solver has a budget (a conflict limit), and None says it ran out."""
        if not self.watching:
            self.check()
            found = oracle.solve_limited(assumptions=assumptions)
            if found is None and not budgeted:  # (no budget is set: only Ctrl-C stops it)
                raise KeyboardInterrupt
            return found if found is None else bool(found)
        while True:
            self.check()
            oracle.clear_interrupt()
            with self.solving(oracle.interrupt) as run:
                found = oracle.solve_limited(assumptions=assumptions, expect_interrupt=True)
            if found is not None:
                return bool(found)
            if run.stopped:
                run_handlers()
            elif budgeted:
                return None
            # (a signal whose handler did not raise, or none at all: ask again)

    @contextmanager
    def native(self, handler: int | None) -> Iterator[NativeRun]:
        """During the block (a native search that holds the GIL), the signals of
        :data:`SIGNALS` call ``handler``, the address of the solver's own C function that
        stops its search (through :class:`_Armed`, which tells which came).  Afterwards
        Python's handlers are back, and the signals that came are raised again for them and
        run (:func:`run_handlers`); the run lists them (the caller asks again when none
        raised).  Does nothing unless :attr:`watching`, without a handler, or without a C
        library to call."""
        self.check()
        run = NativeRun()
        armed = _arm(self, handler) if handler is not None and self.watching else None
        if armed is None:
            yield run
            return
        libc = armed.libc
        saved = {}
        try:
            for signum, action in armed.actions.items():
                if signal.getsignal(signum) is signal.SIG_IGN:  # (ignored, as nohup's SIGHUP: left so)
                    continue
                saved[signum] = _action(libc, signum)
                libc.sigaction(signum, action, None)  # (swapped at once: no moment without a handler)
            run_handlers()  # (a signal that came just before)
            yield run
        finally:
            for signum, action in saved.items():
                libc.sigaction(signum, action, None)
            run.signals.extend(_came(armed))
        for came in run.signals:
            signal.raise_signal(came)
        if run.signals:
            run_handlers()

    @contextmanager
    def deadline(self, seconds: float | None) -> Iterator[None]:
        """Inside the block, :class:`~pracmln_poss.errors.TimeLimitReached` is raised
        ``seconds`` after it starts (None: no limit), whatever solver of the run is
        running (the main thread's: a signal's handler runs there)."""
        if seconds is None:
            yield
            return
        if not 0 < seconds <= MAX_TIME_LIMIT:  # (the interval timer takes no more: OverflowError)
            raise ArgumentError(f"a time limit is a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}, "
                                f"got {seconds!r}")
        give_back = _handle(self, signal.SIGALRM, _alarm(self, TimeLimitReached(
            f"no answer within the time limit of {seconds:g} s")))
        started = time.monotonic()
        held = signal.setitimer(signal.ITIMER_REAL, seconds, AGAIN)  # (the timer it replaces: a host's, an outer limit's)
        self.deadlines += 1
        try:
            yield
        finally:
            self.deadlines -= 1
            signal.setitimer(signal.ITIMER_REAL, 0)
            give_back()
            if isinstance(self.pending, TimeLimitReached):
                self.pending, self.swallowed = None, False
            _give_back_timer(held, time.monotonic() - started)


@contextmanager
def stoppable(hosts: Iterable[int] = ()) -> Iterator[Guard]:
    """A run whose every solve stops within a second of a signal of :data:`SIGNALS`: the
    :class:`Guard` to give its solvers.  In the main thread only (elsewhere the guard has
    no watcher); the process's handlers, wakeup fd and faulthandler's registrations are
    as before once the block ends.  A block inside another joins its run (the same
    guard).  ``hosts``: signals whose host's C handler the caller took over (:func:`take`),
    which native searches leave to it."""
    if threading.current_thread() is not threading.main_thread():
        yield Guard()
        return
    running = _RUN.get()
    if running is not None and running.watcher is not None:  # (inside another block: its run)
        running.hosts.update(hosts)
        yield running
        return
    # (each change is given back by the callback registered right after it, in the
    # reverse order: a stop that comes while the block is set up, or while it is taken
    # down, leaves nothing of it behind, and one callback's exception does not keep the
    # next from running)
    with ExitStack() as undo:
        read, write = os.pipe()
        watcher = _Watcher(read, write)
        guard = Guard(watcher)
        guard.hosts.update(hosts)
        undo.callback(_forget, guard)
        undo.callback(_RUN.reset, _RUN.set(guard))
        undo.callback(_close_pipe, watcher)
        os.set_blocking(write, False)
        undo.callback(signal.set_wakeup_fd, signal.set_wakeup_fd(write, warn_on_full_buffer=False))
        interrupt = signal.getsignal(signal.SIGINT)
        if interrupt is signal.default_int_handler:
            undo.callback(_handle(guard, signal.SIGINT, guard.interrupt))
        watcher.send_again = guard._send_again
        watcher.thread = threading.Thread(target=_watch, args=(watcher,), name="pracmln-poss stop", daemon=True)
        # (the watcher stops before the handlers are given back: a swallowed stop's
        # signal it was sending as the block ended comes to the run's handler, which
        # lets it go)
        start_helper(watcher.thread)  # (signals blocked in it: see start_helper)
        undo.callback(_stop_watching, watcher)
        undo.callback(_disarm_guard, guard)
        undo.callback(_without_pysat_handlers())
        unraisable = sys.unraisablehook
        sys.unraisablehook = guard._unraisable(unraisable)
        undo.callback(setattr, sys, "unraisablehook", unraisable)
        undo.callback(setattr, guard, "swallowed", False)  # (nothing is sent again from here on)
        yield guard
        if guard.swallowed:  # (a stop a finalizer swallowed as the block's last work)
            guard.check()


@dataclass(frozen=True)
class Taken:
    """A signal's Python handler taken over (:func:`take`): the one it replaced, and the
    kernel's action under it when that was a host program's C handler (its own
    :func:`faulthandler.register`, which Python's table does not show and
    :func:`signal.signal` drops)."""

    signum: int
    previous: signal._HANDLER
    host: bytes | None = None  # (the raw ``struct sigaction``)

    def give_back(self, handler: signal._HANDLER | None = None) -> None:
        """Put back the Python handler it replaced (or ``handler`` instead), with the
        host's C handler under it (not under another)."""
        signal.signal(self.signum, self.previous if handler is None else handler)
        libc = _libc()
        if self.host is not None and libc is not None and (handler is None or handler is self.previous):
            libc.sigaction(self.signum, ctypes.create_string_buffer(self.host, _SIGACTION_SIZE), None)


def take(signum: int, handler: signal._HANDLER) -> Taken:
    """Set Python's handler of ``signum`` to ``handler`` (in the main thread); what it
    replaced, to give back."""
    libc = _libc()
    host = None
    if libc is not None:
        kernel = _action(libc, signum)
        host = kernel.raw if _foreign(kernel, _python_c_handler(libc)) else None
    return Taken(signum, signal.signal(signum, handler), host)


def _handle(guard: Guard, signum: int, handler: Callable[[int, types.FrameType | None], None]
            ) -> Callable[[], None]:
    """:func:`take` ``signum`` for the guard's run (a host's C handler it hides is one of
    the guard's :attr:`~Guard.hosts`); what gives it back."""
    taken = take(signum, handler)
    if taken.host is not None:
        guard.hosts.add(signum)
    return taken.give_back


def _forget(guard: Guard) -> None:
    """A guard kept after its run stops nothing."""
    guard.watcher, guard.pending = None, None


def _close_pipe(watcher: _Watcher) -> None:
    """Close the watcher's pipe: its reading end once the watcher has stopped (or never
    started; a watcher still reading it, after a second's wait, keeps it)."""
    os.close(watcher.write)
    if watcher.thread is None or not watcher.thread.is_alive():
        os.close(watcher.read)


def _stop_watching(watcher: _Watcher) -> None:
    """Stop the watcher at the byte 0, no signal's number (not by closing the pipe: a
    forked worker's copy of its writing end would keep the watcher from ever reading its
    end), and wait a second for it."""
    try:
        os.write(watcher.write, _END)
    except BlockingIOError:  # pragma: no cover - a pipe full of unread signals: its end, as before
        pass
    if watcher.thread is not None:
        watcher.thread.join(timeout=1.0)


def _disarm_guard(guard: Guard) -> None:
    """Give back faulthandler's registrations the run's native searches made."""
    if guard.armed is not None:
        _disarm(guard.armed)


def given(guard: Guard | None) -> Guard:
    """``guard``, the run's a solver was given, or for None a guard of its own (which no
    signal stops)."""
    return guard if guard is not None else Guard()


_END = b"\0"
"""What the watcher's pipe gets as its run ends: no signal has the number 0."""

_WAKE = b"\xff"
"""What the watcher's pipe gets to wake it when a swallowed stop is to be sent again
(:meth:`Guard._unraisable`): no signal has the number 255."""


def forget_in_child() -> None:
    """In a forked worker: this process's signals write to no pipe (the wakeup fd it
    inherited is its parent's run's, whose watcher would take them for its own)."""
    if threading.current_thread() is threading.main_thread():
        signal.set_wakeup_fd(-1)


def _without_pysat_handlers() -> Callable[[], None]:
    """Keep PySAT's C code from putting in its own SIGINT handler (until the function
    returned is called): it does so around its calls made from the main thread (a
    totalizer built or grown, a ``propagate``, a solve that expects no ``interrupt``),
    and the handler ``longjmp``s out of whatever C code the signal found, the C library's
    ``malloc`` or ``free`` included, whose lock then stays taken: the next ``free``
    waits for ever (found with py-spy: ``map --backend rc2`` stopped by Ctrl-C hung in
    ``ITotalizer.delete``, about 1 run in 200 under load).  Inside :func:`stoppable`
    Python's own C handler, which only notes the signal, takes every one: the solves are
    stopped from the watcher, and the rest (a totalizer's few milliseconds) are left to
    finish.  PySAT asks ``MainThread.check()`` before each such call."""
    from pysat._utils import MainThread

    check = MainThread.__dict__["check"]
    MainThread.check = staticmethod(lambda: False)
    return lambda: setattr(MainThread, "check", check)


def _watch(watcher: _Watcher) -> None:
    """Read the signals' numbers as Python's handler writes them; stop the solve under way
    for those of :data:`SIGNALS`, and stop it again every :data:`RESTOP` seconds until it
    ends (a solver asked to stop before its search started may not know it yet: CP-SAT's
    ``stop_search`` does nothing then); a signal that comes between two solves stops the
    next one (its Python handler, which runs at some later bytecode, may be inside a
    ``__del__`` that swallows what it raises, while the next solve starts); and send
    the signal of a stop a finalizer swallowed again when it is due (:meth:`Guard._unraisable`)."""
    wanted = {int(s) for s in SIGNALS}
    while True:
        try:
            ready, _, _ = select.select([watcher.read], [], [], _wait(watcher))
        except (OSError, ValueError):  # pragma: no cover - the pipe closed under us
            return
        data = b""
        if ready:
            try:
                data = os.read(watcher.read, 64)
            except OSError:  # pragma: no cover - the pipe closed under us
                return
            if not data or _END[0] in data:
                return
        again_at = watcher.again_at
        if again_at is not None and time.monotonic() >= again_at and watcher.send_again is not None:
            watcher.again_at = None
            watcher.send_again()
        if ready and wanted.isdisjoint(data):
            continue
        with watcher.lock:
            if ready:
                watcher.signalled = True
            run = watcher.current
            if watcher.signalled and run is not None:
                run.stopped = True
                run.stop()


RESTOP = 0.05
"""Seconds between two stops of a solve that a signal stopped and that has not ended yet."""


def _wait(watcher: _Watcher) -> float | None:
    """How long the watcher waits for its pipe: until the next stop of a stopped solve
    (:data:`RESTOP`), or until a swallowed stop is to be sent again; None: for ever."""
    waits = [RESTOP] if watcher.signalled else []
    again_at = watcher.again_at
    if again_at is not None:
        waits.append(max(0.0, again_at - time.monotonic()))
    return min(waits, default=None)


def run_handlers() -> None:
    """Run the Python handlers of the signals that came, now (they raise: Ctrl-C, the
    command line's SIGTERM, a deadline), rather than at some later bytecode."""
    if ctypes.pythonapi.PyErr_CheckSignals() != 0:  # pragma: no cover - ctypes raises the error itself
        raise KeyboardInterrupt


class SatOracle(Protocol):
    """What we ask of a PySAT solver (``pysat.solvers.Solver``)."""

    def solve_limited(self, assumptions: Iterable[int] = ..., expect_interrupt: bool = ...) -> bool | None: ...

    def interrupt(self) -> None: ...

    def clear_interrupt(self) -> None: ...

    def add_clause(self, clause: Iterable[int], no_return: bool = ...) -> object: ...

    def get_model(self) -> list[int] | None: ...

    def get_core(self) -> list[int] | None: ...

    def set_phases(self, literals: Iterable[int] = ...) -> None: ...

    def delete(self) -> None: ...


def model_of(oracle: SatOracle) -> list[int]:
    """The model of ``oracle``'s last call, which was satisfiable."""
    model = oracle.get_model()
    if model is None:
        raise ValueError("the SAT solver's last call was not satisfiable: it has no model")
    return model


# -- native solvers that hold the GIL ------------------------------------------------------

_RUN: contextvars.ContextVar[Guard | None] = contextvars.ContextVar("pracmln_poss.stopping.run", default=None)
"""The :func:`stoppable` block running in this context: a block inside it joins its run
(faulthandler's registrations and the signals' handlers are the process's, one of each)."""

_SIGACTION_SIZE = 512  # more than any libc's struct sigaction (glibc's is 152 bytes)


@dataclass
class _Armed:
    """The handlers a native search runs under, set up at the first native search of a
    :func:`stoppable` block, and unregistered as the block ends (:func:`_disarm`).

    For each signal of :data:`SIGNALS`, ``actions`` holds the kernel's action of
    :mod:`faulthandler`'s handler registered for it with ``chain=True`` over the
    solver's (installed persistently first, so it is what faulthandler chains to): it
    writes the receiving thread's traceback to the signal's own file of ``records``,
    which tells which signals came, then calls the solver's handler.  The receiving
    thread's only (``all_threads=False``): walking every thread's state from a signal
    handler reads the interpreter's list of threads without its lock, and a thread
    state freed meanwhile crashed the process (SIGSEGV, about 1 in 100 Ctrl-Cs a few
    tenths of a second into ``map``); the main thread is the one that receives them
    (:func:`~pracmln_poss.startup.start_helper`), and always has a traceback to write.
    Neither is reset as it runs (a one-shot handler would leave the default action, and
    a second SIGTERM, which ``timeout`` sends to the process group as well, would kill
    the process unannounced)."""

    handler: int
    actions: dict[int, ctypes.Array[ctypes.c_char]]
    records: dict[int, IO[bytes]]
    libc: ctypes.CDLL


@functools.cache  # (the process's C library: looked for once)
def _libc() -> ctypes.CDLL | None:
    """The C library's ``signal`` and ``sigaction``, or None where it lacks them."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        install = libc.signal
        query = libc.sigaction
    except (OSError, AttributeError):  # pragma: no cover - no C library to call
        return None
    install.restype = ctypes.c_void_p
    install.argtypes = [ctypes.c_int, ctypes.c_void_p]
    query.restype = ctypes.c_int
    query.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
    return libc


def _action(libc: ctypes.CDLL, signum: int) -> ctypes.Array[ctypes.c_char]:
    """The kernel's action for ``signum`` now."""
    action = ctypes.create_string_buffer(_SIGACTION_SIZE)
    libc.sigaction(signum, None, action)
    return action


def _handler_of(action: ctypes.Array[ctypes.c_char]) -> int:
    """The address of the handler of a kernel's ``action`` (the first field of a
    ``struct sigaction``; 0 is SIG_DFL, 1 SIG_IGN)."""
    return ctypes.c_void_p.from_buffer(action).value or 0


_PROBES = range(signal.SIGRTMAX, signal.SIGRTMIN - 1, -1) if hasattr(signal, "SIGRTMAX") else range(0)
"""The signals a probe of Python's C handler may borrow for an instant: the real-time
ones, which nothing sends unasked, the last first."""


@functools.cache  # (one function of the interpreter: its address is looked for once)
def _python_c_handler(libc: ctypes.CDLL) -> int | None:
    """The address of Python's own C-level signal handler, what the kernel's action of a
    signal with a Python handler calls (None: no free signal to learn it from): found by
    setting a handler for an instant on a real-time signal no one handles."""
    for signum in _PROBES:
        if signal.getsignal(signum) is not signal.SIG_DFL or _handler_of(_action(libc, signum)) != 0:
            continue
        signal.signal(signum, _ignore)
        try:
            return _handler_of(_action(libc, signum))
        finally:
            signal.signal(signum, signal.SIG_DFL)
    return None  # pragma: no cover - every real-time signal taken


def _ignore(signum: int, frame: types.FrameType | None) -> None:
    """A Python handler that does nothing (the probe's)."""


def _foreign(action: ctypes.Array[ctypes.c_char], python_c: int | None) -> bool:
    """Whether the kernel's ``action`` calls a handler of neither Python nor the kernel's
    defaults: one a host program installed in C, such as :func:`faulthandler.register`'s
    (unknowable without ``python_c``: taken for none)."""
    handler = _handler_of(action)
    return python_c is not None and handler not in (0, 1, python_c)


def _arm(guard: Guard, handler: int) -> _Armed | None:
    """The actions of :class:`_Armed` for ``handler``, made at the guard's first native
    search; None where they cannot be had (another solver's handler armed already, or
    no C library to call)."""
    armed = guard.armed
    if armed is not None:
        return armed if armed.handler == handler else None
    libc = _libc()
    if libc is None:  # pragma: no cover - no C library to call
        return None
    python_c = _python_c_handler(libc)
    records: dict[int, IO[bytes]] = {}
    actions = {}
    for signum in SIGNALS:
        python = _action(libc, int(signum))
        if int(signum) in guard.hosts or _foreign(python, python_c):  # (a host's C handler: left to it)
            continue
        records[int(signum)] = tempfile.TemporaryFile()
        # (a registration faulthandler holds already, which Python's handler has replaced
        # since and no one knows of, would only change its file: the handler to chain to
        # must be installed under it)
        faulthandler.unregister(signum)
        libc.signal(int(signum), handler)
        try:
            faulthandler.register(signum, file=records[int(signum)], all_threads=False, chain=True)
        finally:
            actions[int(signum)] = _action(libc, int(signum))
            libc.sigaction(int(signum), python, None)
    guard.armed = _Armed(handler, actions, records, libc)
    return guard.armed


def _disarm(armed: _Armed) -> None:
    """Unregister faulthandler's handlers of ``armed``, the signals' actions left as they
    are (faulthandler would put back the solver's handler it chained to), and close its
    files: a later ``faulthandler.register`` of a program of its own installs its handler."""
    for signum, record in armed.records.items():
        action = _action(armed.libc, signum)
        faulthandler.unregister(signum)
        armed.libc.sigaction(signum, action, None)
        record.close()


@dataclass
class NativeRun:
    """What :meth:`Guard.native` saw: the signals that stopped the search (empty: none)."""

    signals: list[int] = field(default_factory=list)


# -- a time limit --------------------------------------------------------------------------

MAX_TIME_LIMIT = 1e9
"""The longest time limit, in seconds (31 years; the interval timer refuses from about 9.2e9)."""


AGAIN = 0.1
"""Seconds between two alarms once a time limit has passed: while pracmln's code runs
(its parser, its grounding, its WCSP inference), whose bare ``except`` clauses catch the
exception of the first and go on, each raises it again; elsewhere it is on its way out."""


def _inside_pracmln(frame: types.FrameType | None) -> bool:
    """Whether ``frame`` or a frame below it runs pracmln's code."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name == "pracmln" or name.startswith("pracmln."):
            return True
        frame = frame.f_back
    return False




def _give_back_timer(held: tuple[float, float], elapsed: float) -> None:
    """Set the interval timer a deadline replaced (``held``: its time left then, and its
    interval) running again, ``elapsed`` seconds on; one that fell due meanwhile goes
    off at once, to the handler given back (held back, not lost)."""
    left, interval = held
    if left > 0:
        signal.setitimer(signal.ITIMER_REAL, max(left - elapsed, _AT_ONCE), interval)


_AT_ONCE = 1e-6
"""The time left of a timer that fell due while a deadline held it (0 would stop it)."""


def _alarm(guard: Guard, passed: TimeLimitReached) -> Callable[[int, types.FrameType | None], None]:
    """The SIGALRM handler of a :meth:`Guard.deadline`: it raises ``passed``, kept by the
    guard; again, at later alarms (:data:`AGAIN`), while pracmln's code runs or if a
    finalizer swallowed it (:meth:`Guard.again`)."""
    fired = [False]

    def reached(signum: int, frame: types.FrameType | None) -> None:
        if importing(frame):  # (raised inside an import, it would break the module: the next alarm)
            return
        if not fired[0]:
            fired[0] = True
            raise guard.expire(passed)  # (no signal to send again: the alarm comes every AGAIN seconds)
        guard.again()
        if _inside_pracmln(frame):  # (again: pracmln's code caught it and went on)
            raise passed

    return reached


def _came(armed: _Armed) -> list[int]:
    """The signals whose faulthandler's handler wrote to its file of ``armed`` since it
    was last asked (their files emptied)."""
    came = []
    for signum, record in armed.records.items():
        if os.lseek(record.fileno(), 0, os.SEEK_END):
            came.append(signum)
            os.ftruncate(record.fileno(), 0)
            os.lseek(record.fileno(), 0, os.SEEK_SET)
    return came
