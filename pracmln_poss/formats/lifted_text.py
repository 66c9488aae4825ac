"""The text format of lifted (first-order) theories.

As the ground text format (:mod:`.text`), with one ``#type`` directive per type::

    #type person p = Alice, Bob, Celine

naming the type, the prefix of its variables (``p1``, ``p2``, ...) and its constants.
Its atoms are declared by their predicates and domains (``#domain person = Alice, Bob,
Celine`` and ``#predicate Friends(person,person)``: the grounding's atoms, in its order),
so the file does not grow with the domains; a run of numbered constants is written as a
range, ``Person{1..1024}`` (:mod:`~pracmln_poss.model.signature`).  Files with an
``#atoms`` line listing them are read as before.
Rules use those variables (different variables of a type stand for different
constants: the ``!=`` constraints are written out).  Reading a lifted theory grounds it
over the types (:meth:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory.ground`), so every command that reads theories
reads these too.
"""

from __future__ import annotations

__all__ = ["write_lifted_text", "read_lifted_text", "is_lifted_text"]

import re

from ..errors import FormulaSyntaxError, ModelError, SourcePosition, WeightError
from ..logic.formula import Formula
from ..logic.syntax import Shapes, atom_name, format_formula, split_atom, split_constants, split_names
from ..model.signature import ProductAtoms, Signature, format_constants, parse_constants
from ..possibilistic.lifted_theory import LiftedTheory, atom_constants, read_rule
from ..possibilistic.theory import PossibilisticFormula
from ..sources import numbered_lines
from ..version import __version__
from ..weights import Resolution
from .sections import (
    NOTE,
    by_level,
    check_header,
    check_names,
    counted,
    level_sections,
    made_by_of,
    note_of,
    split_formula_line,
)

_TYPE = re.compile(r"^#type\s+(\w+)\s+([a-z]\w*)\s*=\s*(.*)$")  # name, variable prefix, constants


def is_lifted_text(text: str) -> bool:
    """Whether ``text`` is a lifted theory: it has ``#type`` lines, or says so in its
    header (a lifted theory over no type, read back as one)."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return "lifted possibilistic theory" in first or any(line.startswith(("#type ", "#domain ", "#predicate "))
                                                         for line in text.split("\n"))


def write_lifted_text(lt: LiftedTheory) -> str:
    """The lifted theory in the text format (deterministic)."""
    prefixes = lt.prefixes()
    groups = by_level(lt)
    lines = [
        f"// pracmln_poss {__version__} lifted possibilistic theory: {counted(len(lt.formulas), 'rule')} in "
        f"{counted(len(groups), 'level')}",
    ]
    if lt.note is not None:
        lines.append(NOTE + " ".join(lt.note.split()))
    lines.append(f"#resolution {lt.resolution}")
    if isinstance(lt.atoms, ProductAtoms):  # (its atoms as their predicates and domains: a few lines)
        signature = lt.atoms.signature
        check_names((c for _name, constants in signature.domains for c in constants), "constant")
        lines.extend(f"#domain {name} = {format_constants(constants)}" for name, constants in signature.domains)
        lines.extend(f"#predicate {atom_name(pred, doms)}" for pred, doms in signature.predicates)
    else:
        check_names(lt.atoms)
        lines.append("#atoms " + " ".join(lt.atoms))
    for name, constants in lt.types:
        check_names(constants, "constant")
        lines.append(f"#type {name} {prefixes[name]} = {format_constants(constants)}")
    shown: dict[int, str] = {}  # (the theory keeps its formulas alive while it is written)
    lines.extend(level_sections(groups, lt.resolution, lambda f: format_formula(f, shown=shown)))
    return "\n".join(lines) + "\n"


def read_lifted_text(text: str, source: str | None = None) -> LiftedTheory:
    """Read a lifted theory written by :func:`write_lifted_text`."""
    resolution = Resolution()
    atoms: list[str] = []
    header = _Header()
    types: list[tuple[str, tuple[str, ...]]] = []
    prefix_of: dict[str, str] = {}
    formulas: list[PossibilisticFormula] = []
    known: set[str] | None = None
    leaves: dict[str, Formula] = {}  # (each atom's text read once: read_rule)
    shapes: Shapes = {}  # (and each shape of a rule)
    for pos, body in numbered_lines(text, source):
        if body.startswith("#"):
            if formulas and body.startswith(("#domain ", "#predicate ", "#atoms ", "#type ")):
                raise FormulaSyntaxError("the atoms and types must come before the formulas", pos)
            m = _TYPE.match(body)
            if m:
                constants = _constants(m.group(3), f"type {m.group(1)}", pos)
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
            elif not header.read(body, pos):
                raise FormulaSyntaxError("unknown directive (known: #resolution, #atoms, #domain, #predicate, #type)",
                                         pos)
            continue
        level, formula_text, origin = split_formula_line(body, pos, resolution)
        if known is None:
            known = header.constants(atoms)
        formulas.append(PossibilisticFormula(read_rule(formula_text, prefix_of, known, pos, leaves, shapes), level, origin,
                                             resolution))
    signature = header.signature(atoms)
    check_header(text, len(formulas), len({pf.steps for pf in formulas}), source,
                 bool(atoms) or "#atoms" in text or signature is not None)
    return LiftedTheory(tuple(types), tuple(formulas), signature.atoms if signature is not None else tuple(atoms),
                        resolution, made_by_of(text), note_of(text))


_DOMAIN = re.compile(r"^#domain\s+(\w+)\s*=\s*(.*)$")  # name, constants
_PREDICATE = re.compile(r"^#predicate\s+(\S.*?)\s*$")  # pred(dom1,...,domN)


def _constants(text: str, what: str, pos: SourcePosition) -> tuple[str, ...]:
    """The constants of a ``#type`` or ``#domain`` line, ranges expanded (checked first)."""
    items = split_constants(text)
    if not items:  # (its rules would ground to nothing, and answer "no" to everything)
        raise FormulaSyntaxError(f"{what} has no constants", pos)
    try:
        return parse_constants(items, what)
    except ModelError as exc:
        raise FormulaSyntaxError(exc.message, pos) from None


