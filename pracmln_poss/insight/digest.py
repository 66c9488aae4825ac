"""A theory on one screen: what holds with no evidence, what one observation changes,
what two observations do that their parts do not, and how the rules spread over the levels.

The transformations make each rule for an evidence set ``E`` (its origin, ``// from:
{E}``): the rules of ``E`` conclude what every MAP world of ``E`` shares.  So the rules
of the empty set are the model's defaults; a rule of one literal ``l`` that concludes
something the defaults do not is what observing ``l`` changes; and a rule of a pair
``{l, m}`` that concludes something neither ``l``'s nor ``m``'s changes (applied to the
defaults) give is an interaction; where the changes of ``l`` and ``m`` contradict each
other, what the pair concludes of it is its own.  The digest prints those rules, grouped
by their evidence set, and counts the rest: every line is rules of the theory or a
count of them.

Conclusions of a lifted theory are compared up to the names of their variables: against
the defaults, whose variables stand for any objects of their types (apart where their
``!=`` say so), a conclusion that is an instance of a default repeats it
(``!object(c2,Fork)``, about another cluster than the one observed, repeats the default
``!object(c1,Fork)``; ``f(A,p2)`` does not repeat ``f(p1,p1)``).  Between a pair and its literals, the variables a rule's premise
binds are named by the observed constants, the others stand for any object not
observed (``_Bound``).  A lifted theory keeps one evidence set of each class up to
renaming the interchangeable constants, so a pair's literal need not be its own class's
representative: that representative's changes are carried over by the renaming.  A
literal without rules of its own (in its class) concludes nothing the defaults do not.
Blocking rules conclude nothing themselves and are counted only; so are certain rules
(the model's hard formulas) and rules of other shapes.  A filtered theory lacks the
rules its other rules imply, and its digest lacks them too.
"""

from __future__ import annotations

__all__ = ["digest_text", "DIGEST_PAIRS", "DIGEST_SINGLES", "grouped_literals", "digest_of", "Digest", "default_lines", "flagged_count"]

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from ..formats.family import origin_literals
from ..formats.sections import counted, made_options
from ..logic.formula import (
    And,
    Atom,
    Constant,
    Equals,
    Formula,
    Implies,
    Not,
    PredAtom,
    Term,
    Variable,
    map_terms,
    variables_of,
)
from ..logic.syntax import format_formula, split_atom
from ..possibilistic.protocol import Theory
from ..possibilistic.theory import PossibilisticFormula
from ..weights import INF, Level
from .show import Flag, _split_distinct, render_theory_rule

DIGEST_SINGLES = 40
"""Lines of single observations the digest lists at most (those alike on one line
first; the rest are counted)."""

DIGEST_PAIRS = 20
"""Interacting pairs, and flagged rules, the digest lists at most (the rest are counted):
with the defaults and the single observations, a learned model's digest stays under
100 lines."""


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
        self._memo: dict[tuple[int, Formula], Key] = {}

    def __call__(self, pf: PossibilisticFormula, literal: Formula) -> Key:
        """A conclusion of rule ``pf`` up to the names of its variables: each named by its
        first place in the rule, premise first (``_1`` the observed object, ``_2`` another)."""
        memo = (id(pf) if self.theory.types else 0, literal)  # (ground, the rule does not matter)
        if memo in self._memo:
            return self._memo[memo]
        atom = literal.arg if isinstance(literal, Not) else literal
        if self.theory.types:
            order = self._orders.get(id(pf))
            if order is None:
                order = {v.name: f"_{i}" for i, v in enumerate(dict.fromkeys(variables_of(pf.formula)), 1)}
                self._orders[id(pf)] = order

            def rename(t: Term) -> Term:
                return Variable(order[t.name], t.domain) if isinstance(t, Variable) else t

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

    def keys(self, key: _Keys) -> dict[Key, tuple[PossibilisticFormula, Formula]]:
        return {key(pf, lit): (pf, lit) for pf, lit in self.rules}


