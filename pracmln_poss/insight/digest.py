"""A theory on one screen: what holds with no evidence, what one observation changes,
what two observations do that their parts do not, and how the rules spread over the levels.

The transformations make each rule for an evidence set ``E`` (its origin, ``// from:
{E}``): the rules of ``E`` conclude what every MAP world of ``E`` shares.  So the rules
of the empty set are the model's defaults; a rule of one literal ``l`` that concludes
something the defaults do not is what observing ``l`` changes; and a rule of a pair
``{l, m}`` that concludes something neither ``l``'s nor ``m``'s changes (applied to the
defaults) give is an interaction.  The digest prints those rules, grouped by their
evidence set, and counts the rest: every line is rules of the theory or a count of them.

Conclusions of a lifted theory are compared up to the names of their variables: against
the defaults, whose variables stand for any object, a variable is any object
(``!object(c2,Fork)``, about another cluster than the one observed, repeats the default
``!object(c1,Fork)``); between a pair and its literals, a variable is named by its first
place in the rule, premise first (the observed object, then another).  A pair is
compared with its literals alone: in a ground theory a literal without rules of its own
concludes nothing the defaults do not; a lifted theory keeps one pair of each class up
to renaming, whose literals need not be the representatives of their own classes, so
there a pair whose literal has no rules is counted, not compared.
Blocking rules conclude nothing themselves and are counted only; so are certain rules
(the model's hard formulas) and rules of other shapes.  A filtered theory lacks the
rules its other rules imply, and its digest lacks them too.
"""

from __future__ import annotations

__all__ = ["digest_text", "DIGEST_PAIRS", "origin_literals"]

from collections.abc import Iterable, Sequence

from ..formats.family import split_literals
from ..logic.formula import And, Atom, Formula, Implies, Not, PredAtom, Term, Variable, map_terms, variables_of
from ..logic.syntax import format_formula, split_atom
from ..possibilistic.protocol import Theory
from ..possibilistic.theory import PossibilisticFormula
from ..weights import INF, Level
from .show import Flag, _split_distinct, render_theory_rule

DIGEST_PAIRS = 20
"""Interacting pairs, and flagged rules, the digest lists at most (the rest are counted):
with the defaults and the single observations, a learned model's digest stays under
100 lines."""


def origin_literals(origin: str | None) -> tuple[str, ...] | None:
    """The literals of an evidence set's origin (``{a(X), !b(X,Y)}``), in order; None for
    another origin (a blocking rule's, a hard formula's place in the model)."""
    if origin is None or not (origin.startswith("{") and origin.endswith("}")):
        return None
    return tuple(split_literals(origin[1:-1]))


def _conclusions(f: Formula) -> tuple[Formula, ...] | None:
    """The literals a rule concludes (its head: a literal or a conjunction of them,
    ground or first-order)."""
    head = f.right if isinstance(f, Implies) else f
    parts = head.args if isinstance(head, And) else (head,)
    return parts if all(isinstance(p.arg if isinstance(p, Not) else p, (Atom, PredAtom)) for p in parts) else None


Key = tuple[bool, str]
"""A conclusion compared: its sign and its atom."""


class _Keys:
    """The conclusions of rules as they are compared (each rule's variables ordered once)."""

    def __init__(self, theory: Theory) -> None:
        self.theory = theory
        self._orders: dict[int, dict[str, str]] = {}
        self._memo: dict[tuple[int, Formula, bool], Key] = {}

    def __call__(self, pf: PossibilisticFormula, literal: Formula, erase: bool = False) -> Key:
        """A conclusion of rule ``pf`` up to the names of its variables: each named by its
        first place in the rule, premise first (``_1`` the observed object, ``_2`` another),
        or every one ``_`` (``erase``: any object, as a default with no evidence says)."""
        memo = (id(pf), literal, erase)
        if memo in self._memo:
            return self._memo[memo]
        atom = literal.arg if isinstance(literal, Not) else literal
        if self.theory.types:
            order = self._orders.get(id(pf))
            if order is None:
                order = {v.name: f"_{i}" for i, v in enumerate(dict.fromkeys(variables_of(pf.formula)), 1)}
                self._orders[id(pf)] = order
            named = order

            def rename(t: Term) -> Term:
                return Variable("_" if erase else named[t.name], t.domain) if isinstance(t, Variable) else t

            atom = map_terms(atom, rename)
        key = self._memo[memo] = (not isinstance(literal, Not), _text(self.theory, atom))
        return key


