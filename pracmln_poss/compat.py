"""Importing pracmln 1.2.4 on Python 3.11 to 3.13, with or without tkinter.

pracmln and its dependency dnutils are unmaintained and fail to import on current
Pythons; we never touch their installed files, we prepare the interpreter before the
first import instead:

- pracmln's package ``__init__`` imports its Tk GUIs.  On Python >= 3.10,
  ``pracmln.mlnquery`` imports ``StringVar`` from ``tkinter.filedialog``, which no
  longer re-exports it: we give ``tkinter.filedialog`` the missing name.  On Pythons
  built without tkinter the import fails outright: we register inert stand-in modules
  that satisfy the GUI imports (the GUIs are never used by this package).
- dnutils 0.3.14 (its latest release) carries a copy of Python 3.6's ``threading``
  that reads ``_thread._set_sentinel``, removed in Python 3.13: we provide it
  (:func:`_set_sentinel`), with the meaning it had.
- pracmln binds ``sys.stdout.buffer`` as a default argument at import time; a
  notebook's ``sys.stdout`` (Jupyter's ``OutStream``) has no ``buffer``: we give it
  one that writes the bytes, decoded, to the stream.
- pracmln logs through dnutils, whose one console handler writes its own lines to
  stderr (``2026-11-28 04:29:49 - WARNING  - ...``).  On the command line the handler
  gives each record as a :class:`~pracmln_poss.errors.PracmlnWarning` instead, which
  the command line prints as one line of its own; a record saying what our own checks
  say better (``SAID_BY_US``) is dropped.  From Python, pracmln logs as it does.
"""

from __future__ import annotations

__all__ = ["import_pracmln", "pracmln_available", "prepare_import"]

import _thread
import importlib
import io
import logging
import re
import signal
import sys
import threading
import types
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, TextIO

from . import startup
from .errors import DependencyError, PracmlnWarning

if TYPE_CHECKING:
    from typing_extensions import Buffer  # (collections.abc.Buffer from Python 3.12)

_TK_MODULES = (
    "tkinter",
    "tkinter.filedialog",
    "tkinter.messagebox",
    "tkinter.simpledialog",
    "tkinter.constants",
    "tkinter.font",
    "tkinter.ttk",
    "_tkinter",
)


class _Inert:
    """Stand-in for any Tk class or function: accepts everything, does nothing."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __call__(self, *args: object, **kwargs: object) -> _Inert:
        return self

    def __getattr__(self, name: str) -> _Inert:
        return self


def _stub_module(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__["__all__"] = []  # `from tkinter import *` binds nothing

    def __getattr__(attr: str) -> object:
        if attr.startswith("__"):
            raise AttributeError(attr)
        if attr.isupper():
            return attr.lower()  # constants such as END, LEFT
        return type(attr, (_Inert,), {})

    setattr(module, "__getattr__", __getattr__)  # noqa: B010 (a module-level __getattr__, PEP 562)
    module.__path__ = []  # a package, so submodule imports resolve to stubs
    return module


def _prepare_tkinter() -> None:
    try:
        import tkinter
        import tkinter.filedialog
    except ImportError:
        for name in _TK_MODULES:
            sys.modules.setdefault(name, _stub_module(name))
        return
    if not hasattr(tkinter.filedialog, "StringVar"):
        # pracmln imports StringVar from filedialog, which no longer has it (typeshed agrees)
        tkinter.filedialog.StringVar = tkinter.StringVar  # type: ignore[attr-defined]


class _Releaser:
    """Releases a thread's sentinel lock when the thread's local data is freed."""

    def __init__(self, lock: _thread.LockType) -> None:
        self.lock = lock

    def __del__(self) -> None:
        if self.lock.locked():
            self.lock.release()


_THREAD_DATA = _thread._local()


def _set_sentinel() -> _thread.LockType:
    """Python < 3.13's ``_thread._set_sentinel``: a new lock that is released when the
    calling thread ends.  The interpreter frees a thread's ``_thread._local`` data when
    the thread state goes away, which is when it released the old sentinel."""
    lock = _thread.allocate_lock()
    _THREAD_DATA.releaser = _Releaser(lock)
    return lock


def _prepare_dnutils() -> None:
    if not hasattr(_thread, "_set_sentinel"):
        # pracmln's dnutils calls _thread._set_sentinel, gone from Python 3.13 (and typeshed)
        _thread._set_sentinel = _set_sentinel  # type: ignore[attr-defined]


class _TextBuffer(io.RawIOBase):
    """A binary ``buffer`` for a text stream that has none: bytes written go to it as text."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def writable(self) -> bool:
        return True

    def write(self, data: Buffer) -> int:
        chunk = bytes(data)
        self.stream.write(chunk.decode("utf-8", "replace"))
        return len(chunk)


def _prepare_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not hasattr(stream, "buffer"):
            try:
                setattr(stream, "buffer", _TextBuffer(stream))  # noqa: B010 (TextIO types it read-only)
            except AttributeError:  # (a stream that takes no attributes: pracmln then fails as it would)
                pass


SAID_BY_US = (re.compile(r"^Template variants cannot be constructed since the domain .* is empty"),)
"""pracmln's log messages our own checks say better, with file and line (a domain
without constants: :mod:`~pracmln_poss.model.grounding`)."""


def _prepare_logs() -> None:
    if not startup.is_command_line():
        return
    logs = importlib.import_module("dnutils.logs")  # (pracmln's first import would import it next)

    def emit(record: logging.LogRecord) -> None:
        message = record.getMessage()
        if record.levelno >= logging.WARNING and not any(p.search(message) for p in SAID_BY_US):
            warnings.warn(PracmlnWarning(f"pracmln: {message}"), stacklevel=2)

    logs.colored_console.emit = emit


def prepare_import() -> None:
    """Make the interpreter ready for ``import pracmln`` (idempotent)."""
    _prepare_tkinter()
    _prepare_dnutils()
    _prepare_streams()
    _prepare_logs()


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C back until the block is done, then raise it: pracmln's import runs
    code with bare ``except:`` clauses that would swallow the interrupt (and the run
    would go on)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hits: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: hits.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if hits:
        raise KeyboardInterrupt


@cache
def import_pracmln() -> types.ModuleType:
    """Import and return the :mod:`pracmln` package.

    :raises DependencyError: when pracmln is not installed or fails to import.
    """
    prepare_import()
    try:
        # not under redirect_stdout: pracmln binds sys.stdout.buffer as a default
        # argument at import time
        with _interrupts_deferred():
            module = importlib.import_module("pracmln")
    except ImportError as exc:
        raise DependencyError(
            f"pracmln cannot be imported ({exc}); install it with "
            "`python tools/install_pracmln.py` (see README)"
        ) from exc
    return module


def pracmln_available() -> bool:
    """Whether pracmln can be imported here (without raising)."""
    try:
        import_pracmln()
    except DependencyError:
        return False
    return True
