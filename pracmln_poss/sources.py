"""Reading line-oriented input files with a position for every line.

Every reader of ours (``.db`` files, evidence families, theory files) works line by
line after removing ``//`` and ``/* */`` comments, and names ``file:line: text`` in its
errors; this is that shared part.
"""

from __future__ import annotations

__all__ = ["read_source", "numbered_lines", "load_json", "MAX_INPUT_BYTES", "MAX_JSON_DEPTH"]

import itertools
import json
import os
import re
from collections.abc import Iterator
from typing import Any

from .errors import ModelError, SourcePosition
from .logic.syntax import strip_comments

MAX_INPUT_BYTES = 256 * 1024 * 1024
"""Input files larger than this are refused (``/dev/zero`` would fill the memory)."""

MAX_JSON_DEPTH = 64
"""JSON nested deeper than this is refused before it is parsed (our files nest 5 deep)."""

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def load_json(text: str | bytes, **options: Any) -> Any:
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
    return json.loads(text, **options)


def read_source(path: str | os.PathLike[str], what: str) -> str:
    """The text of a file (UTF-8, a leading byte-order mark ignored).

    :raises ModelError: naming the file when it cannot be read, is too large, or is
        not UTF-8 (with the line and byte offset of the first bad byte).
    """
    where = SourcePosition(os.fspath(path))
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise ModelError(f"cannot read {what}: {exc.strerror}", where) from None
    if len(data) > MAX_INPUT_BYTES:
        raise ModelError(f"{what} is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB; refusing to read it", where)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ModelError(
            f"{what} is not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}, byte offset {exc.start}",
            SourcePosition(os.fspath(path), line),
        ) from None


def numbered_lines(text: str, source: str | None) -> Iterator[tuple[SourcePosition, str]]:
    """The non-empty lines without comments, stripped, each with its position
    (whose text is the original line, comments included)."""
    originals = text.splitlines()
    for number, line in enumerate(strip_comments(text).splitlines(), 1):
        body = line.strip()
        if body:
            original = originals[number - 1] if number <= len(originals) else line
            yield SourcePosition(source, number, original), body