def _text(theory: Theory, f: Formula) -> str:
    """A formula of the theory as written (a lifted one's variables as they are)."""
    return format_formula(f) if theory.types else theory.format(f)


class _Group:
    """The rules of one evidence set: what they conclude, at which levels."""

    def __init__(self) -> None:
        self.rules: list[tuple[PossibilisticFormula, Formula]] = []  # (rule, a literal it concludes)

    def keys(self, key: _Keys, erase: bool = False) -> dict[Key, tuple[PossibilisticFormula, Formula]]:
        return {key(pf, lit, erase): (pf, lit) for pf, lit in self.rules}


def digest_text(theory: Theory, flags: Iterable[Flag] = (), max_pairs: int = DIGEST_PAIRS) -> str:
    """The digest of ``theory`` (see the module): flagged rules first (``flags``, from
    :func:`~.show.overturned_readings` and :func:`~.show.off_target_rules`), then the
    defaults, the single observations that change them, the interacting pairs and the
    rules per level band (at most ``max_pairs`` flagged rules and pairs listed, the rest
    counted)."""
    groups: dict[tuple[str, ...], _Group] = {}
    origins: dict[str | None, tuple[str, ...] | None] = {}
    blocking = certain = other = 0
    for pf in theory.formulas:
        if pf.blocking:
            blocking += 1
            continue
        if pf.steps == INF:
            certain += 1
            continue
        if pf.origin not in origins:  # (the rules of an evidence set share its origin)
            origins[pf.origin] = origin_literals(pf.origin)
        origin = origins[pf.origin]
        concluded = _conclusions(pf.formula)
        if origin is None or concluded is None:
            other += 1
            continue
        group = groups.setdefault(origin, _Group())
        group.rules.extend((pf, lit) for lit in concluded)
    lines = [f"{len(theory):,} rules in {len(theory.levels()):,} levels: " + ", ".join(
        f"{sum(len({id(pf) for pf, _ in g.rules}) for o, g in groups.items() if len(o) == n):,} "
        f"for {_sets(n)}" for n in sorted({len(o) for o in groups}))
        + f"; {blocking:,} blocking, {certain:,} certain, {other:,} other"]
    flagged = list(flags)
    if flagged:
        lines += ["", f"flagged ({len(flagged)}):"]
        lines += [f"  {_rule(theory, flag.rule)}  ! {flag.message}" for flag in flagged[:max_pairs]]
        if len(flagged) > max_pairs:
            lines.append(f"  ... and {len(flagged) - max_pairs} more flagged rules (show lists every one)")
    key = _Keys(theory)
    defaults = groups.get((), _Group()).keys(key, erase=True)
    lines += ["", f"with no evidence ({_count(len({id(pf) for pf, _ in defaults.values()}))}):"]
    lines += [f"  {line}" for line in _grouped(theory, [lit for _, lit in defaults.values()])] or ["  nothing"]

    def default(pf: PossibilisticFormula, lit: Formula) -> bool:
        return key(pf, lit, erase=True) in defaults

    changes: dict[str, dict[Key, tuple[PossibilisticFormula, Formula]]] = {}
    shown: list[str] = []
    for origin, group in groups.items():
        if len(origin) != 1:
            continue
        changed = {k: v for k, v in group.keys(key).items() if not default(*v)}
        changes[origin[0]] = changed
        if changed:
            shown.append(_line(theory, origin, changed.values()))
    singles = sum(1 for o in groups if len(o) == 1)
    lines += ["", f"one observation that changes them ({len(shown)} of {singles}):"] + (shown or ["  none"])
    pairs, uncompared = [], 0
    for origin, group in groups.items():
        if len(origin) != 2:
            continue
        # (a ground theory's literal without rules of its own concludes nothing the defaults
        # do not; a lifted one's may be a literal its class is not represented by)
        parts = [changes.get(part, None if theory.types else {}) for part in origin]
        if None in parts:
            uncompared += 1
            continue
        expected: dict[Key, tuple[PossibilisticFormula, Formula]] = {}  # (the singles' changes, the later winning)
        for part_changes in parts:
            for (positive, atom), value in (part_changes or {}).items():
                expected.pop((not positive, atom), None)
                expected[positive, atom] = value
        new = {(positive, atom): (pf, lit) for (positive, atom), (pf, lit) in group.keys(key).items()
               if (positive, atom) not in expected and ((not positive, atom) in expected or not default(pf, lit))}
        if new:
            pairs.append(_line(theory, origin, new.values()))
    counted = sum(1 for o in groups if len(o) == 2)
    lines += ["", f"two observations that do what their parts do not ({len(pairs)} of {counted - uncompared} "
              f"compared pairs{f'; {uncompared} not compared' if uncompared else ''}):"]
    lines += pairs[:max_pairs] or ["  none"]
    if len(pairs) > max_pairs:
        lines.append(f"  ... and {len(pairs) - max_pairs} more pairs (show lists every rule)")
    lines += ["", "rules per level: " + "; ".join(f"{band}: {n:,}" for band, n in _bands(theory) if n)]
    return "\n".join(lines) + "\n"


