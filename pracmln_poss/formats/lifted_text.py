"""The text format of lifted (first-order) theories.

As the ground text format (:mod:`.text`), with one ``#type`` directive per type::

    #type person p = Alice, Bob, Celine

naming the type, the prefix of its variables (``p1``, ``p2``, ...) and its constants.
Rules use those variables (different variables of a type stand for different
constants: the ``!=`` constraints are written out).  Reading a lifted theory grounds it
over the types (:meth:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory.ground`), so every command that reads theories
reads these too.
"""

from __future__ import annotations

__all__ = ["write_lifted_text", "read_lifted_text", "is_lifted_text"]

import re

from ..errors import FormulaSyntaxError, WeightError
from ..logic.formula import Formula
from ..logic.syntax import Shapes, format_formula, split_constants, split_names
from ..possibilistic.lifted_theory import LiftedTheory, atom_constants, read_rule
from ..possibilistic.theory import PossibilisticFormula
from ..sources import numbered_lines
from ..version import __version__
from ..weights import Resolution
from .sections import by_level, check_header, level_sections, made_by_of, split_formula_line

_TYPE = re.compile(r"^#type\s+(\w+)\s+([a-z]\w*)\s*=\s*(.*)$")  # name, variable prefix, constants


def is_lifted_text(text: str) -> bool:
    """Whether ``text`` is a lifted theory: it has ``#type`` lines, or says so in its
    header (a lifted theory over no type, read back as one)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return "lifted possibilistic theory" in first or any(line.startswith("#type ") for line in text.splitlines())


def write_lifted_text(lt: LiftedTheory) -> str:
    """The lifted theory in the text format (deterministic)."""
    prefixes = lt.prefixes()
    groups = by_level(lt)
    lines = [
        f"// pracmln_poss {__version__} lifted possibilistic theory: {len(lt.formulas):,} rules in {len(groups):,} levels",
        f"#resolution {lt.resolution}",
        "#atoms " + " ".join(lt.atoms),
    ]
    for name, constants in lt.types:
        lines.append(f"#type {name} {prefixes[name]} = {', '.join(constants)}")
    shown: dict[int, str] = {}  # (the theory keeps its formulas alive while it is written)
    lines.extend(level_sections(groups, lt.resolution, lambda f: format_formula(f, shown=shown)))
    return "\n".join(lines) + "\n"


def read_lifted_text(text: str, source: str | None = None) -> LiftedTheory:
    """Read a lifted theory written by :func:`write_lifted_text`."""
    resolution = Resolution()
    atoms: list[str] = []
    types: list[tuple[str, tuple[str, ...]]] = []
    prefix_of: dict[str, str] = {}
    formulas: list[PossibilisticFormula] = []
    known: set[str] | None = None
    leaves: dict[str, Formula] = {}  # (each atom's text read once: read_rule)
    shapes: Shapes = {}  # (and each shape of a rule)
    for pos, body in numbered_lines(text, source):
        if body.startswith("#"):
            m = _TYPE.match(body)
            if m:
                constants = tuple(split_constants(m.group(3)) or ())
                if not constants:  # (its rules would ground to nothing, and answer "no" to everything)
                    raise FormulaSyntaxError(f"type {m.group(1)} has no constants", pos)
                if m.group(2) in prefix_of or any(name == m.group(1) for name, _ in types):
                    raise FormulaSyntaxError(f"type {m.group(1)} or its variable prefix {m.group(2)} is declared twice",
                                             pos)
                types.append((m.group(1), constants))
                prefix_of[m.group(2)] = m.group(1)
            elif body.startswith("#resolution "):
                if formulas:  # (the levels before it were read in another unit)
                    raise FormulaSyntaxError("#resolution must come before the formulas", pos)
                try:
                    resolution = Resolution(body.split(None, 1)[1].strip())
                except WeightError as exc:
                    raise WeightError(exc.message, pos) from None
            elif body.startswith("#atoms "):
                atoms.extend(split_names(body.partition(" ")[2]))
            else:
                raise FormulaSyntaxError("unknown directive (known: #resolution, #atoms, #type)", pos)
            continue
        level, formula_text, origin = split_formula_line(body, pos, resolution)
        known = known if known is not None else atom_constants(atoms)
        formulas.append(PossibilisticFormula(read_rule(formula_text, prefix_of, known, pos, leaves, shapes), level, origin,
                                             resolution))
    check_header(text, len(formulas), len({pf.steps for pf in formulas}), source, bool(atoms) or "#atoms" in text)
    return LiftedTheory(tuple(types), tuple(formulas), tuple(atoms), resolution, made_by_of(text))
