"""Reading line-oriented input files with a position for every line.

Every reader of ours (``.db`` files, evidence families, theory files) works line by
line after removing ``//`` and ``/* */`` comments, and names ``file:line: text`` in its
errors; this is that shared part.
"""

from __future__ import annotations

__all__ = ["read_source", "numbered_lines"]

import os
from pathlib import Path
from typing import Iterator

from .errors import ModelError, SourcePosition
from .logic.syntax import strip_comments


def read_source(path: str | os.PathLike[str], what: str) -> str:
    """The text of a file; :raises ModelError: naming it when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"cannot read {what}: {exc.strerror}", SourcePosition(os.fspath(path))) from None


def numbered_lines(text: str, source: str | None) -> Iterator[tuple[SourcePosition, str]]:
    """The non-empty lines without comments, stripped, each with its position
    (whose text is the original line, comments included)."""
    originals = text.splitlines()
    for number, line in enumerate(strip_comments(text).splitlines(), 1):
        body = line.strip()
        if body:
            original = originals[number - 1] if number <= len(originals) else line
            yield SourcePosition(source, number, original), body