class _Bound:
    """A lifted theory's pairs compared with their literals, with the variables an
    evidence set binds named by their constants.

    A pair ``{l, m}`` of a lifted theory is the representative of its class up to renaming
    the interchangeable constants, and so is each single literal, so ``l`` need not be
    its own class's representative ``l'``; what ``l'`` changes is carried over to ``l`` by
    the renaming ``s`` with ``s(l') = l``.  A rule's premise is its evidence set's literals
    in order, with a variable for each interchangeable constant (of that constant's
    class, its type), so it names the literal's class and binds the rule's variables; the
    others range over the constants not observed, pairwise distinct.  Carried over to the
    pair, such a variable of ``l``'s is either a constant of ``m`` of its type that ``l``
    lacks, or still one not observed.
    """

    def __init__(self, singles: dict[str, _Group],
                 changes: dict[str, dict[Key, tuple[PossibilisticFormula, Formula]]]) -> None:
        self._reads: dict[tuple[int, tuple[str, ...]], tuple[list[tuple[bool, PredAtom]], dict[str, str]] | None] = {}
        self._keys: dict[tuple[int, int], Key] = {}
        self._equal: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}
        # (per class of a single literal: its premise, binding and what it changes, bound)
        self.singles: dict[tuple[object, ...], tuple[PredAtom, dict[str, str], list[tuple[bool, PredAtom]]]] = {}
        self.complete = True  # (whether every single's premise is its literal: else a class not found is unknown)
        for literal, group in singles.items():
            pf = group.rules[0][0]
            read = self._read(pf, (literal,))
            changed = self._bound((literal,), changes.get(literal, {}).values())
            if read is None or changed is None:
                self.complete = False
                continue
            (negative, atom), = read[0]
            self.singles[_class(negative, atom)] = (atom, read[1], changed)

    def pair(self, origin: tuple[str, ...], group: _Group
             ) -> tuple[list[Key], dict[Key, tuple[PossibilisticFormula, Formula]]] | None:
        """What the pair's literals change, carried over to it, and what its rules
        conclude, each by its key; None when a rule's premise is not its evidence set."""
        concluded: dict[Key, tuple[PossibilisticFormula, Formula]] = {}
        for pf, literal in group.rules:
            read = self._read(pf, origin)
            if read is None:
                return None
            memo = (id(literal), id(read[1]))  # (both live as long as self: the theory's, and one per value)
            got = self._keys.get(memo)
            if got is None:
                bound = self._bound(origin, [(pf, literal)])
                if bound is None:
                    return None
                got = self._keys[memo] = _key(*bound[0])
            concluded[got] = (pf, literal)
        read = self._read(group.rules[0][0], origin)
        if read is None:
            return None
        premise, binding = read
        observed = [[(t.domain or "", binding[t.name]) for t in atom.args if isinstance(t, Variable)]
                    for _, atom in premise]
        expected: list[Key] = []
        for at, (negative, part) in enumerate(premise):
            single = self.singles.get(_class(negative, part))
            if single is None:
                if not self.complete:
                    return None
                continue  # (a literal whose class has no rules concludes nothing the defaults do not)
            own_premise, own_binding, changed = single
            renaming = {own_binding[t.name]: binding[u.name] for t, u in zip(own_premise.args, part.args)
                        if isinstance(t, Variable) and isinstance(u, Variable)}
            mine = {c for _, c in observed[at]}
            others: dict[str, list[str]] = {}
            for domain, c in observed[1 - at]:
                if c not in mine and c not in others.get(domain, []):
                    others.setdefault(domain, []).append(c)
            for positive, atom in changed:
                expected += [_key(positive, a) for a in _carried(atom, renaming, others)]
        return expected, concluded

    def _bound(self, origin: tuple[str, ...], rules: Iterable[tuple[PossibilisticFormula, Formula]]
               ) -> list[tuple[bool, PredAtom]] | None:
        """The literals ``rules`` conclude, their variables bound by ``origin`` named by
        the constants (the others kept); None when a premise is not ``origin``."""
        out = []
        for pf, literal in rules:
            read = self._read(pf, origin)
            atom = literal.arg if isinstance(literal, Not) else literal
            if read is None or not isinstance(atom, PredAtom):
                return None
            binding = read[1]
            out.append((not isinstance(literal, Not), PredAtom(atom.pred, tuple(
                Constant(binding[t.name]) if isinstance(t, Variable) and t.name in binding else t
                for t in atom.args))))
        return out

    def _read(self, pf: PossibilisticFormula, origin: tuple[str, ...]
              ) -> tuple[list[tuple[bool, PredAtom]], dict[str, str]] | None:
        """The premise of ``pf`` without its ``!=`` (each literal's negation and atom) and
        the constants ``origin``'s literals give its variables, when the premise is
        ``origin``'s literals in order, a variable for some constants; None otherwise.
        Made once per premise object (the rules of an evidence set share theirs), and
        equal bindings are one object (its identity keys the memo of bound conclusions)."""
        memo = (id(pf.formula.left) if isinstance(pf.formula, Implies) else id(pf.formula), origin)
        if memo in self._reads:
            return self._reads[memo]
        core = _split_distinct(pf.formula)[1]
        parts = () if not isinstance(core, Implies) else core.left.args if isinstance(core.left, And) else (core.left,)
        read = None
        if len(parts) == len(origin):
            premise: list[tuple[bool, PredAtom]] = []
            binding: dict[str, str] = {}
            for part, literal in zip(parts, origin):
                atom = part.arg if isinstance(part, Not) else part
                pred, args = split_atom(literal.removeprefix("!"))
                if (not isinstance(atom, PredAtom) or isinstance(part, Not) != literal.startswith("!")
                        or atom.pred != pred or len(atom.args) != len(args)
                        or any(binding.setdefault(t.name, c) != c if isinstance(t, Variable) else t.name != c
                               for t, c in zip(atom.args, args))):
                    break
                premise.append((isinstance(part, Not), atom))
            else:
                read = (premise, self._equal.setdefault(tuple(sorted(binding.items())), binding))
        self._reads[memo] = read
        return read


