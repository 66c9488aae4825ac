"""Reading pracmln ``.db`` evidence files, with file and line in every error.

A database holds domain declarations (``person = {Anna, Bob}``) and ground literals,
one per line (``Smokes(Anna)``, ``!Friends(Anna, Bob)``); ``//`` and ``/* */``
comments are allowed.  Soft evidence (a probability before the atom) and files
holding several databases (separated by ``---``) are rejected with a clear message.
"""

from __future__ import annotations

__all__ = ["read_database", "MAX_EVIDENCE_LINES"]

import re
from pathlib import Path

from ..errors import FormulaSyntaxError, ModelError, SourcePosition, UnsupportedInputError
from ..logic.syntax import is_variable_name, parse_literal
from ..model.first_order import EvidenceLiteral
from ..sources import numbered_lines, read_source
from .mln_file import DOMAIN_LINE, domain_constants

MAX_EVIDENCE_LINES = 1_000_000
"""Distinct lines a database may have (each is a ground atom at most: the grounding's limit)."""


def read_database(
    path: str | Path, grammar: str = "StandardGrammar", text: str | None = None
) -> tuple[list[tuple[str, tuple[str, ...], SourcePosition]], list[EvidenceLiteral]]:
    """Domain declarations and evidence literals of a ``.db`` file (its ``text`` when
    the caller has read it already; ``path`` then only names it).

    :raises ModelError: unreadable file, several databases, malformed lines.
    """
    raw = text if text is not None else read_source(path, "database file")
    domains: list[tuple[str, tuple[str, ...], SourcePosition]] = []
    evidence: list[EvidenceLiteral] = []
    seen: set[str] = set()  # (a line repeated is the same evidence: read once)
    for pos, text in numbered_lines(raw, str(path)):
        if text in seen:
            continue
        seen.add(text)
        if len(seen) > MAX_EVIDENCE_LINES:  # (checked as it reads: a few bytes a line expand to an object each)
            raise ModelError(f"the database has more than {MAX_EVIDENCE_LINES:,} distinct lines: more evidence than "
                             "a grounding may have atoms", pos)
        if text.startswith("---"):
            raise UnsupportedInputError(
                "the file holds several databases separated by '---'; give one database per file", pos
            )
        m = DOMAIN_LINE.match(text)
        if m:
            domains.append((m.group(1), tuple(domain_constants(m.group(2), pos)), pos))
            continue
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
        evidence.append(EvidenceLiteral(atom.pred, names, positive, pos))
    return domains, evidence


def _as_constant(name: str) -> str:
    bare = name.lstrip("?")
    return bare[:1].upper() + bare[1:] if bare else '"?"'
