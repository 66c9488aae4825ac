"""What the writers share: formulas grouped by level, ascending, certain ones last."""

from __future__ import annotations

__all__ = ["by_level", "level_sections", "split_formula_line", "check_header", "MADE_BY", "made_by_of", "NOTE", "note_of",
           "counted", "made_k", "made_options", "made_words", "check_names"]

import functools
import re
from collections.abc import Callable, Iterable

from ..errors import FormulaSyntaxError, OutputError, SourcePosition, WeightError
from ..logic.formula import Formula
from ..possibilistic.protocol import Theory
from ..possibilistic.theory import Level, PossibilisticFormula, parse_level
from ..weights import INF, Resolution, format_weight


def by_level(theory: Theory) -> list[tuple[Level, list[PossibilisticFormula]]]:
    """The theory's formulas grouped by exact level (int steps, ascending, ``INF`` last), theory order within."""
    groups: dict[Level, list[PossibilisticFormula]] = {}
    for pf in theory.formulas:
        groups.setdefault(pf.steps, []).append(pf)
    return sorted(groups.items(), key=lambda item: item[0])


def _origin_line(origin: str) -> str:
    """Where a formula came from as its ``// from:`` comment says it, read back the same:
    the line endings the reader knows (``\\r``, ``\\n``: a path may hold one) written
    as Python writes them, the ends stripped as the reader strips them."""
    if "\r" in origin or "\n" in origin:
        origin = origin.replace("\r", "\\r").replace("\n", "\\n")
    return origin.strip()


def check_names(names: Iterable[str], what: str = "atom") -> None:
    """Refuse, before a text theory is written, a name holding a line ending (``\\n``,
    ``\\r``): the text format's lines end there, and its reader would refuse the file
    (JSON holds it)."""
    for name in names:
        if "\n" in name or "\r" in name:
            raise OutputError(f"the {what} {name!r} holds a line break, which a text theory cannot hold: "
                              "write JSON (--format json)")


def level_sections(
    groups: list[tuple[Level, list[PossibilisticFormula]]],
    resolution: Resolution,
    show: Callable[[Formula], str],
) -> list[str]:
    """The text-format lines of the level groups: a comment per level, then
    ``LEVEL  FORMULA  // from: ORIGIN`` per formula."""
    lines: list[str] = []
    for level, formulas in groups:
        lines.append("")
        lines.append("// certain (inf)" if level == INF else f"// level lambda_{format_weight(level, resolution)}")
        shown = format_weight(level, resolution)
        for pf in formulas:
            text = f"{shown}  {show(pf.formula)}"
            origin = _origin_line(pf.origin) if pf.origin else None
            if origin:
                text += f"  // from: {origin}"
            lines.append(text)
    return lines


@functools.lru_cache(maxsize=1 << 14)
def _level(text: str, resolution: Resolution) -> Level:
    """:func:`parse_level` of a line's level text, once per text (a theory's rules share a
    few thousand levels; each is read in exact arithmetic)."""
    return parse_level(text, resolution)


_ORIGIN = re.compile(r"//\s*from:\s*(.*?)\s*$")


def split_formula_line(
    body: str, pos: SourcePosition, resolution: Resolution
) -> tuple[Level, str, str | None]:
    """``(level, formula text, origin)`` of a ``LEVEL  FORMULA  // from: ORIGIN`` line
    (``body`` without comments, ``pos.text`` the original line)."""
    level_text, _, formula_text = body.partition(" ")
    if not formula_text.strip():
        raise FormulaSyntaxError("expected 'LEVEL FORMULA'", pos)
    try:
        level = _level(level_text, resolution)
    except WeightError as exc:
        raise WeightError(exc.message, pos) from None
    return level, formula_text, _origin(pos.text or "")


def _origin(line: str) -> str | None:
    """What a line's ``// from:`` comment says (``_ORIGIN``'s reading, the common case
    without a regular expression: a theory file has one per rule)."""
    cut = line.find("//")
    if cut < 0:
        return None
    if line.startswith("// from: ", cut):
        return line[cut + 9:].strip()
    found = _ORIGIN.search(line, cut)
    return found.group(1) if found else None


MADE_BY = "// made by: "
"""How the line under a theory file's header that records how it was made starts."""


def made_words(made_by: str | None) -> list[str]:
    """The words of the command a theory's made-by line records, as a shell splits them
    (none for a line without one, or edited past reading, e.g. an unclosed quote)."""
    import shlex

    if not made_by:
        return []
    try:
        return shlex.split(made_by.removesuffix(" (the world left open)"))
    except ValueError:
        return []


def made_options(made_by: str | None, flag: str) -> list[str]:
    """The values of ``flag`` (``-k``, ``--domain``, ...) in the command a theory's made-by
    line records, in order (none for a line without one, or edited past reading)."""
    words = made_words(made_by)
    return [value for word, value in zip(words, words[1:]) if word == flag]


def made_k(made_by: str | None) -> int | None:
    """The ``-k`` of the command a theory's made-by line records (None: none recorded)."""
    given = [v for v in made_options(made_by, "-k") if v.isdecimal()]
    return int(given[-1]) if given else None


def made_by_of(text: str) -> str | None:
    """What the ``// made by:`` line under a theory file's header says (None: no such line)."""
    lines = text.lstrip("\ufeff").split("\n", 2)
    if len(lines) > 1 and _HEADER.match(lines[0].strip()) and lines[1].startswith(MADE_BY):
        return lines[1][len(MADE_BY):].strip()
    return None


_HEADER = re.compile(r"^//\s*pracmln_poss \S+ (?:lifted )?possibilistic theory: (\d[\d,]*) (?:formulas?|rules?) in (\d[\d,]*) "
                     r"levels?")


def counted(n: int, what: str) -> str:
    """``n`` and ``what``, plural unless ``n`` is 1 (``1 level``, ``4 levels``)."""
    return f"{n:,} {what}{'' if n == 1 else 's'}"


NOTE = "// domains: "
"""How the line under a lifted theory's header that says how its domains were searched starts."""


def note_of(text: str) -> str | None:
    """What the ``// domains:`` line among a theory file's first lines says (None: none)."""
    for line in text.lstrip("\ufeff").split("\n", 3)[:3]:
        if line.startswith(NOTE):
            return line[len(NOTE):].strip()
    return None


def check_header(text: str, formulas: int, levels: int, source: str | None, atoms_line: bool = True) -> None:
    """The counts a theory file's header announces must be what the file holds: a file
    cut short at a line boundary, or with lines lost, would otherwise answer differently.

    :raises FormulaSyntaxError: naming the header line and both counts.
    """
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    m = _HEADER.match(first.strip())
    if m is None:
        return  # written by hand: nothing announced
    said = (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")))  # (24,297 as stderr writes it)
    if not atoms_line:
        raise FormulaSyntaxError(
            "the file has no #atoms line, which every theory file written by pracmln_poss has: it is cut short",
            SourcePosition(source, 1, first),
        )
    if said != (formulas, levels):
        raise FormulaSyntaxError(
            f"the header announces {said[0]:,} formulas in {said[1]:,} levels but the file holds {formulas:,} in "
            f"{levels:,}: it is cut short or was edited (remove the header line to read it as it is)",
            SourcePosition(source, 1, first),
        )
