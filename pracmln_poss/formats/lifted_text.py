"""The text format of lifted (first-order) theories.

As the ground text format (:mod:`.text`), with one ``#type`` directive per type::

    #type person p = Alice, Bob, Celine

naming the type, the prefix of its variables (``p1``, ``p2``, ...) and its constants.
Rules use those variables (different variables of a type stand for different
constants: the ``!=`` constraints are written out).  Reading a lifted theory grounds it
over the types (:meth:`LiftedTheory.ground`), so every command that reads theories
reads these too.
"""

from __future__ import annotations

__all__ = ["write_lifted_text", "read_lifted_text", "is_lifted_text", "type_variables", "read_rule"]

import re

from ..errors import FormulaSyntaxError, SourcePosition
from ..logic.formula import Constant, Formula, Variable, map_terms
from ..logic.syntax import format_formula, parse_formula
from ..possibilistic.theory import PossibilisticFormula
from ..sources import numbered_lines
from ..transformations.variabilize import LiftedTheory, atom_constants
from ..version import __version__
from ..weights import Resolution
from .common import by_level, check_header, level_sections, split_formula_line

_TYPE = re.compile(r"^#type\s+(\w+)\s+([a-z]\w*)\s*=\s*(.*)$")  # name, variable prefix, constants


def is_lifted_text(text: str) -> bool:
    return any(line.startswith("#type ") for line in text.splitlines())


def write_lifted_text(lt: LiftedTheory) -> str:
    """The lifted theory in the text format (deterministic)."""
    prefixes = lt.prefixes()
    groups = by_level(lt)  # type: ignore[arg-type]
    lines = [
        f"// pracmln_poss {__version__} lifted possibilistic theory: {len(lt.formulas)} rules in {len(groups)} levels",
        f"#resolution {lt.resolution}",
        "#atoms " + " ".join(lt.atoms),
    ]
    for name, constants in lt.types:
        lines.append(f"#type {name} {prefixes[name]} = {', '.join(constants)}")
    lines.extend(level_sections(groups, lt.resolution, format_formula))
    return "\n".join(lines) + "\n"


def read_lifted_text(text: str, source: str | None = None) -> LiftedTheory:
    """Read a lifted theory written by :func:`write_lifted_text`."""
    resolution = Resolution()
    atoms: list[str] = []
    types: list[tuple[str, tuple[str, ...]]] = []
    prefix_of: dict[str, str] = {}
    formulas: list[PossibilisticFormula] = []
    known: set[str] | None = None
    for pos, body in numbered_lines(text, source):
        if body.startswith("#"):
            m = _TYPE.match(body)
            if m:
                types.append((m.group(1), tuple(c.strip() for c in m.group(3).split(",") if c.strip())))
                prefix_of[m.group(2)] = m.group(1)
            elif body.startswith("#resolution "):
                resolution = Resolution(body.split(None, 1)[1].strip())
            elif body.startswith("#atoms "):
                atoms.extend(body.split()[1:])
            else:
                raise FormulaSyntaxError("unknown directive (known: #resolution, #atoms, #type)", pos)
            continue
        level, formula_text, origin = split_formula_line(body, pos, resolution)
        known = known if known is not None else atom_constants(atoms)
        formulas.append(PossibilisticFormula(read_rule(formula_text, prefix_of, known, pos), level, origin))
    check_header(text, len(formulas), len({pf.level for pf in formulas}), source, bool(atoms) or "#atoms" in text)
    return LiftedTheory(tuple(types), tuple(formulas), tuple(atoms), resolution)


def read_rule(text: str, prefix_of: dict[str, str], known: set[str], position: SourcePosition | None = None) -> Formula:
    """A first-order rule of a lifted theory: every term is read as a constant, then
    PREFIX<digits> of a declared prefix is a variable of its type (constants of
    PRACGrammar models may start lower-case: ``color(C1,blue)``).

    :raises FormulaSyntaxError: for a name that is neither a constant of ``known`` (when
        given) nor a variable of a type, naming the position.
    """
    typed = type_variables(parse_formula(text, ground=True, position=position), prefix_of)
    if known:
        unknown: list[str] = []

        def check(t):
            if isinstance(t, Constant) and t.name not in known:
                unknown.append(t.name)
            return t

        map_terms(typed, check)
        if unknown:
            raise FormulaSyntaxError(
                f"{unknown[0]!r} is neither a constant of the theory's atoms nor a variable of a #type", position
            )
    return typed


def type_variables(f: Formula, prefix_of: dict[str, str]) -> Formula:
    """Terms named PREFIX<digits> after a declared prefix become variables of its type
    (``p3`` is of the type declared with prefix ``p``); other terms stay constants (the
    writer picks prefixes no constant of the theory looks like)."""

    def term(t):
        name = t.name
        prefix = name.rstrip("0123456789")
        if prefix != name and prefix in prefix_of:
            return Variable(name, prefix_of[prefix])
        return t if isinstance(t, Constant) else Constant(name)

    return map_terms(f, term)