def _class(negative: bool, atom: PredAtom) -> tuple[object, ...]:
    """A premise literal up to renaming: its sign, predicate, constants, and the types of
    its variables (each by its first place)."""
    first: dict[str, int] = {}
    return (negative, atom.pred, *((t.domain, first.setdefault(t.name, len(first))) if isinstance(t, Variable)
                                   else t.name for t in atom.args))


def _carried(atom: PredAtom, renaming: dict[str, str], others: dict[str, list[str]]) -> list[PredAtom]:
    """``atom`` (a literal's conclusion) carried over to a pair: its constants renamed, each
    variable either a constant of ``others`` of its type, pairwise distinct, or left."""
    variables = list(dict.fromkeys(t for t in atom.args if isinstance(t, Variable)))
    out = []
    options: list[list[Term]] = [[v, *(Constant(c) for c in others.get(v.domain or "", []))] for v in variables]
    for choice in product(*options):
        chosen = [t.name for t in choice if isinstance(t, Constant)]
        if len(chosen) != len(set(chosen)):
            continue
        values: dict[Variable, Term] = dict(zip(variables, choice))
        out.append(PredAtom(atom.pred, tuple(
            values[t] if isinstance(t, Variable) else Constant(renaming.get(t.name, t.name)) for t in atom.args)))
    return out


def _key(positive: bool, atom: PredAtom) -> Key:
    """A bound conclusion's key: its variables named by their first place in it."""
    order: dict[Variable, Variable] = {}
    for t in atom.args:
        if isinstance(t, Variable) and t not in order:
            order[t] = Variable(f"_{len(order) + 1}", t.domain)
    args: list[Term] = [order[t] if isinstance(t, Variable) else t for t in atom.args]
    return positive, format_formula(PredAtom(atom.pred, tuple(args)))


