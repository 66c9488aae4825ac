"""A file of questions for ``query`` and ``explain``: many answered after one load.

One question per line, in either of two forms (blank lines and lines starting with
``#`` are skipped):

- the command line's own options: ``-q FORMULA [-e LIT ...]`` (``--query``,
  ``--evidence``), split as a shell splits words, so that a formula with spaces is
  quoted: ``-q 'flies(Tweety) v heavy(Tweety)' -e bird(Tweety) antarcticBird(Tweety)``;
- a JSON object: ``{"query": "flies(Tweety)", "evidence": ["bird(Tweety)"]}``
  (``evidence`` may be left out).

Every line is read before any is answered: a line of neither form is an error naming
the file, the line and its text, and nothing is answered.
"""

from __future__ import annotations

__all__ = ["Question", "parse_questions", "read_questions"]

import os
import shlex
from dataclasses import dataclass

from ..errors import FormulaSyntaxError, SourcePosition, clipped
from ..sources import load_json, read_source


@dataclass(frozen=True)
class Question:
    """``(T, E) |- query?``: the evidence, the query, and the line it was read from."""

    evidence: tuple[str, ...]
    query: str
    position: SourcePosition | None = None


def parse_questions(text: str, source: str | None = None) -> list[Question]:
    """The questions of a file's text (see the module).

    :raises FormulaSyntaxError: naming the line, for a line of neither form.
    """
    out = []
    for number, line in enumerate(text.split("\n"), 1):  # (as numbered_lines: "\n" only)
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        where = SourcePosition(source, number, line)
        out.append(_json_question(body, where) if body.startswith("{") else _words_question(body, where))
    return out


def read_questions(path: str | os.PathLike[str]) -> list[Question]:
    """The questions of a file (a regular UTF-8 file within the size every input is held to).

    :raises PossError: naming the file (and the line), when it cannot be read or a line
        is not a question.
    """
    return parse_questions(read_source(path, "questions file"), os.fspath(path))


def _json_question(body: str, where: SourcePosition) -> Question:
    try:
        item = load_json(body)  # (nesting bounded: a line 100,000 deep is an error, not a RecursionError)
    except ValueError as exc:
        raise FormulaSyntaxError(f"not a JSON object: {exc}", where) from None
    if not isinstance(item, dict):
        raise FormulaSyntaxError("not a JSON object", where)
    unknown = sorted(set(item) - {"query", "evidence"})
    if unknown:
        raise FormulaSyntaxError(f"unknown key {unknown[0]!r} (a question has \"query\" and \"evidence\")", where)
    query, evidence = item.get("query"), item.get("evidence", [])
    if not isinstance(query, str) or not query.strip():
        raise FormulaSyntaxError("\"query\" must be a formula (a non-empty string)", where)
    if not isinstance(evidence, list) or not all(isinstance(e, str) and e.strip() for e in evidence):
        raise FormulaSyntaxError("\"evidence\" must be a list of literals (non-empty strings)", where)
    return Question(tuple(evidence), query, where)


def _words_question(body: str, where: SourcePosition) -> Question:
    try:
        words = shlex.split(body)
    except ValueError as exc:
        raise FormulaSyntaxError(f"cannot split into words: {exc}", where) from None
    query: str | None = None
    evidence: list[str] = []
    target: list[str] | None = None
    for word in words:
        if word in ("-q", "--query"):
            if query is not None:
                raise FormulaSyntaxError("two queries in one question (one -q per line)", where)
            query, target = "", None
        elif word in ("-e", "--evidence"):
            target = evidence
        elif query == "" and target is None:
            query = word
        elif target is not None:
            target.append(word)
        else:
            raise FormulaSyntaxError(f"{clipped(word)!r} is neither -q FORMULA nor -e LIT ... "
                                     "(a formula with spaces is quoted)", where)
    if not query:
        raise FormulaSyntaxError("no query: a question is -q FORMULA [-e LIT ...] or a JSON object", where)
    return Question(tuple(evidence), query, where)