def _count(n: int) -> str:
    return f"{n:,} rule{'' if n == 1 else 's'}"


def _sets(n: int) -> str:
    return "no evidence" if n == 0 else "one literal" if n == 1 else "two literals" if n == 2 else f"{n} literals"


def _rule(theory: Theory, pf: PossibilisticFormula) -> str:
    return f"{render_theory_rule(pf, theory)}  [{theory.steps_name(pf.steps)}]"


def _line(theory: Theory, origin: Sequence[str], concluded: Iterable[tuple[PossibilisticFormula, Formula]]) -> str:
    """``  if E: c1, c2 [level]; c3 [level]  (p1 != p2)``: what the rules of ``E`` conclude."""
    by_level: dict[Level, list[str]] = {}
    distinct: list[str] = []
    body = ""
    for pf, lit in concluded:
        found, core = _split_distinct(pf.formula)
        distinct += [format_formula(d) for d in found if format_formula(d) not in distinct]
        if not body and isinstance(core, Implies):
            body = _text(theory, core.left)
        by_level.setdefault(pf.steps, []).append(_text(theory, lit))
    said = "; ".join(f"{', '.join(texts)} [{theory.steps_name(level)}]" for level, texts in sorted(by_level.items()))
    return f"  if {body or ', '.join(origin)}: {said}" + (f"  ({', '.join(distinct)})" if distinct else "")


def _grouped(theory: Theory, literals: Sequence[Formula]) -> list[str]:
    """Default conclusions, those of one sign, predicate and arguments but the last on one line."""
    rows: dict[tuple[bool, str, tuple[str, ...]], list[str]] = {}
    for lit in literals:
        text = _text(theory, lit)
        pred, args = split_atom(text.removeprefix("!"))
        rows.setdefault((not text.startswith("!"), pred, args[:-1]), []).append(args[-1] if args else "")
    out = []
    for (positive, pred, first), lasts in sorted(rows.items(), key=lambda item: (not item[0][0], item[0][1:])):
        sign = "" if positive else "!"
        if len(lasts) == 1:
            out.append(f"{sign}{pred}({','.join((*first, lasts[0]))})" if lasts[0] or first else f"{sign}{pred}")
        else:
            out.append(f"{sign}{pred}({','.join((*first, 'X'))}) for X in {', '.join(lasts)} ({len(lasts)} rules)")
    return out


def _bands(theory: Theory) -> list[tuple[str, int]]:
    """Rules per band of levels: 0, below 1, then a band per power of ten, certain."""
    bands: dict[str, int] = {}
    order: list[tuple[float, str]] = []
    for pf in theory.formulas:
        if pf.steps == INF:
            band, rank = "certain", float("inf")
        else:
            value = theory.in_units(pf.steps)
            if value == 0:
                band, rank = "0", 0.0
            elif value < 1:
                band, rank = "(0, 1)", 0.5
            else:
                low = 10 ** (len(str(int(value))) - 1)
                band, rank = f"[{low:g}, {low * 10:g})", float(low)
        if band not in bands:
            order.append((rank, band))
        bands[band] = bands.get(band, 0) + 1
    return [(band, bands[band]) for _, band in sorted(order)]