Concluded = tuple[tuple[PossibilisticFormula, Formula], ...]
"""Rules of an evidence set, each with a literal it concludes."""


@dataclass(frozen=True)
class Digest:
    """What a digest says of a theory, before it is written: the rules per size of
    evidence set, the defaults, the single literals that change them (of ``singles``)
    and the interacting pairs (of ``pairs``, ``uncompared`` of them not compared), each
    with its evidence set's literals and the rules that say so, in theory order."""

    sizes: tuple[tuple[int, int], ...]
    blocking: int
    certain: int
    other: int
    defaults: Concluded
    singles: int
    changes: tuple[tuple[tuple[str, ...], Concluded], ...]
    pairs: int
    uncompared: int
    interactions: tuple[tuple[tuple[str, ...], Concluded], ...]


def digest_of(theory: Theory) -> Digest:
    """The digest of ``theory``, as data (see the module)."""
    groups, blocking, certain, other = _by_origin(theory)
    sizes = tuple((n, sum(len({id(pf) for pf, _ in g.rules}) for o, g in groups.items() if len(o) == n))
                  for n in sorted({len(o) for o in groups}))
    key = _Keys(theory)
    defaults = groups.get((), _Group()).keys(key) if not theory.types else {
        _key(*_signed(lit)): (pf, lit) for pf, lit in groups.get((), _Group()).rules}
    default = _Defaults(theory, groups.get((), _Group()), key)

    changes: dict[str, dict[Key, tuple[PossibilisticFormula, Formula]]] = {}
    shown: list[tuple[tuple[str, ...], Concluded]] = []
    for origin, group in groups.items():
        if len(origin) != 1:
            continue
        changed = {k: v for k, v in group.keys(key).items() if not default(*v)}
        changes[origin[0]] = changed
        if changed:
            shown.append((origin, tuple(changed.values())))
    pairs, uncompared = _interactions(theory, groups, key, default, changes)
    return Digest(sizes=sizes, blocking=blocking, certain=certain, other=other, defaults=tuple(defaults.values()),
                  singles=sum(1 for o in groups if len(o) == 1), changes=tuple(shown),
                  pairs=sum(1 for o in groups if len(o) == 2), uncompared=uncompared, interactions=tuple(pairs))


def _signed(literal: Formula) -> tuple[bool, PredAtom]:
    """A lifted rule's literal as its sign and its atom."""
    atom = literal.arg if isinstance(literal, Not) else literal
    if not isinstance(atom, PredAtom):
        raise TypeError(f"not a first-order literal: {literal!r}")
    return not isinstance(literal, Not), atom


