"""Reading a theory at a glance: rules per level as "if ... then ...", with warnings.

With the MLN, a rule is flagged when it overturns the literal reading of an MLN
formula: for a soft formula shaped ``body => head`` (or a clause, read as "the negated
negative literals imply the positive ones"), the theory, given the body as evidence,
concludes the opposite of the head (Example 1: ``5 antarcticBird(x) => !flies(x)``, yet
an antarctic bird flies).  The rules that make that conclusion (its explanation) are
flagged, naming the formula.  With query predicates, rules that conclude about other
predicates are flagged (the paper's CORA rule gamma, about authorship).
"""

from __future__ import annotations

__all__ = ["render_rule", "render_lifted_rule", "render_theory_rule", "Flag", "overturned_readings", "off_target_rules", "lifted_flags", "show_text",
           "show_html", "html_table"]

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..atoms import predicate_of
from ..errors import InconsistentEvidenceError
from ..formats.sections import counted
from ..logic.formula import (
    And,
    Atom,
    Equals,
    Formula,
    Implies,
    NodeMemo,
    Not,
    Or,
    PredAtom,
    atoms_of,
    conjunction,
    disjunction,
    is_literal,
    literal_of,
)
from ..logic.leaves import map_leaves
from ..logic.syntax import format_formula
from ..model.ground_mln import GroundMLN
from ..model.signature import format_constants
from ..possibilistic.protocol import Theory
from ..possibilistic.reasoner import Reasoner
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory
from ..stopping import Guard
from ..weights import INF, format_weight
from .explain import explain
from .vocabulary import check_predicates, check_same_atoms

L = TypeVar("L", int, str)


class _Literals(Generic[L]):
    """How the rule readers see literals: a ground theory's as DIMACS ints, a lifted
    one's as their texts (``p(c1)``, ``!p(c1)``), so that a rule is read without
    rebuilding its tree."""

    def of(self, f: Formula) -> L | None:
        """The literal ``f`` is, or None."""
        raise NotImplementedError

    def positive(self, lit: L) -> bool:
        raise NotImplementedError

    def negated(self, lit: L) -> L:
        raise NotImplementedError


class _GroundLiterals(_Literals[int]):
    def of(self, f: Formula) -> int | None:
        return literal_of(f) if is_literal(f) else None

    def positive(self, lit: int) -> bool:
        return lit > 0

    def negated(self, lit: int) -> int:
        return -lit


class _LiftedLiterals(_Literals[str]):
    def of(self, f: Formula) -> str | None:
        sign = ""
        if isinstance(f, Not):
            sign, f = "!", f.arg
        if not isinstance(f, (PredAtom, Equals)):
            return None
        return sign + _leaf_text(f)

    def positive(self, lit: str) -> bool:
        return not lit.startswith("!")  # (no atom's or equality's text starts so)

    def negated(self, lit: str) -> str:
        return lit[1:] if lit.startswith("!") else "!" + lit


_GROUND = _GroundLiterals()
_LIFTED = _LiftedLiterals()


def _literals(f: Formula, kind: _Literals[L]) -> list[L] | None:
    """The literals of a literal, a conjunction of literals; None for anything else."""
    one = kind.of(f)
    if one is not None:
        return [one]
    if isinstance(f, And):
        lits = [kind.of(a) for a in f.args]
        if None not in lits:
            return lits  # type: ignore[return-value]
    return None


def _clause(f: Formula, kind: _Literals[L]) -> list[L] | None:
    """The literals of a disjunction of literals; None for anything else."""
    if isinstance(f, Or):
        lits = [kind.of(a) for a in f.args]
        if None not in lits:
            return lits  # type: ignore[return-value]
    return None


def _reading(f: Formula, kind: _Literals[L] = _GROUND) -> tuple[list[L], list[L], str] | None:  # type: ignore[assignment]
    """``(body literals, head literals, "and"/"or")`` of an implication-shaped formula."""
    if isinstance(f, Implies):
        body = _literals(f.left, kind)
        if body is None:
            return None
        head = _literals(f.right, kind)
        if head is not None:
            return body, head, "and"
        head = _clause(f.right, kind)
        return (body, head, "or") if head is not None else None
    lits = _clause(f, kind)
    if lits is not None:
        negative = [kind.negated(l) for l in lits if not kind.positive(l)]
        positive = [l for l in lits if kind.positive(l)]
        if negative and positive:
            return negative, positive, "or"
    return None


