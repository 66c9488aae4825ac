"""The command line's first tenths of a second: a Ctrl-C while its modules are imported
ends it as a Ctrl-C does later, with one line and status 130, not a traceback; SIGTERM
and SIGHUP, with one line and 128 + their number (not a silent death).

Python raises ``KeyboardInterrupt`` wherever the import is when Ctrl-C comes, and a
library may catch it and print a traceback (pracmln's bare excepts), or make it an error
of its own (numpy, interrupted inside its C part, raises ``ImportError``; a pybind11
module fails for good).  So, only when this process is the command line (a library's
importer keeps Python's own handling), the package's ``__init__`` replaces Python's
Ctrl-C handler from its first line, before it imports anything but this module (which
imports nothing the interpreter has not loaded as it starts), with one that only notes
it (:func:`note_interrupts`),
and the package, ``__main__`` and the command line end the process when one was noted
(:func:`end_interrupted`), each once its own imports are done.  The command line's own
handler then takes over (:mod:`pracmln_poss.cli` takes the noting handler for Python's:
:func:`is_python_handler`); a signal that finds it inside an import (a module the
command imports when it needs it) comes again once the import is over
(:func:`importing`, :func:`later`)."""

from __future__ import annotations

__all__ = ["PROG", "RETRY", "is_command_line", "note_interrupts", "interrupted", "is_python_handler", "importing", "later",
           "end_if_interrupted", "end_interrupted", "start_helper", "to_main_thread", "unnoted"]

import os
import sys

TYPE_CHECKING = False  # (mypy takes it as typing's: the names below are read by it only)
if TYPE_CHECKING:  # (this module runs first: its imports are the window a Ctrl-C is not noted in)
    import signal
    from threading import Thread
    from types import FrameType
    from typing import NoReturn
else:  # (the interpreter's own, loaded as it starts: ``signal`` makes its enums first, 0.5 ms)
    import _signal as signal

PROG = "pracmln-poss"
"""The command line's name, in its messages."""


def is_command_line() -> bool:
    """Whether this process is the command line: the ``pracmln-poss`` script, or
    ``python -m pracmln_poss``."""
    if sys.argv and os.path.basename(sys.argv[0]) in (PROG, PROG + ".exe"):
        return True
    words = getattr(sys, "orig_argv", [])
    for i, word in enumerate(words[:-1]):
        if word == "-m":
            return words[i + 1] in ("pracmln_poss", "pracmln_poss.__main__")
    return False


class _Noted:
    """The command line's handler of Ctrl-C, SIGTERM and SIGHUP while it starts: it notes
    the first that came (:attr:`came`: its number; None: none)."""

    def __init__(self) -> None:
        self.came: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        # only noted: raised, it would land inside an import (see importing()); the
        # package, ``__main__`` and the command line look at it as each is in place
        if self.came is None:
            self.came = signum


_NOTED = _Noted()

RETRY = 0.05
"""Seconds after which a signal that came inside an import comes again (:func:`later`)."""


def importing(frame: FrameType | None) -> bool:
    """Whether a signal handler's ``frame`` is inside an import.  An exception raised
    there leaves a module half-run, and its library may catch it and print a traceback
    (pracmln's bare excepts) or fail for good (a pybind11 module: "initialization
    failed", then "type already registered"): a handler that stops the command waits
    until the import is over."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def later(signum: int) -> None:
    """Send ``signum`` to this process's main thread again in :data:`RETRY` seconds (from
    a thread of its own: the handler that calls it returns at once)."""
    import threading  # (not before: this module is the first to run)

    timer = threading.Timer(RETRY, to_main_thread, (signum,))
    timer.daemon = True
    start_helper(timer)


def to_main_thread(signum: int) -> None:
    """Send ``signum`` to this process's main thread, where its handler runs.  Not to the
    process: the kernel may hand that to any thread that does not block it (a host
    program's, a library's: a Dask client keeps one), where the C-level handlers that
    expect the main thread run (:func:`start_helper`)."""
    import threading

    signal.pthread_kill(threading.main_thread().ident or 0, signum)


def start_helper(thread: Thread) -> None:
    """Start ``thread`` with every signal blocked in it, so that the kernel gives the
    process's signals to the main thread only.

    Why: the C-level handlers that run where a signal lands expect the main thread.
    PySAT's (a solve outside :func:`~pracmln_poss.stopping.stoppable`, a totalizer
    growing) ``longjmp`` back into the main thread's stack, which from another thread's
    stack is undefined; faulthandler's, during a native search
    (:meth:`~pracmln_poss.stopping.Guard.native`), writes the receiving thread's traceback.
    The kernel may hand a signal to any thread that does not block it (Linux: another
    one when the main thread already has one pending and is not on a CPU).  The new
    thread takes its mask from this one, blocked for the moment of the start (a signal
    coming then waits, and is this thread's when unblocked).

    The mask is read first, unchanged: ``pthread_sigmask`` runs the Python handlers of
    the signals that came once it has changed the mask, so a handler that raises from
    the call that blocks them all would leave this thread blocking every signal for
    good, had that call been the one to return the mask to give back."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
        thread.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def note_interrupts() -> None:
    """From now until the command line installs its own handlers, note every Ctrl-C
    (where Python's own handler is in place: not where it is ignored), SIGTERM and
    SIGHUP (where they would end the process: not where they are ignored), so that one
    in the first tenths of a second ends the command with its line, as later."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _NOTED)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _NOTED)


def interrupted() -> int | None:
    """The signal that came first while noted (None: none)."""
    return _NOTED.came


def is_python_handler(handler: object) -> bool:
    """Whether ``handler`` is Python's own Ctrl-C handler, noting or not (the command line
    replaces it with its own, and puts it back)."""
    return handler is signal.default_int_handler or handler is _NOTED


def unnoted(signum: int, handler: signal._HANDLER) -> signal._HANDLER:
    """The handler to give ``signum`` back once the command line has run: start-up's
    noting one gives way to Python's own (a signal during the interpreter's shutdown,
    which may wait for threads, must still end it)."""
    if handler is not _NOTED:
        return handler
    return signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL


def end_if_interrupted() -> None:
    """End the process (:func:`end_interrupted`) if a signal was noted."""
    if _NOTED.came is not None:
        end_interrupted(_NOTED.came)


def end_interrupted(signum: int = signal.SIGINT) -> NoReturn:
    """Say so on standard error and end the process with the status of ``signum``
    (130 for Ctrl-C, 128 + its number for SIGTERM and SIGHUP), as the command line does.

    It ends at once (``os._exit``, after flushing the standard streams; nothing of the
    command has run yet): an interrupt that went through Python code a C extension ran
    during its import is marked unhandled, and Python would end the process by SIGINT at
    exit, whatever status it was given (seen: one start in three)."""
    name = "SIGTERM" if signum == signal.SIGTERM else "SIGHUP"  # (``_signal`` has no enum of names)
    print(f"{PROG}: interrupted" if signum == signal.SIGINT else f"{PROG}: terminated by {name}", file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # (a closed or broken stream: nothing more to say)
            pass
    os._exit(128 + signum)
