"""Reading pracmln ``.mln`` files without pracmln, for the constructs learned models use.

pracmln's own parser (pyparsing) takes about half a millisecond per formula, and most
of a learned model's loading time; this reader takes a few microseconds.  It reads
what pracmln's ``parse_mln`` reads line by line: comments, ``#group``/``#fixweight``
markers, domain declarations ``name = {A, B}``, predicate declarations with
functional (``!``) and soft-functional (``?``) arguments, ``$name = expr`` weight
variables, weighted formulas ``WEIGHT FORMULA`` and hard formulas ``FORMULA.``, in
both grammars; and it builds domains and predicates in pracmln's order (predicates
alphabetically, domains as declared, then as predicates and the constants of formulas
name them).

Anything else (``#include``, ``#unique``, template variables ``+x``, predicate groups
``*p``, probability constraints ``P(...)``, a line it cannot read) makes
:func:`read_mln` return None, and the loader hands the file to pracmln instead, which
also gives the error message for malformed lines.  Tests check that both readers give
the same model on every bundled and random model.
"""

from __future__ import annotations

__all__ = ["ParsedModel", "ParsedFormula", "read_mln", "domain_constants", "DOMAIN_LINE"]

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import FormulaSyntaxError, ModelError, SourcePosition
from ..logic.formula import Constant, Formula, PredAtom, walk
from ..logic.syntax import parse_formula, split_constants, strip_comments
from ..model.first_order import Predicate
from ..weights import INF


@dataclass(frozen=True)
class ParsedFormula:
    """A formula as written: its tree, its weight (the text before the formula, to be
    evaluated, or ``INF`` for a hard formula), its text and where it is."""

    formula: Formula
    weight: float | str
    text: str
    position: SourcePosition


@dataclass
class ParsedModel:
    """A model file as read, before domains are merged with a database and weights evaluated."""

    predicates: list[Predicate] = field(default_factory=list)
    domains: dict[str, list[str]] = field(default_factory=dict)
    formulas: list[ParsedFormula] = field(default_factory=list)
    variables: dict[str, str] = field(default_factory=dict)


DOMAIN_LINE = re.compile(r"^(\w+)\s*=\s*\{(.*)\}$")
"""A domain declaration ``name = {A, B}`` (its braces' content: :func:`domain_constants`)."""
_PREDICATE = re.compile(r"^([A-Za-z_][\w'-]*)\s*\(([^()]*)\)$")
_ARGUMENT = re.compile(r"^(\w+)([!?]?)$")
_VARIABLE = re.compile(r"^(\$\w+)\s*=(.+)$")
_SKIPPED = ("#group", "#fixweight")


def _constant(text: str) -> bool:
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return True
    return bool(text) and all(ch.isalnum() or ch in "_-'" for ch in text)


def domain_constants(body: str, position: SourcePosition) -> list[str]:
    """The constants of a domain declaration's braces, checked: pracmln splits the braces
    at every comma and stops at the first ``}``, quoted or not, so a quoted constant
    holding one would be read as other constants than written; and an empty ``{}``
    would make a constant of the empty string.

    :raises ModelError: naming the line, for those.
    """
    constants = split_constants(body)
    if constants is None:
        raise ModelError("a quoted constant is not closed", position)
    for constant in constants:
        if constant.startswith('"') and any(ch in constant for ch in ",{}"):
            raise ModelError(f"the constant {constant} holds a comma or a brace, which pracmln reads as the end of "
                             "the constant; rename it", position)
    if not constants:
        raise ModelError("the domain is declared with no constants ({}); pracmln would make a constant of the "
                         "empty string: name its constants or leave the declaration out", position)
    return constants