def _render(f: Formula, kind: _Literals[L], name: Callable[[L], str], certain: bool) -> str | None:
    """A formula as the default rule it states (see :func:`render_rule`), or None when
    it has no rule's shape."""
    reading = _reading(f, kind)
    if reading is not None:
        body, head, joiner = reading
        return f"if {' and '.join(map(name, body))} then {f' {joiner} '.join(map(name, head))}"
    lits = _literals(f, kind)
    if lits is not None:
        return ("fact: " if certain else "by default ") + " and ".join(map(name, lits))
    lits = _clause(f, kind)
    if lits is not None:
        if not any(kind.positive(l) for l in lits):
            return "never " + " and ".join(name(kind.negated(l)) for l in lits)
        return ("always " if certain else "by default ") + " or ".join(map(name, lits))
    return None


def render_rule(f: Formula, theory: PossibilisticTheory, certain: bool = False) -> str:
    """A formula as the default rule it states: "if A and B then C", "never A and B"...;
    a certain one as a fact ("fact: A", "always A or B"), not a default."""
    text = _render(f, _GROUND, theory.literal_name, certain)
    return theory.format(f) if text is None else text


def render_lifted_rule(f: Formula, theory: Theory, certain: bool = False) -> str:
    """A first-order rule as the default rule it states, its ``!=`` constraints last:
    "if s(p1) and f(p1,p2) then s(p2)  (p1 != p2)"."""
    if isinstance(f, Implies):  # (the common shape, read from its sides, which rules share)
        premise, conclusion = _premise_reading(f.left), _conclusion_reading(f.right)
        if premise is not None and conclusion is not None:
            return f"if {' and '.join(premise[0])} then {conclusion[0].join(conclusion[1])}{premise[1]}"
    distinct, core = _split_distinct(f)
    text = _render(core, _LIFTED, str, certain)
    if text is None:  # (no rule's shape: the formula as written, its leaves as named)
        names: dict[str, int] = {}
        numbered = map_leaves(core, lambda a: Atom(names.setdefault(_leaf_text(a), len(names) + 1)))
        text = PossibilisticTheory(tuple(names), (), theory.resolution).format(numbered)
    return text + _distinct_suffix(distinct)


def _distinct_suffix(distinct: Sequence[Not]) -> str:
    return f"  ({', '.join(_distinct_text(d.arg) for d in distinct)})" if distinct else ""


_leaf_text = NodeMemo(format_formula)
_distinct_text = NodeMemo(lambda equality: format_formula(Not(equality)))  # (of a "!=" constraint's equality)


def _premise(left: Formula) -> tuple[list[str], str] | None:
    """A rule's premise read as :func:`_render` reads ``_split_distinct``'s core (body
    literals), with the ``!=`` constraints' suffix; None where that reading is not
    "if ... then" (the rule is then read whole)."""
    distinct, rest = _premise_split(left)
    if rest is None:
        return None
    body = _literals(rest, _LIFTED)
    return None if body is None else (body, _distinct_suffix(distinct))


def _conclusion(right: Formula) -> tuple[str, list[str]] | None:
    """A rule's conclusion as :func:`_reading` reads its head: (joiner, literals)."""
    head = _literals(right, _LIFTED)
    if head is not None:
        return " and ", head
    head = _clause(right, _LIFTED)
    return None if head is None else (" or ", head)


_premise_reading = NodeMemo(_premise)
_conclusion_reading = NodeMemo(_conclusion)


def render_theory_rule(pf: PossibilisticFormula, theory: Theory) -> str:
    """A rule of ``theory`` as the default rule it states (:func:`render_rule`; a lifted
    theory's first-order, :func:`render_lifted_rule`), a certain one as a fact."""
    if isinstance(theory, PossibilisticTheory):
        return render_rule(pf.formula, theory, pf.steps == INF)
    return render_lifted_rule(pf.formula, theory, pf.steps == INF)


def _split_distinct(f: Formula) -> tuple[list[Not], Formula]:
    """The ``v != w`` conjuncts of a rule's premise, and the rule without them."""
    if not isinstance(f, Implies):
        return [], f
    distinct, rest = _premise_split(f.left)
    if not distinct:
        return [], f
    return distinct, (Implies(rest, f.right) if rest is not None else f.right)


def _premise_split(left: Formula) -> tuple[list[Not], Formula | None]:
    """A premise's ``v != w`` conjuncts, and the premise without them (None: nothing else)."""
    parts = left.args if isinstance(left, And) else (left,)
    distinct = [p for p in parts if isinstance(p, Not) and isinstance(p.arg, Equals)]
    if not distinct:
        return [], left
    rest = [p for p in parts if not (isinstance(p, Not) and isinstance(p.arg, Equals))]
    return distinct, (conjunction(rest) if rest else None)


@dataclass(frozen=True)
class Flag:
    """A warning attached to a rule of the theory."""

    rule: PossibilisticFormula
    message: str


