"""The command line's first tenths of a second: a Ctrl-C while its modules are imported
ends it as a Ctrl-C does later, with one line and status 130, not a traceback.

Python raises ``KeyboardInterrupt`` wherever the import is when Ctrl-C comes, before any
handler of the command line exists, and a library may make it an error of its own (numpy,
interrupted inside its C part, raises ``ImportError``).  So, only when this process is
the command line (a library's importer keeps Python's own handling), the package's
``__init__`` notes a Ctrl-C from its first line (:func:`note_interrupts`) and, when the
import fails after one, ends the process here (:func:`end_interrupted`); ``__main__``
does the same around the command line's own imports and until the command line's own
handler is in place (:mod:`pracmln_poss.cli` takes the noting handler for Python's:
:func:`is_python_handler`)."""

from __future__ import annotations

__all__ = ["PROG", "is_command_line", "note_interrupts", "interrupted", "is_python_handler", "end_interrupted"]

import os
import signal
import sys

TYPE_CHECKING = False  # (mypy takes it as typing's: the types below are read by it only)
if TYPE_CHECKING:  # (this module runs first: its imports are the window a Ctrl-C is not noted in)
    from types import FrameType
    from typing import NoReturn

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
    """Python's Ctrl-C handler, noting that it ran."""

    def __init__(self) -> None:
        self.came = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.came = True
        raise KeyboardInterrupt


_NOTED = _Noted()


def note_interrupts() -> None:
    """From now until :func:`release`, note every Ctrl-C (where Python's own handler is
    in place: not where it is ignored)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _NOTED)


def interrupted() -> bool:
    """Whether a Ctrl-C came while noted."""
    return _NOTED.came


def is_python_handler(handler: object) -> bool:
    """Whether ``handler`` is Python's own Ctrl-C handler, noting or not (the command line
    replaces it with its own, and puts it back)."""
    return handler is signal.default_int_handler or handler is _NOTED


def end_interrupted() -> NoReturn:
    """Say so on standard error and end the process with the status of an interrupt (130).

    It ends at once (``os._exit``, after flushing the standard streams; nothing of the
    command has run yet): an interrupt that went through Python code a C extension ran
    during its import is marked unhandled, and Python would end the process by SIGINT at
    exit, whatever status it was given (seen: one start in three)."""
    print(f"{PROG}: interrupted", file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # (a closed or broken stream: nothing more to say)
            pass
    os._exit(130)
