"""Writing files safely: :func:`check_writable` before the work (never onto an input),
:func:`atomic_write` and :func:`save` after it (a temporary file renamed into place, so
an error or an interrupt never leaves a partial output file)."""

from __future__ import annotations

__all__ = ["check_writable", "atomic_write", "save"]

import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ..errors import OutputError, SourcePosition
from ..possibilistic.protocol import Theory
from .codec import dumps


def check_writable(path: str | os.PathLike[str], inputs: Mapping[str, str | os.PathLike[str]] | None = None) -> None:
    """Refuse, before any work, an output :func:`atomic_write` would refuse at the end
    (an empty name, a directory, a device, a missing directory), or one that is the same
    file as one of ``inputs`` (what each is -> its path; links followed).

    :raises OutputError: naming the path.
    """
    shown = os.fspath(path)
    if not shown:
        raise OutputError("the output file name is empty", SourcePosition("''"))
    if shown.endswith(("/", os.sep)):
        raise OutputError("names a directory; give a file name", SourcePosition(shown))
    _existing_mode(path)
    for what, source in (inputs or {}).items():
        if _same_file(path, source):
            raise OutputError(f"is {what} of this command (the same file as {os.fspath(source)}); refusing to "
                              "replace it", SourcePosition(shown))
    parent = Path(os.path.realpath(path)).parent
    if not parent.is_dir():
        raise OutputError(f"no such directory: {parent}", SourcePosition(shown))
    if not os.access(parent, os.W_OK):
        raise OutputError(f"cannot write in {parent}: permission denied", SourcePosition(shown))


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether both paths name one existing file (by device and inode, links followed)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _existing_mode(path: str | os.PathLike[str]) -> int | None:
    """The mode of the regular file at ``path`` (None: there is none); refuses the rest."""
    shown = os.fspath(path)
    try:
        info = Path(os.path.realpath(path)).stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror}", SourcePosition(shown)) from None
    if stat.S_ISDIR(info.st_mode):
        raise OutputError("is a directory; give a file name", SourcePosition(shown))
    if not stat.S_ISREG(info.st_mode):
        raise OutputError("is not a regular file (a FIFO or a device?); refusing to replace it",
                          SourcePosition(shown))
    return stat.S_IMODE(info.st_mode)


def atomic_write(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` all at once: a temporary file renamed into place.

    A symlink is written through (its target is replaced); anything else that is not a
    regular file (a directory, a FIFO, a device) is refused.  A new file gets the mode a
    plain ``open()`` gives it (umask applied); a replaced file keeps its mode.

    :raises OutputError: naming the path, when it cannot be written.
    """
    shown = os.fspath(path)
    target = Path(os.path.realpath(path))
    mode = _existing_mode(path)
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except FileNotFoundError:
        raise OutputError(f"no such directory: {target.parent}", SourcePosition(shown)) from None
    except OSError as exc:
        raise OutputError(f"cannot write in {target.parent}: {exc.strerror}", SourcePosition(shown)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):  # a full disk, a quota: one line, nothing left behind
            raise OutputError(f"cannot write it: {exc.strerror or exc}", SourcePosition(shown)) from None
        raise


def save(theory: Theory, path: str | os.PathLike[str], fmt: str = "text") -> None:
    """Write the theory to ``path`` atomically."""
    atomic_write(path, dumps(theory, fmt))