def overturned_readings(theory: PossibilisticTheory, mln: GroundMLN, guard: Guard | None = None) -> list[Flag]:
    """Rules that overturn the literal reading of an MLN formula (one report per formula
    source); ``guard``: the run's, which the SAT calls go through.

    :raises ModelError: when the theory and the MLN are over different atoms.
    """
    check_same_atoms(theory.atoms, mln.atoms)
    with Reasoner(theory, guard=guard) as reasoner:  # (one solver asks them all; explain only for those overturned)
        return _overturned(theory, mln, reasoner)


def _overturned(theory: PossibilisticTheory, mln: GroundMLN, reasoner: Reasoner) -> list[Flag]:
    flags: list[Flag] = []
    reported: set[str] = set()
    by_name = {n: i for i, n in enumerate(theory.atoms, 1)}
    for wf in mln.soft:
        source = wf.source or mln.format(wf.formula)
        if source in reported:
            continue
        reading = _reading(wf.formula)
        if reading is None:
            continue
        body, head, joiner = reading
        try:
            ev = [_in(theory, mln, l, by_name) for l in body]
            heads = [_in(theory, mln, l, by_name) for l in head]
        except KeyError:
            continue
        # the literal reading is "body => head"; overturned if the theory concludes its negation
        flipped = [_lit(-h) for h in heads]
        opposite = conjunction(flipped) if joiner == "or" else disjunction(flipped)
        try:
            if not reasoner.query(ev, opposite).entailed:
                continue
        except InconsistentEvidenceError:
            continue
        why = explain(theory, ev, opposite, guard=reasoner.guard)
        reported.add(source)
        weight = format_weight(wf.weight, mln.resolution)
        shown = ", ".join(theory.literal_name(l) for l in ev)
        concluded = theory.format(opposite)
        for pf in why.rules:
            if pf.steps != INF:
                flags.append(Flag(pf, f"overturns the MLN formula {weight} {mln.format(wf.formula)} "
                                      f"({source}): given {shown}, the theory concludes {concluded}"))
    return flags


def _in(theory: PossibilisticTheory, mln: GroundMLN, lit: int, by_name: dict[str, int]) -> int:
    a = by_name[mln.name(abs(lit))]
    return a if lit > 0 else -a


def _lit(lit: int) -> Formula:
    return Atom(lit) if lit > 0 else Not(Atom(-lit))


def _conclusion_atoms(f: Formula) -> frozenset[int]:
    reading = _reading(f)
    if reading is not None:
        return frozenset(abs(l) for l in reading[1])
    return atoms_of(f)


def off_target_rules(theory: PossibilisticTheory, query_preds: Sequence[str]) -> list[Flag]:
    """Rules concluding about predicates outside ``query_preds`` (a blocking rule
    concludes nothing: it ranks its evidence set, so it is never flagged).

    :raises UnknownNameError: for a name that is not a predicate of the theory.
    """
    check_predicates(query_preds, theory.atoms, "query")
    wanted = set(query_preds)
    flags = []
    for pf in theory.formulas:
        if pf.steps == INF or pf.blocking:
            continue
        others = sorted({predicate_of(theory.name(a)) for a in _conclusion_atoms(pf.formula)} - wanted)
        if others:
            flags.append(Flag(pf, f"concludes about {', '.join(others)}, not a query predicate"))
    return flags


BLOCKING_NOTE = ("(blocking): says that its evidence set is an exception at this level, so that the rules that "
                 "evidence triggers win over those of the sets it contains; it concludes nothing itself")


def lifted_flags(flags: Iterable[Flag], ground: PossibilisticTheory, sources: Sequence[int],
                 lifted: Theory) -> list[Flag]:
    """Flags found on the grounding of a theory (:meth:`.Theory.ground_with_sources`)
    moved to the rules they ground (each message once per rule)."""
    index = {id(pf): i for i, pf in enumerate(ground.formulas)}
    out: list[Flag] = []
    seen: set[tuple[int, str]] = set()
    for flag in flags:
        rule = sources[index[id(flag.rule)]]
        if (rule, flag.message) not in seen:
            seen.add((rule, flag.message))
            out.append(Flag(lifted.formulas[rule], flag.message))
    return out