class _Defaults:
    """Whether a rule's conclusion is one the rules of no evidence (the defaults) give.

    In a ground theory: the same literal.  In a lifted one: an instance of a default's
    literal, whose variables are any objects of their types, pairwise distinct where its
    ``!=`` say so; a conclusion's own variables are objects its premise does not name,
    pairwise distinct (``f(p1,p1)`` gives ``f(A,A)`` but not ``f(A,p2)``: read with every
    variable alike, it did, and the pair ``{!f(A,A), !s(A)}`` concluding ``f(A,p2)`` was
    taken for a default).
    """

    def __init__(self, theory: Theory, group: _Group, key: _Keys) -> None:
        self.key = key
        self.lifted = bool(theory.types)
        self.ground = set(group.keys(key)) if not self.lifted else set()
        self.types = {name: set(constants) for name, constants in theory.types}
        # per sign and predicate: each default's atom and the pairs of its variables it keeps apart
        self.patterns: dict[tuple[bool, str], list[tuple[PredAtom, set[frozenset[str]]]]] = {}
        for pf, lit in group.rules if self.lifted else ():
            positive, atom = _signed(lit)
            apart = {frozenset((d.arg.left.name, d.arg.right.name)) for d in _split_distinct(pf.formula)[0]
                     if isinstance(d.arg, Equals) and isinstance(d.arg.left, Variable)
                     and isinstance(d.arg.right, Variable)}
            self.patterns.setdefault((positive, atom.pred), []).append((atom, apart))

    def __call__(self, pf: PossibilisticFormula, literal: Formula) -> bool:
        if not self.lifted:
            return self.key(pf, literal) in self.ground
        positive, atom = _signed(literal)
        return any(self._instance(atom, default, apart) for default, apart in self.patterns.get((positive, atom.pred), ()))

    def _instance(self, atom: PredAtom, default: PredAtom, apart: set[frozenset[str]]) -> bool:
        """Whether every object ``atom`` stands for is an instance of ``default``."""
        if len(atom.args) != len(default.args):
            return False
        image: dict[str, Term] = {}
        for d, t in zip(default.args, atom.args):
            if isinstance(d, Variable):
                if image.setdefault(d.name, t) != t or not self._of_type(t, d.domain):
                    return False
            elif not (isinstance(t, Constant) and t.name == d.name):
                return False  # (a variable is any of several objects; a constant one)
        return all(image[x] != image[y] for x, y in (tuple(pair) for pair in apart if len(pair) == 2)
                   if x in image and y in image)

    def _of_type(self, t: Term, domain: str | None) -> bool:
        if isinstance(t, Variable):
            return t.domain == domain
        return domain is None or t.name in self.types.get(domain, {t.name})


def _by_origin(theory: Theory) -> tuple[dict[tuple[str, ...], _Group], int, int, int]:
    """The default rules by the evidence they are for (its literals), and how many rules
    are blocking, certain, or neither default nor blocking."""
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
    return groups, blocking, certain, other


def _interactions(theory: Theory, groups: dict[tuple[str, ...], _Group], key: _Keys,
                  default: Callable[[PossibilisticFormula, Formula], bool],
                  changes: dict[str, dict[Key, tuple[PossibilisticFormula, Formula]]]
                  ) -> tuple[list[tuple[tuple[str, ...], Concluded]], int]:
    """What pairs of observations conclude that neither does alone (nor the defaults),
    and how many pairs could not be compared with their parts."""
    pairs: list[tuple[tuple[str, ...], Concluded]] = []
    uncompared = 0
    bound = _Bound({origin[0]: groups[origin] for origin in groups if len(origin) == 1}, changes) \
        if theory.types else None
    for origin, group in groups.items():
        if len(origin) != 2:
            continue
        if bound is None:  # (a ground literal without rules of its own concludes nothing the defaults do not)
            expected_keys = [k for part in origin for k in changes.get(part, {})]
            said = group.keys(key)
        else:
            made = bound.pair(origin, group)
            if made is None:
                uncompared += 1
                continue
            expected_keys, said = made
        expected = set(expected_keys)  # (the singles' changes)
        new = tuple((pf, lit) for (positive, atom), (pf, lit) in said.items()
                    if _new((positive, atom), expected, default, pf, lit))
        if new:
            pairs.append((origin, new))
    return pairs, uncompared


def _new(key: Key, expected: set[Key], default: Callable[[PossibilisticFormula, Formula], bool],
         pf: PossibilisticFormula, lit: Formula) -> bool:
    """Whether a pair's conclusion is more than its parts' changes give: a change of a
    part's that the other part's does not contradict is given (where the two contradict
    each other, what the pair concludes is its own: that took the later part's, so a
    pair's verdict hung on the order its literals were written in), and so is a default
    that neither part changes."""
    positive, atom = key
    if key in expected:
        return (not positive, atom) in expected
    return (not positive, atom) in expected or not default(pf, lit)


