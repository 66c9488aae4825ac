"""Reading line-oriented input files with a position for every line.

Every reader of ours (``.db`` files, evidence families, theory files) works line by
line after removing ``//`` and ``/* */`` comments, and names ``file:line: text`` in its
errors; this is that shared part.
"""

from __future__ import annotations

__all__ = ["STANDARD_INPUT", "read_source", "read_bytes", "open_regular", "decode_text", "numbered_lines", "load_json",
           "MAX_INPUT_BYTES", "MAX_JSON_DEPTH"]

import itertools
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO

from .errors import ModelError, SourcePosition
from .logic.syntax import strip_comments

MAX_INPUT_BYTES = 256 * 1024 * 1024
"""Input files larger than this are refused (``/dev/zero`` would fill the memory)."""

MAX_JSON_DEPTH = 64
"""JSON nested deeper than this is refused before it is parsed (our files nest 5 deep)."""

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def load_json(text: str | bytes, parse_float: Callable[[str], object] | None = None) -> object:
    """``json.loads`` with its nesting bounded first, the same on every Python.

    (How deep the standard parser goes before a ``RecursionError`` depends on the
    Python version and the stack; a bound of ours does not.)

    :raises ValueError: for invalid JSON and for nesting deeper than :data:`MAX_JSON_DEPTH`.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = max(itertools.accumulate(1 if c in "[{" else -1 for c in brackets), default=0)
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"nests deeper than {MAX_JSON_DEPTH} levels")
    return json.loads(text, parse_float=parse_float)


_CHUNK = 1 << 20


def open_regular(path: str | os.PathLike[str], what: str, limit: int = MAX_INPUT_BYTES) -> BinaryIO:
    """The regular file at ``path``, opened for reading (unbuffered; the caller closes it).

    Only a regular file is opened: a FIFO would block for ever and a device (``/dev/zero``)
    never end, so both are refused before a byte is read (the file is opened without
    blocking and looked at first), as is a file larger than ``limit``.

    :raises ModelError: naming the file when it cannot be opened, is not a regular file,
        or is larger than ``limit``.
    """
    where = SourcePosition(os.fspath(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise ModelError(f"cannot read {what}: {exc.strerror}", where) from None
    except (TypeError, ValueError) as exc:
        raise ModelError(f"cannot read {what}: {exc}", where) from None
    refusal = None
    try:  # (looked at before it is wrapped: a directory cannot be)
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            refusal = f"{what} is a directory; give a file"
        elif not stat.S_ISREG(info.st_mode):
            kind = "a FIFO" if stat.S_ISFIFO(info.st_mode) else \
                "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "not a regular file"
            refusal = (f"{what} is {kind}; only a regular file is read (a FIFO or a device would block or never "
                       "end: save it to a file first)")
        elif info.st_size > limit:
            refusal = f"{what} is larger than {_size(limit)}; refusing to read it"
        if refusal is None:
            return os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)
    raise ModelError(refusal, where)


def read_bytes(path: str | os.PathLike[str], what: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file at ``path`` (see :func:`open_regular`), at most
    ``limit`` of them, read in pieces up to its size: no more memory is asked for than
    the file holds.

    :raises ModelError: naming the file when it cannot be read, is not a regular file,
        or is larger than ``limit``.
    """
    where = SourcePosition(os.fspath(path))
    if os.fspath(path) in STANDARD_INPUT:
        return _read_standard_input(what, limit, where)
    with open_regular(path, what, limit) as fh:
        size = os.fstat(fh.fileno()).st_size
        pieces: list[bytes] = []
        total = 0
        try:
            while True:  # (a file that grows while it is read stops at the limit too)
                want = size - total + 1 if total < size else _CHUNK
                piece = fh.read(min(_CHUNK, want, limit + 1 - total))
                if not piece:
                    break
                pieces.append(piece)
                total += len(piece)
                if total > limit:
                    raise ModelError(f"{what} is larger than {_size(limit)}; refusing to read it", where)
        except OSError as exc:
            raise ModelError(f"cannot read {what}: {exc.strerror}", where) from None
    return b"".join(pieces)


STANDARD_INPUT = ("-", "/dev/stdin")
"""The names of standard input as a file to read (a stream, read once to its end)."""


def _read_standard_input(what: str, limit: int, where: SourcePosition) -> bytes:
    """Standard input to its end, within ``limit`` bytes (``cat m.mln | pracmln-poss map -``)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ModelError(f"cannot read {what}: standard input is closed", where)
    try:
        data: bytes = stream.read(limit + 1)
    except OSError as exc:
        raise ModelError(f"cannot read {what}: {exc.strerror}", where) from None
    if len(data) > limit:
        raise ModelError(f"{what} is larger than {_size(limit)}; refusing to read it", where)
    return data


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit:,} bytes"


def decode_text(data: bytes, what: str, where: SourcePosition) -> str:
    """UTF-8 text (a leading byte-order mark ignored) with every line ending (``\\r\\n``,
    a lone ``\\r``) made ``\\n``, as Python's and pracmln's text files read them.

    :raises ModelError: at the line and byte offset of the first byte that is not UTF-8.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ModelError(
            f"{what} is not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}, byte offset {exc.start}",
            SourcePosition(where.file, line),
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_source(path: str | os.PathLike[str], what: str, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of a regular file (UTF-8, a leading byte-order mark ignored, line
    endings made ``\\n``), read within ``limit`` bytes (:data:`MAX_INPUT_BYTES`).

    :raises ModelError: naming the file when it cannot be read, is not a regular file,
        is too large, or is not UTF-8 (with the line and byte offset of the first bad byte).
    """
    return decode_text(read_bytes(path, what, limit), what, SourcePosition(os.fspath(path)))


def _whole_text_lines(text: str, source: str | None) -> Iterator[tuple[SourcePosition, str]]:
    """:func:`numbered_lines` with the comments stripped from the whole text at once."""
    originals = text.split("\n")
    for number, line in enumerate(strip_comments(text).split("\n"), 1):
        body = line.strip()
        if body:
            original = originals[number - 1] if number <= len(originals) else line
            yield SourcePosition(source, number, original), body


def numbered_lines(text: str, source: str | None) -> Iterator[tuple[SourcePosition, str]]:
    """The non-empty lines without comments, stripped, each with its position
    (whose text is the original line, comments included).  Lines end at ``\\n`` only
    (:func:`decode_text` made every ending one), as in Python's text files: not at the
    other breaks ``str.splitlines`` knows (``\\x0b``, ``\\x0c``, ``\\x1c`` to ``\\x1e``,
    ``\\x85``, U+2028, U+2029), which a quoted name may hold and a theory writes as they
    are."""
    if "/*" in text:
        # (a block comment may span lines: the whole text at once)
        yield from _whole_text_lines(text, source)
        return
    # (otherwise no comment or quoted name spans lines, so each line is stripped alone,
    # and one without a quote ends at its first "//")
    for number, line in enumerate(text.split("\n"), 1):
        if '"' in line:
            body = strip_comments(line).strip()
        else:
            cut = line.find("//")
            body = (line if cut < 0 else line[:cut]).strip()
        if body:
            yield SourcePosition(source, number, line), body