class _Header:
    """The ``#domain`` and ``#predicate`` lines of a lifted theory: its atoms as a signature."""

    def __init__(self) -> None:
        self.domains: dict[str, tuple[str, ...]] = {}
        self.predicates: dict[str, tuple[str, ...]] = {}
        self.position: SourcePosition | None = None

    def read(self, body: str, pos: SourcePosition) -> bool:
        """Take a ``#domain`` or ``#predicate`` line (False: it is neither)."""
        m = _DOMAIN.match(body)
        if m:
            if m.group(1) in self.domains:
                raise FormulaSyntaxError(f"domain {m.group(1)} is declared twice", pos)
            self.domains[m.group(1)] = _constants(m.group(2), f"domain {m.group(1)}", pos)
        else:
            m = _PREDICATE.match(body)
            if m is None:
                return False
            try:
                pred, doms = split_atom(m.group(1))
            except FormulaSyntaxError:
                raise FormulaSyntaxError(f"expected #predicate NAME(DOMAIN, ...), not {m.group(1)!r}", pos) from None
            missing = [d for d in doms if d not in self.domains]
            if missing:
                raise FormulaSyntaxError(f"predicate {pred} uses domain {missing[0]!r}, which no #domain line "
                                         "before it declares", pos)
            if pred in self.predicates:
                raise FormulaSyntaxError(f"predicate {pred} is declared twice", pos)
            self.predicates[pred] = doms
        self.position = self.position or pos
        return True

    def signature(self, atoms: list[str]) -> Signature | None:
        """The atoms the lines declare (None: there are none: an ``#atoms`` line lists them)."""
        if not self.predicates:
            return None
        if atoms:
            raise FormulaSyntaxError("a theory lists its atoms (#atoms) or declares them (#predicate), not both",
                                     self.position)
        used = {d for doms in self.predicates.values() for d in doms}
        return Signature(tuple(self.predicates.items()), tuple((d, cs) for d, cs in self.domains.items() if d in used))

    def constants(self, atoms: list[str]) -> set[str]:
        """Every constant the atoms name (what a rule may name)."""
        return {c for cs in self.domains.values() for c in cs} if self.predicates else atom_constants(atoms)