def digest_text(theory: Theory, flags: Iterable[Flag] = (), max_pairs: int = DIGEST_PAIRS,
                max_singles: int = DIGEST_SINGLES) -> str:
    """The digest of ``theory`` (see the module): flagged rules first (``flags``, from
    :func:`~.show.overturned_readings` and :func:`~.show.off_target_rules`), then the
    defaults, the single observations that change them, the interacting pairs and the
    rules per level band (at most ``max_pairs`` flagged rules and pairs listed, the rest
    counted)."""
    r = digest_of(theory)
    lines = [f"{counted(len(theory), 'rule')} in {counted(len(theory.levels()), 'level')}: "
             + ", ".join(f"{count:,} for {_sets(n)}" for n, count in r.sizes)
             + f"; {r.blocking:,} blocking, {r.certain:,} certain, {r.other:,} other"]
    flagged = list(flags)
    if flagged:
        lines += ["", f"flagged ({flagged_count(len({id(flag.rule) for flag in flagged}), len(flagged))}):"]
        lines += [f"  {_rule(theory, flag.rule)}  ! {flag.message}" for flag in flagged[:max_pairs]]
        if len(flagged) > max_pairs:
            lines.append(f"  ... and {len(flagged) - max_pairs} more flagged rules (show lists every one)")
    lines += ["", f"with no evidence ({_count(len({id(pf) for pf, _ in r.defaults}))}):"]
    lines += [f"  {line}" for line in default_lines(theory, r)] or ["  nothing"]
    shown = _observations([_line(theory, origin, concluded) for origin, concluded in r.changes])
    lines += ["", f"one observation that changes them ({len(r.changes)} of {r.singles}):"]
    lines += shown[:max_singles] or ["  none"]
    if len(shown) > max_singles:
        lines.append(f"  ... and {len(shown) - max_singles} more lines of them (show lists every rule)")
    outside = _outside_focus(theory, [origin for origin, _ in r.changes + r.interactions])
    if outside:
        lines.append(f"  (observations of {', '.join(outside)} are among them though the conversion's "
                     "--evidence-preds leaves them out: its evidence sets range over the query predicates too, so "
                     "that it answers the questions about them exactly: docs/focus.md)")
    pairs = [f"  if {body}: {said}" for body, said in (_line(theory, origin, concluded)
                                                      for origin, concluded in r.interactions[:max_pairs])]
    lines += ["", f"two observations that do what their parts do not ({len(r.interactions)} of "
              f"{r.pairs - r.uncompared} compared pairs{f'; {r.uncompared} not compared' if r.uncompared else ''}):"]
    lines += pairs or ["  none"]
    if len(r.interactions) > max_pairs:
        lines.append(f"  ... and {len(r.interactions) - max_pairs} more pairs (show lists every rule)")
    lines += ["", "rules per level: " + "; ".join(f"{band}: {n:,}" for band, n in _bands(theory) if n)]
    return "\n".join(lines) + "\n"


def _outside_focus(theory: Theory, origins: Iterable[Sequence[str]]) -> list[str]:
    """The predicates observed in these evidence sets that the theory's conversion left
    out of its ``--evidence-preds`` (its made-by line's; none when it gives none)."""
    given = made_options(theory.made_by, "--evidence-preds")
    if not given:
        return []
    allowed = {p.strip() for p in given[-1].split(",")}
    seen = {split_atom(lit.removeprefix("!"))[0] for origin in origins for lit in origin}
    return sorted(seen - allowed)


def flagged_count(rules: int, warnings: int) -> str:
    """``3``, or ``1 rule, 3 warnings`` when some rule has several: how many rules are
    flagged (``show`` counts them so too)."""
    return f"{rules:,}" if warnings == rules else f"{counted(rules, 'rule')}, {counted(warnings, 'warning')}"


def default_lines(theory: Theory, digest: Digest | None = None) -> list[str]:
    """What holds with no evidence, as the digest lists it (one line per sign,
    predicate and arguments but the last; ``digest``: the theory's, when made already)."""
    return _grouped(theory, [lit for _, lit in (digest or digest_of(theory)).defaults])


def _count(n: int) -> str:
    return f"{n:,} rule{'' if n == 1 else 's'}"


def _sets(n: int) -> str:
    return "no evidence" if n == 0 else "one literal" if n == 1 else "two literals" if n == 2 else f"{n} literals"