def _sections(theory: Theory, flags: Iterable[Flag], max_levels: int | None = None, max_rules: int | None = None
              ) -> tuple[list[str], list[tuple[str, list[tuple[str, list[str]]], int]], str]:
    """The theory's type lines, its levels (title, rules with their warnings, how many
    rules it has; certain ones last) and the summary line: what :func:`show_text` and
    :func:`show_html` lay out.  Only the rules shown are rendered: at most ``max_levels``
    levels (the lowest and the certain one), ``max_rules`` rules each (None: all)."""
    from ..formats.sections import by_level

    notes: dict[int, list[str]] = {}
    for flag in flags:
        notes.setdefault(id(flag.rule), []).append(flag.message)
    prefixes = theory.prefixes()
    types = [f"type {name} (variables {prefixes[name]}1, {prefixes[name]}2, ...): {format_constants(constants)}"
                 for name, constants in theory.types]
    groups = by_level(theory)
    if max_levels is not None and len(groups) > max_levels:
        groups = groups[:max_levels - 1] + groups[-1:]
    levels = []
    for level, group in groups:
        title = "certain" if level == INF else f"level {theory.steps_name(level)}"
        title += f" ({len(group)} rule{'s' if len(group) != 1 else ''})"
        rules = [(render_theory_rule(pf, theory) + ("  (blocking)" if pf.blocking else ""), notes.get(id(pf), []))
                 for pf in (group if max_rules is None else group[:max_rules])]
        levels.append((title, rules, len(group)))
    flagged = sum(1 for pf in theory.formulas if id(pf) in notes)
    warnings = sum(len(notes[id(pf)]) for pf in theory.formulas if id(pf) in notes)
    blocking = sum(1 for pf in theory.formulas if pf.blocking)
    summary = (f"{counted(len(theory), 'rule')} in {counted(len(theory.levels()), 'level')}; {flagged} flagged"
               + (f" ({counted(warnings, 'warning')})" if warnings != flagged else ""))
    if blocking:
        summary += f"; {blocking} blocking\n{BLOCKING_NOTE}"
    return types, levels, summary


def show_text(theory: Theory, flags: Iterable[Flag] = ()) -> str:
    """The theory per level, as rules, certain ones last, with per-level counts and flags
    (a lifted theory's rules first-order, with their ``!=`` constraints and types)."""
    types, levels, summary = _sections(theory, flags)
    lines = types + ([""] if types else [])
    for title, rules, _ in levels:
        lines.append(title)
        for text, notes in rules:
            lines.append(f"  {text}")
            lines.extend(f"    ! {note}" for note in notes)
        lines.append("")
    lines.append(summary)
    return "\n".join(lines) + "\n"


HTML_LEVELS = 40
"""Levels a notebook shows at most (the certain one always, last)."""
HTML_RULES = 10
"""Rules a notebook shows at most per level."""


def show_html(theory: Theory, flags: Iterable[Flag] = (), max_levels: int | None = HTML_LEVELS,
              max_rules: int | None = HTML_RULES) -> str:
    """The same as :func:`show_text`, as HTML for a notebook: a table per level, certain
    rules last, warnings marked; like pandas, at most ``max_levels`` levels (the lowest,
    and the certain one) and ``max_rules`` rules per level, saying what is left out
    (None: everything)."""
    return html_table(theory, flags, max_levels, max_rules)[0]


def html_table(theory: Theory, flags: Iterable[Flag] = (), max_levels: int | None = HTML_LEVELS,
               max_rules: int | None = HTML_RULES) -> tuple[str, bool]:
    """:func:`show_html`, and whether it shows every rule."""
    types, levels, summary = _sections(theory, flags, max_levels, max_rules)
    esc = html.escape
    parts = ["<div class=\"pracmln-poss-theory\">"]
    parts.extend(f"<p><code>{esc(t)}</code></p>" for t in types)
    hidden = len(theory.level_steps()) - len(levels)
    more = "<tr><td style=\"text-align:left\"><i>... {} more rule{}</i></td></tr>"
    for number, (title, rules, count) in enumerate(levels):
        if hidden and number == len(levels) - 1:
            parts.append(f"<p><i>... {hidden} more levels</i></p>")
        parts.append(f"<table><caption style=\"text-align:left\"><b>{esc(title)}</b></caption>")
        for text, notes in rules:
            warn = "".join(f"<br><span style=\"color:#b00\">&#9888; {esc(n)}</span>" for n in notes)
            parts.append(f"<tr><td style=\"text-align:left\"><code>{esc(text)}</code>{warn}</td></tr>")
        if count > len(rules):
            parts.append(more.format(count - len(rules), "s" if count - len(rules) != 1 else ""))
        parts.append("</table>")
    whole = not hidden and all(count <= len(rules) for _, rules, count in levels)
    if not whole:
        parts.append("<p><i>Not all shown: <code>from pracmln_poss.insight.show import show_text; "
                     "print(show_text(theory))</code> or "
                     "<code>pracmln-poss show</code> lists every rule.</i></p>")
    parts.append(f"<p>{esc(summary)}</p></div>")
    return "\n".join(parts), whole
