"""The command line as a process: it runs one command, and turns what ends it (an error, a
signal, a broken pipe) into one line on stderr and its exit status."""

from __future__ import annotations

__all__ = ["main"]

import argparse
import errno
import os
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from typing import TYPE_CHECKING, TextIO

from ..collector import Freezer
from ..errors import OutputError, PossError, PossWarning, SourcePosition, TimeLimitReached
from ..startup import PROG, importing, is_command_line, is_python_handler, later, unnoted
from ..startup import interrupted as interrupted_at_start
from ..stopping import INTERRUPTS, Guard, Taken, interrupted, stoppable, take
from .convert_command import _checkpoint_path, _no_checkpoint, run_convert
from .parser import _one_standard_input, _positional_back, build_parser

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    from types import FrameType


class _Terminated(KeyboardInterrupt):
    """A signal that ends the command (SIGTERM, SIGHUP), handled as an interrupt is: the
    checkpoint saved, the workers stopped."""

    signum: int

    def __init__(self, signum: int | _Terminated) -> None:
        # (pracmln's temporary_evidence re-raises an exception as its type called with
        # the exception itself: the signal is the one that exception carries)
        number: int = signum.signum if isinstance(signum, _Terminated) else signum
        super().__init__(number)
        self.signum = number


class _Ending:
    """One command's handler of SIGTERM, SIGHUP (and Ctrl-C: as ``KeyboardInterrupt``):
    it stops the command, once (``timeout`` sends its SIGTERM twice, to the process and to
    its group, and a second one must not break into the first one's way out).

    :ivar came: what the signal that ends the command raised (None: none came).
    :ivar guard: the command's run, which keeps what the handler raised (None: before it starts).
    """

    def __init__(self) -> None:
        self.came: KeyboardInterrupt | None = None
        self.guard: Guard | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.came is not None:
            if self.guard is not None:  # (a finalizer swallowed it, and the guard sent the signal again)
                self.guard.again()
            return
        if importing(frame):  # (a library's import broken into: the signal again once it is over)
            later(signum)
            return
        self.came = KeyboardInterrupt() if signum == signal.SIGINT else _Terminated(signum)
        # (kept: a solve started after a swallowed one raises it again)
        raise self.came if self.guard is None else self.guard.expire(self.came, signum)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``argv``: the words after the program's name; None: the
    process's own); returns the exit status."""
    args = argparse.Namespace()  # (the run's, once parsed: inside, a Ctrl-C while the parser runs is one line too)
    ending = _Ending()
    taken = [take(signum, ending) for signum in _handled()]
    try:
        args = _parsed(argv)
        noted = interrupted_at_start()  # (a signal noted inside an import, before the handlers above)
        if noted is not None:
            raise KeyboardInterrupt if noted == signal.SIGINT else _Terminated(noted)
        with warnings.catch_warnings(), Freezer(give_back=not is_command_line()) as args.freezer:
            _warnings_in_one_line()
            if sys.stdout is None and not (args.run is run_convert and args.output is not None):
                raise OutputError("standard output is closed; give -o FILE or redirect it",
                                  SourcePosition("<stdout>"))
            with stoppable(t.signum for t in taken if t.host is not None) as args.guard:
                ending.guard = args.guard  # (after the block it keeps nothing that matters)
                if ending.came is not None:  # (raised before the run had a guard, and swallowed by a finalizer)
                    raise ending.came
                status: int = args.run(args)
            _flush_stdout()
        return status
    except TimeLimitReached as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 3
    except PossError as exc:  # (a refused final write: the search's work is kept)
        print(f"{PROG}: error: {exc}{_resume_hint(args) if isinstance(exc, OutputError) else ''}", file=sys.stderr)
        if isinstance(exc, OutputError) and exc.position is not None and exc.position.file == "<stdout>":
            _drop_stdout()
        return 2
    except _Terminated as exc:
        print(f"{PROG}: terminated by {signal.Signals(exc.signum).name}{_resume_hint(args)}", file=sys.stderr)
        return 128 + exc.signum
    except INTERRUPTS as exc:  # (Ctrl-C inside a SAT call arrives as PySAT's error)
        if not interrupted(exc):
            raise
        print(f"{PROG}: interrupted{_resume_hint(args)}", file=sys.stderr)
        return 130
    except BrokenExecutor:
        print(f"{PROG}: error: a worker process ended unexpectedly (killed, or out of memory?){_resume_hint(args)}",
              file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{PROG}: error: out of memory (a smaller k, domain or focus needs less){_resume_hint(args)}",
              file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if exc.errno in _OUTPUT_ERRNOS:
            print(f"{PROG}: error: cannot write to standard output: {exc.strerror or exc}", file=sys.stderr)
            _drop_stdout()
            return 2
        return _signalled(exc, args, ending.came)
    except UnicodeEncodeError as exc:
        return _unencodable(exc) if _of_stdout(exc) else _signalled(exc, args, ending.came)
    except Exception as exc:
        return _signalled(exc, args, ending.came)
    finally:
        _give_back(taken, ending.came is not None and argv is None)


def _give_back(taken: list[Taken], ended: bool) -> None:
    """The signals' handlers the command took over, given back (``ended``: the process's
    own command line ends by a signal, and a second one is let go, to its exit status;
    the interpreter's shutdown would reset a handler, not this)."""
    for took in taken:
        took.give_back(signal.SIG_IGN if ended else unnoted(took.signum, took.previous))


def _parsed(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command's arguments (its parser says what is wrong with them, and exits)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    command = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[args.command]
    if extra:  # (the command's own parser knows its options: it names the closest)
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    _positional_back(command, args)
    _one_standard_input(command, args)
    return args


def _handled() -> list[signal.Signals]:
    """The signals the command handles: SIGTERM and SIGHUP unless the process inherits
    them ignored (as nohup ignores SIGHUP), and Ctrl-C unless a program of its own
    handles it; none outside the main thread."""
    # (Ctrl-C is taken over whatever else is ignored: left to start-up's handler, which only
    # notes it, a Ctrl-C with SIGTERM and SIGHUP both ignored stopped a solve that was asked again)
    if threading.current_thread() is not threading.main_thread():
        return []
    handled = [signum for signum in (signal.SIGTERM, signal.SIGHUP) if signal.getsignal(signum) is not signal.SIG_IGN]
    if is_python_handler(signal.getsignal(signal.SIGINT)):
        handled.append(signal.SIGINT)
    return handled


def _warnings_in_one_line() -> None:
    """Our warnings shown in one line, as errors are (inside ``warnings.catch_warnings()``,
    which puts the process's way back)."""
    shown = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        if issubclass(category, PossWarning):
            print(f"{PROG}: warning: {message}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


def _signalled(exc: Exception, args: argparse.Namespace, came: KeyboardInterrupt | None) -> int:
    """After a signal that stopped the command (``came``: what it raised), the status and
    line of that signal, whatever error a library made of its exception (numpy,
    interrupted while it is imported, raises ``ImportError``); else ``exc`` goes on."""
    if isinstance(came, _Terminated):
        print(f"{PROG}: terminated by {signal.Signals(came.signum).name}{_resume_hint(args)}", file=sys.stderr)
        return 128 + came.signum
    if isinstance(came, KeyboardInterrupt):
        print(f"{PROG}: interrupted{_resume_hint(args)}", file=sys.stderr)
        return 130
    raise exc


_OUTPUT_ERRNOS = frozenset({errno.EFBIG, errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT})
"""What a print to a cut standard output raises (a size limit, a full disk, a closed
descriptor): an error of the output, not a traceback."""


def _unencodable(exc: UnicodeEncodeError) -> int:
    """Say which character standard output's encoding refused, and how to write it."""
    print(f"{PROG}: error: standard output's encoding ({exc.encoding}) cannot write "
          f"{ascii(exc.object[exc.start:exc.end])}: set PYTHONIOENCODING=utf-8 (or a locale that can)",
          file=sys.stderr)
    _drop_stdout()
    return 2


def _of_stdout(exc: UnicodeEncodeError) -> bool:
    """Whether ``exc`` is standard output's encoding refusing a character (a name such
    as ``Zoë`` under ``PYTHONIOENCODING=ascii``): every file we write is UTF-8."""
    import codecs

    encoding = getattr(sys.stdout, "encoding", None)
    try:
        return encoding is not None and codecs.lookup(encoding).name == codecs.lookup(exc.encoding).name
    except LookupError:
        return False


def _drop_stdout() -> None:
    """After standard output failed: what is still buffered goes nowhere (the interpreter's
    own flush at exit would fail again, print a traceback and end with status 120)."""
    try:
        fd = sys.stdout.fileno() if sys.stdout is not None else -1
    except (AttributeError, OSError, ValueError):
        return  # (not a file: a caller's capture)
    if fd >= 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


def _flush_stdout() -> None:
    """Flush what the command printed; a failure is an error, not exit 0 with less."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _resume_hint(args: argparse.Namespace) -> str:
    """Where a stopped conversion's finished work is, when it is kept."""
    from ..search.checkpoint import is_checkpoint

    if getattr(args, "run", None) is run_convert and args.output is not None and not _no_checkpoint(args) \
            and is_checkpoint(_checkpoint_path(args.output)):
        return f"; the finished work is in {_checkpoint_path(args.output)}: run the same command again to resume"
    return ""