def _rule(theory: Theory, pf: PossibilisticFormula) -> str:
    return f"{render_theory_rule(pf, theory)}  [{theory.steps_name(pf.steps)}]"


def _line(theory: Theory, origin: Sequence[str], concluded: Iterable[tuple[PossibilisticFormula, Formula]]
          ) -> tuple[str, str]:
    """``E`` and ``c1, c2 [level]; c3 [level]  (p1 != p2)``: what the rules of ``E`` conclude."""
    by_level: dict[Level, list[str]] = {}
    distinct: list[str] = []
    body = ""
    for pf, lit in concluded:
        found, core = _split_distinct(pf.formula)
        distinct += [format_formula(d) for d in found if format_formula(d) not in distinct]
        if not body and isinstance(core, Implies):
            body = _text(theory, core.left)
        by_level.setdefault(pf.steps, []).append(_text(theory, lit))
    return body or ", ".join(origin), _said(theory, by_level, distinct)


def _said(theory: Theory, by_level: Mapping[Level, list[str]], distinct: Sequence[str]) -> str:
    """What a line concludes: per level its literals (grouped: ``!object(c1,Y) for Y in
    Fork, Plate``), then the ``!=`` its rules have."""
    said = "; ".join(f"{', '.join(grouped_literals(texts, 'Y', None))} [{theory.steps_name(level)}]"
                     for level, texts in sorted(by_level.items()))
    return said + (f"  ({', '.join(distinct)})" if distinct else "")


def _observations(lines: Sequence[tuple[str, str]]) -> list[str]:
    """``  if E: what it concludes`` per line; single observations of one sign, predicate
    and arguments but the last that conclude the same, on one line (``if
    goggles_Text(c1,X) for X in A, B (2 observations, each alone): ...``)."""
    groups: dict[tuple[object, ...], list[tuple[str, str]]] = {}
    for body, said in lines:
        single = " ^ " not in body and ", " not in body and "(" in body
        pred, args = split_atom(body.removeprefix("!")) if single else ("", ())
        key = (said, body.startswith("!"), pred, args[:-1]) if single and args else (said, body)
        groups.setdefault(key, []).append((body, said))
    out = []
    for members in groups.values():
        if len(members) == 1:
            out.append(f"  if {members[0][0]}: {members[0][1]}")
        else:
            grouped = grouped_literals([body for body, _ in members], "X", None)[0]
            out.append(f"  if {grouped} ({len(members)} observations, each alone): {members[0][1]}")
    return out


def _grouped(theory: Theory, literals: Sequence[Formula]) -> list[str]:
    """Default conclusions, those of one sign, predicate and arguments but the last on one line."""
    return grouped_literals([_text(theory, lit) for lit in literals])


def grouped_literals(texts: Sequence[str], name: str = "X", count: str | None = "rules") -> list[str]:
    """Literals (as text), those of one sign, predicate and arguments but the last written
    once, their last arguments listed (``!object(c1,X) for X in Fork, Plate (2 rules)``;
    ``name``: the variable, ``count``: what the count counts, None for no count)."""
    rows: dict[tuple[bool, str, tuple[str, ...]], list[str]] = {}
    for text in texts:
        pred, args = split_atom(text.removeprefix("!"))
        rows.setdefault((not text.startswith("!"), pred, args[:-1]), []).append(args[-1] if args else "")
    out = []
    for (positive, pred, first), lasts in sorted(rows.items(), key=lambda item: (not item[0][0], item[0][1:])):
        sign = "" if positive else "!"
        if len(lasts) == 1:
            out.append(f"{sign}{pred}({','.join((*first, lasts[0]))})" if lasts[0] or first else f"{sign}{pred}")
        else:
            counted_as = f" ({len(lasts)} {count})" if count else ""
            out.append(f"{sign}{pred}({','.join((*first, name))}) for {name} in {', '.join(lasts)}{counted_as}")
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
