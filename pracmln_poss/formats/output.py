"""Writing files safely: :func:`check_writable` before the work (never onto an input),
:func:`atomic_write` and :func:`save` after it (a temporary file renamed into place, so
an error or an interrupt never leaves a partial output file, and the place checked
again at the rename, so a link made meanwhile never lands the output on an input);
:func:`write_stdout` for standard output (a short write is an error, not a cut file)."""

from __future__ import annotations

__all__ = ["Destination", "check_writable", "atomic_write", "save", "write_stdout", "sibling_name"]

import hashlib
import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..errors import OutputError, SourcePosition
from ..possibilistic.protocol import Theory
from .codec import dumps

_NAME_MAX = 255
"""The longest file name (one path component) we make; every common file system takes it."""


@dataclass(frozen=True)
class Destination:
    """An output path as :func:`check_writable` found it before the work: what it was
    (a link's target, or None) and the files it must never be (by device and inode)."""

    path: str
    link: str | None
    inputs: tuple[tuple[str, str, tuple[int, int]], ...]
    """(what, path, (device, inode)) of every input of the command."""


def _identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """The device and inode of the file ``path`` names (links followed); None: none."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def _link(path: str | os.PathLike[str]) -> str | None:
    try:
        return os.readlink(path)
    except (OSError, ValueError):
        return None


def check_writable(path: str | os.PathLike[str],
                   inputs: Mapping[str, str | os.PathLike[str]] | Iterable[tuple[str, str | os.PathLike[str]]]
                   | None = None) -> Destination:
    """Refuse, before any work, an output :func:`atomic_write` would refuse at the end
    (an empty name, a directory, a device, a missing directory), or one that is the same
    file as one of ``inputs`` (what each is -> its path, or such pairs; links followed).

    :returns: what to hand :func:`atomic_write`, which checks the place again at the rename.
    :raises OutputError: naming the path.
    """
    shown = os.fspath(path)
    if not shown:
        raise OutputError("the output file name is empty", SourcePosition("''"))
    if shown.endswith(("/", os.sep)):
        raise OutputError("names a directory; give a file name", SourcePosition(shown))
    _existing_mode(path)
    known = []
    for what, source in (inputs.items() if isinstance(inputs, Mapping) else inputs or ()):
        identity = _identity(source)
        if identity is not None and identity == _identity(path):
            raise OutputError(f"is {what} of this command (the same file as {os.fspath(source)}); refusing to "
                              "replace it", SourcePosition(shown))
        if identity is not None:
            known.append((what, os.fspath(source), identity))
    parent = Path(os.path.realpath(path)).parent
    if not parent.is_dir():
        raise OutputError(f"no such directory: {parent}", SourcePosition(shown))
    if not os.access(parent, os.W_OK):
        raise OutputError(f"cannot write in {parent}: permission denied", SourcePosition(shown))
    return Destination(shown, _link(path), tuple(known))


def _recheck(destination: Destination, target: Path) -> None:
    """Refuse the rename when the place changed under the run: a link made (or
    re-pointed) at the output, or the target now one of the inputs."""
    shown = destination.path
    now = _link(shown)
    if now != destination.link:
        raise OutputError(f"became a link to {now} while the command ran; refusing to write through it (the "
                          "theory was not written; remove the link and run again)" if now is not None else
                          "was a link when the command started and is not any more; refusing to write (run again)",
                          SourcePosition(shown))
    identity = _identity(target)
    for what, source, known in destination.inputs:
        if identity == known:
            raise OutputError(f"is now {what} of this command (the same file as {source}); refusing to replace it",
                              SourcePosition(shown))


def sibling_name(name: str, tag: str) -> str:
    """A file name beside ``name`` for ``tag`` (``.checkpoint``, a temporary): ``name +
    tag`` when that fits in a file name, else ``name`` shortened with a digest of it, so
    that an output name of 250 characters still has its own."""
    if len((name + tag).encode()) <= _NAME_MAX:
        return name + tag
    digest = hashlib.sha256(name.encode()).hexdigest()[:12]
    head = name.encode()[: _NAME_MAX - len(tag.encode()) - len(digest) - 1].decode("utf-8", "ignore")
    return f"{head}~{digest}{tag}"


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


def atomic_write(path: str | os.PathLike[str] | Destination, text: str) -> None:
    """Write ``text`` to ``path`` all at once: a temporary file renamed into place.

    A symlink is written through (its target is replaced); anything else that is not a
    regular file (a directory, a FIFO, a device) is refused.  Given what
    :func:`check_writable` returned, the place is checked again just before the rename:
    a link made or changed meanwhile, or a target that is now an input, is refused.  A
    new file gets the mode a plain ``open()`` gives it (umask applied); a replaced file
    keeps its mode.

    :raises OutputError: naming the path, when it cannot be written.
    """
    destination = path if isinstance(path, Destination) else None
    shown = path.path if isinstance(path, Destination) else os.fspath(path)
    target = Path(os.path.realpath(shown))
    mode = _existing_mode(shown)
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        # (mkstemp adds 8 random characters to the prefix: the whole name must fit)
        prefix = sibling_name("." + target.name, ".12345678.tmp")[: -len("12345678.tmp")]
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
    except FileNotFoundError:
        raise OutputError(f"no such directory: {target.parent}", SourcePosition(shown)) from None
    except OSError as exc:
        raise OutputError(f"cannot write in {target.parent}: {exc.strerror}", SourcePosition(shown)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        if destination is not None:
            target = Path(os.path.realpath(shown))
            _recheck(destination, target)
        os.replace(tmp, target)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):  # a full disk, a quota: one line, nothing left behind
            raise OutputError(f"cannot write it: {exc.strerror or exc}", SourcePosition(shown)) from None
        raise


def save(theory: Theory, path: str | os.PathLike[str], fmt: str = "text", made_by: str | None = None) -> None:
    """Write the theory to ``path`` atomically (``made_by``: how it was made, :func:`~.codec.dumps`)."""
    atomic_write(path, dumps(theory, fmt, made_by))


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output, all of it or an error.

    (Python's own buffered writer takes a short write, which a file-size limit gives,
    as done: the output would be cut and the command end well.)

    :raises OutputError: when standard output is closed or cannot take the text.
    """
    where = SourcePosition("<stdout>")
    stream = sys.stdout
    if stream is None:
        raise OutputError("standard output is closed; give -o FILE or redirect it", where)
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        stream.write(text)  # (not a file: captured by a caller)
        return
    try:
        stream.flush()
        view = memoryview(text.encode(stream.encoding or "utf-8", "strict"))
        while view:
            written = os.write(fd, view)
            if written <= 0:
                raise OSError(0, "nothing written")
            view = view[written:]
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write to standard output: {exc.strerror or exc}", where) from None
