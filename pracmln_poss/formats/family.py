"""Evidence-family files (``convert --method selective --family FILE``): one evidence set
a line, literals separated by commas (``bird(T), !heavy(T)``), ``{}`` the empty set,
``//`` and ``/* */`` comments."""

from __future__ import annotations

__all__ = ["read_family", "split_literals", "origin_literals"]

from pathlib import Path

from ..atoms import NamedAtoms
from ..errors import FormulaSyntaxError, PossError
from ..search.evidence import EvidenceSet
from ..sources import numbered_lines, read_source


def split_literals(line: str) -> list[str]:
    """Split on commas outside parentheses: ``f(A,B), !g(C)`` -> two literals."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in line:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def read_family(path: str | Path, atoms: NamedAtoms) -> list[EvidenceSet]:
    """An evidence family from a file: one evidence set per line, literals separated by
    commas (``bird(T), !heavy(T)``); an empty set is written ``{}``; ``//`` comments allowed.
    A set given twice counts once.

    :raises PossError: naming file, line and text of a malformed or unknown literal.
    """
    family: dict[EvidenceSet, None] = {}  # each set once, in order of first appearance
    lines: set[str] = set()
    for pos, text in numbered_lines(read_source(path, "evidence family file"), str(path)):
        if text in lines:  # (a line repeated is the same set: read once)
            continue
        lines.add(text)
        if text == "{}":
            family[()] = None
            continue
        lits: list[int] = []
        for item in split_literals(text.strip("{}")):
            try:
                lits.append(atoms.literal(item))
            except PossError as exc:
                raise exc.at(pos) from None
        if any(-lit in lits for lit in lits):
            raise FormulaSyntaxError("evidence set holds a literal and its negation", pos)
        family[tuple(sorted(set(lits), key=abs))] = None
    return list(family)


def origin_literals(origin: str | None) -> tuple[str, ...] | None:
    """The literals of an evidence set's origin (``{a(X), !b(X,Y)}``), in order; None for
    another origin (a blocking rule's, a hard formula's place in the model)."""
    if origin is None or not (origin.startswith("{") and origin.endswith("}")):
        return None
    return tuple(split_literals(origin[1:-1]))
