"""Reading pracmln ``.db`` evidence files, with file and line in every error.

A database holds domain declarations (``person = {Anna, Bob}``) and ground literals,
one per line (``Smokes(Anna)``, ``!Friends(Anna, Bob)``); ``//`` and ``/* */``
comments are allowed.  A file may hold several databases, each ended by a line
``---`` (as pracmln's ``Database.load`` reads them: how pracmln ships a set of scenes);
:func:`read_databases` gives each, :func:`read_database` the one a file must then hold.
Soft evidence (a probability before the atom) is rejected with a clear message.
"""

from __future__ import annotations

__all__ = ["read_database", "read_databases", "DatabaseParts", "SeveralDatabasesError", "MAX_EVIDENCE_LINES",
           "SEPARATOR"]

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import FormulaSyntaxError, InconsistentEvidenceError, ModelError, SourcePosition, UnsupportedInputError
from ..logic.syntax import atom_name, is_variable_name, parse_literal
from ..model.first_order import EvidenceLiteral
from ..sources import numbered_lines, read_source
from .mln_file import DOMAIN_LINE, domain_constants

if TYPE_CHECKING:  # (the project's texts, which the error of several databases carries)
    from .project import Sources

MAX_EVIDENCE_LINES = 1_000_000
"""Distinct lines a database may have (each is a ground atom at most: the grounding's limit)."""

SEPARATOR = "---"
"""The line that ends one database of a file and begins the next (pracmln's)."""


@dataclass(frozen=True)
class DatabaseParts:
    """One database of a file: its domain declarations and evidence literals, where it
    begins (its first line) and the ``---`` that ends it (None: the end of the file)."""

    domains: tuple[tuple[str, tuple[str, ...], SourcePosition], ...]
    evidence: tuple[EvidenceLiteral, ...]
    start: SourcePosition
    end: SourcePosition | None = None


class SeveralDatabasesError(UnsupportedInputError):
    """A file of several databases where one is taken; it carries them, read, and what
    the caller read with them (``sources``: so that ``map`` answers each without reading
    its inputs again, standard input among them)."""

    def __init__(self, databases: list[DatabaseParts], sources: Sources | None = None) -> None:
        super().__init__(f"the file holds several databases separated by '{SEPARATOR}' ({len(databases)}); give "
                         "one database per file (map answers each database of such a file)", databases[0].end)
        self.databases = databases
        self.sources = sources


def read_database(
    path: str | Path, grammar: str = "StandardGrammar", text: str | None = None, sources: Sources | None = None
) -> tuple[list[tuple[str, tuple[str, ...], SourcePosition]], list[EvidenceLiteral]]:
    """Domain declarations and evidence literals of a ``.db`` file holding one database
    (its ``text`` when the caller has read it already; ``path`` then only names it).

    :param sources: what the caller read with it, carried by the error of a file of
        several databases (:class:`SeveralDatabasesError`).
    :raises ModelError: unreadable file, malformed lines.
    :raises SeveralDatabasesError: a file of several databases.
    """
    found = read_databases(path, grammar, text)
    if len(found) > 1:
        raise SeveralDatabasesError(found, sources)
    if not found:
        return [], []
    return list(found[0].domains), list(found[0].evidence)


def read_databases(path: str | Path, grammar: str = "StandardGrammar", text: str | None = None
                   ) -> list[DatabaseParts]:
    """The databases of a ``.db`` file, in order: each ended by a line ``---`` or by the
    end of the file (an empty one at the end is none; an empty one before a ``---`` is
    an error, as in pracmln).

    :raises ModelError: unreadable file, malformed lines, more distinct lines in a
        database than :data:`MAX_EVIDENCE_LINES`.
    """
    raw = text if text is not None else read_source(path, "database file")
    found: list[DatabaseParts] = []
    domains: list[tuple[str, tuple[str, ...], SourcePosition]] = []
    evidence: list[EvidenceLiteral] = []
    seen: set[str] = set()  # (a line repeated in a database is the same evidence: read once)
    said: dict[tuple[str, tuple[str, ...]], EvidenceLiteral] = {}  # (each atom's literal: one value a database)
    start: SourcePosition | None = None
    for pos, text in numbered_lines(raw, str(path)):
        if text.startswith(SEPARATOR):
            if text != SEPARATOR:
                raise ModelError(f"a line starting with '{SEPARATOR}' separates two databases and holds nothing "
                                 "else", pos)
            if start is None:
                raise ModelError(f"'{SEPARATOR}' with no database before it (it ends one)", pos)
            found.append(DatabaseParts(tuple(domains), tuple(evidence), start, pos))
            domains, evidence, seen, said, start = [], [], set(), {}, None
            continue
        if text in seen:
            continue
        seen.add(text)
        if start is None:
            start = pos
        if len(seen) > MAX_EVIDENCE_LINES:  # (checked as it reads: a few bytes a line expand to an object each)
            raise ModelError(f"the database has more than {MAX_EVIDENCE_LINES:,} distinct lines: more evidence than "
                             "a grounding may have atoms", pos)
        _read_line(pos, text, grammar, domains, evidence, said)
    if start is not None:
        found.append(DatabaseParts(tuple(domains), tuple(evidence), start))
    return found


def _one_value(literal: EvidenceLiteral, said: dict[tuple[str, tuple[str, ...]], EvidenceLiteral]) -> None:
    """Note ``literal`` among the database's ``said`` so far.

    :raises InconsistentEvidenceError: where the database gave its atom the other value."""
    key = (literal.pred, literal.args)
    other = said.setdefault(key, literal)
    if other.value != literal.value:
        line = f"line {other.position.line}" if other.position is not None and other.position.line else "before"
        raise InconsistentEvidenceError(
            f"this database gives {atom_name(*key)} both values: {'' if other.value else '!'}{atom_name(*key)} "
            f"on {line}", literal.position)


def _read_line(pos: SourcePosition, text: str, grammar: str, domains: list[tuple[str, tuple[str, ...], SourcePosition]],
               evidence: list[EvidenceLiteral], said: dict[tuple[str, tuple[str, ...]], EvidenceLiteral]) -> None:
    """Adds what one line of a database declares or says to ``domains`` or ``evidence``
    (``said``: its literals by atom, :func:`_one_value`)."""
    m = DOMAIN_LINE.match(text)
    if m:
        domains.append((m.group(1), tuple(domain_constants(m.group(2), pos)), pos))
        return
    if re.match(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s", text):
        raise UnsupportedInputError(
            "soft evidence (a probability before the atom) is not supported by MAP inference", pos
        )
    try:
        positive, atom = parse_literal(text, grammar)
    except FormulaSyntaxError:
        raise FormulaSyntaxError(f"expected a ground literal such as Pred(A) or !Pred(A, B), got {text!r}", pos) from None
    names = tuple(t.name for t in atom.args)
    variable = next((n for n in names if is_variable_name(n, grammar)), None)
    if variable is not None:  # (pracmln refuses it too: a database names constants)
        start = "'?'" if grammar == "PRACGrammar" else "a lower-case letter"
        raise ModelError(f"{variable} is a variable in {grammar} (it starts with {start}); a database names "
                         f"constants only (write it as a constant, e.g. {_as_constant(variable)})", pos)
    literal = EvidenceLiteral(atom.pred, names, positive, pos)
    _one_value(literal, said)
    evidence.append(literal)


def _as_constant(name: str) -> str:
    bare = name.lstrip("?")
    return bare[:1].upper() + bare[1:] if bare else '"?"'