def read_mln(raw: str, name: str, grammar: str,
             positions: Sequence[SourcePosition] | None = None) -> ParsedModel | None:
    """The model in ``raw`` (the text of file ``name``; ``positions``: where each of its
    lines comes from, when not from that file), or None when it uses a construct this
    reader leaves to pracmln."""
    out = ParsedModel()
    declared: dict[str, Predicate] = {}
    present: dict[str, set[str]] = {}  # each domain's constants as a set (linear time for any number)
    originals = raw.split("\n")
    for index, line in enumerate(strip_comments(raw).split("\n")):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith(_SKIPPED):
                continue
            return None
        position = positions[index] if positions is not None else SourcePosition(name, index + 1, originals[index])
        if "=" in line:
            m = DOMAIN_LINE.match(line)
            if m:
                constants = domain_constants(m.group(2), position)
                if not all(_constant(c) for c in constants):
                    return None
                _add_constants(out.domains, present, m.group(1), constants)
                continue
        if line.startswith(("P(", "R(", "SE(")):
            return None
        m = _VARIABLE.match(line)
        if m:
            out.variables[m.group(1)] = m.group(2).strip()
            continue
        if line.endswith("."):
            weight: float | str = INF
            text = line[:-1].strip()
        else:
            m = _PREDICATE.match(line)
            if m:
                if not _declared(m, position, declared, out):
                    return None
                continue
            space = line.find(" ")
            if space < 0:
                return None
            weight = line[:space]
            text = line[space:].strip()
        if "+" in text or "*" in text:
            return None  # template variables, predicate groups
        try:
            formula = parse_formula(text, grammar, position=position)
        except FormulaSyntaxError as exc:
            if "nests deeper" in exc.message:  # (pracmln would only exhaust its stack on it)
                raise
            return None
        if not _collect_constants(formula, declared, out.domains, present):
            return None
        out.formulas.append(ParsedFormula(formula, weight, text, position))
    out.predicates = [declared[n] for n in sorted(declared)]
    return out


def _declared(m: re.Match[str], position: SourcePosition, declared: dict[str, Predicate], out: ParsedModel) -> bool:
    """Declare the predicate of the line ``m`` matched (its domains added to the model's);
    False when pracmln is to read it (a declaration this reader leaves to it, or one that
    contradicts an earlier one: pracmln words the error)."""
    predicate = _predicate(m, position)
    if predicate is None:
        return False
    known = declared.setdefault(predicate.name, predicate)
    if (known.domains, known.functional, known.soft_functional) != (
        predicate.domains, predicate.functional, predicate.soft_functional
    ):
        return False
    for domain_name in predicate.domains:
        out.domains.setdefault(domain_name, [])
    return True


def _predicate(m: re.Match[str], position: SourcePosition) -> Predicate | None:
    arguments = [a.strip() for a in m.group(2).split(",")] if m.group(2).strip() else []
    domains: list[str] = []
    functional: int | None = None
    soft = False
    for i, argument in enumerate(arguments):
        a = _ARGUMENT.match(argument)
        if a is None:
            return None
        domains.append(a.group(1))
        if a.group(2):
            if functional is not None:
                return None
            functional, soft = i, a.group(2) == "?"
    if not domains:
        return None
    return Predicate(m.group(1), tuple(domains), functional, soft, position)


def _add_constants(domains: dict[str, list[str]], present: dict[str, set[str]], domain: str,
                   constants: Sequence[str]) -> None:
    """Append to ``domains[domain]`` those of ``constants`` it lacks, in their order
    (``present``: the same domains as sets)."""
    values = domains.setdefault(domain, [])
    seen = present.setdefault(domain, set(values))
    for c in constants:
        if c not in seen:
            seen.add(c)
            values.append(c)


def _collect_constants(formula: Formula, declared: dict[str, Predicate], domains: dict[str, list[str]],
                       present: dict[str, set[str]]) -> bool:
    """Add the constants of ``formula`` to the domains of the argument positions they
    fill, in pracmln's order; False when an atom is undeclared or of the wrong arity
    (pracmln words those errors)."""
    found: dict[str, list[str]] = {}
    for node in walk(formula):
        if not isinstance(node, PredAtom):
            continue
        predicate = declared.get(node.pred)
        if predicate is None or len(predicate.domains) != len(node.args):
            return False
        for arg, domain in zip(node.args, predicate.domains):
            if isinstance(arg, Constant):
                found.setdefault(domain, []).append(arg.name)
    for domain, constants in found.items():
        _add_constants(domains, present, domain, constants)
    return True
