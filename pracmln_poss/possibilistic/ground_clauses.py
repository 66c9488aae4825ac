"""The groundings of a first-order rule straight as clauses over the atoms' numbers.

Grounding a rule as a formula rebuilds it once per binding of its variables, which is
most of the time a large lifted theory takes to filter (CORA at k = 3: 3.7 million
groundings).  A rule in the shape the transformations write (a conjunction of literals
and ``!=`` constraints implying a literal or a conjunction of them, or any formula whose
CNF over its atoms and equalities stays small) is put in CNF once, over its leaves;
each binding then only decides the equalities and looks up the atoms.  The clauses are
those of the conjunction of the groundings, tautologies left out: the same models.

The transformations' rules are ``premise => conclusion``, literals on both sides, and
the rules of one evidence set share their premise (a read theory's rules share the
object): its literals under each binding are worked out once for all of them, which
takes grounding a 371,041-rule theory from 8 s to 2 s.  :func:`rule_contents` gives
every rule's clauses, what questions are answered on.
"""

from __future__ import annotations

__all__ = ["ClauseGrounder", "MAX_TEMPLATE_CLAUSES", "rule_contents"]

import itertools
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from typing import NamedTuple

from ..errors import ModelError
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
    Term,
    Truth,
    Variable,
    conjunction,
)
from ..logic.syntax import atom_name
from .lifted_theory import LiftedTheory

MAX_TEMPLATE_CLAUSES = 64
"""A rule whose CNF over its leaves would have more clauses is grounded as a formula."""

Leaf = Atom | PredAtom | Equals


Cnf = list[list[tuple[bool, Leaf]]]
Cnfs = tuple[NodeMemo[Cnf | None], NodeMemo[Cnf | None]]
"""The CNFs of nodes (of their negation first, then of themselves), remembered by the
node's identity, for rules that share their sides (:func:`_cnf_memo`)."""


def _cnf(f: Formula, positive: bool, memo: Cnfs | None = None) -> Cnf | None:
    """The CNF of ``f`` (of its negation when not ``positive``) over its leaves, by
    distribution; None for a quantifier, an equivalence or a CNF that grows too large.
    With ``memo``, each connective's CNF is made once; what it gives is shared, not to
    be changed."""
    if memo is None or isinstance(f, (Atom, PredAtom, Equals, Truth)):
        return _cnf_of(f, positive, memo)
    return memo[positive](f)


def _cnf_memo() -> Cnfs:
    def by_sign(positive: bool) -> NodeMemo[Cnf | None]:
        return NodeMemo(lambda node: _cnf_of(node, positive, memo))

    memo = (by_sign(False), by_sign(True))
    return memo


def _cnf_of(f: Formula, positive: bool, memo: Cnfs | None) -> Cnf | None:
    if isinstance(f, (Atom, PredAtom, Equals)):
        return [[(positive, f)]]
    if isinstance(f, Truth):
        return [] if f.value == positive else [[]]
    if isinstance(f, Not):
        return _cnf(f.arg, not positive, memo)
    if isinstance(f, Implies):
        parts: Sequence[tuple[Formula, bool]] = ((f.left, not positive), (f.right, positive))
        conjoined = not positive  # (a => b is !a v b; its negation a ^ !b)
    elif isinstance(f, (And, Or)):
        parts = [(a, positive) for a in f.args]
        conjoined = isinstance(f, And) == positive
    else:
        return None
    made = [_cnf(g, sign, memo) for g, sign in parts]
    if any(m is None for m in made):
        return None
    cnfs = [m for m in made if m is not None]
    if conjoined:
        return [clause for m in cnfs for clause in m]
    out: list[list[tuple[bool, Leaf]]] = [[]]
    for m in cnfs:  # (a disjunction of CNFs: every way of picking a clause of each)
        out = [a + b for a in out for b in m]
        if len(out) > MAX_TEMPLATE_CLAUSES:
            return None
    return out


class _Premise(NamedTuple):
    """What :meth:`ClauseGrounder._implication` keeps of a premise: the clause literals
    (sign, leaf) it gives (its conjuncts negated) and, per variables (name and type) of
    the rules it is the premise of, their bindings and slots."""

    literals: tuple[tuple[bool, Leaf], ...]
    bindings: dict[tuple[tuple[str, str | None], ...], tuple[list[tuple[str, ...]], dict[str, int]]]


def _distinct_pairs(f: Formula) -> tuple[tuple[Term, Term], ...]:
    """The ``t != u`` conjuncts of a rule's premise: a binding that makes one of them
    equal makes the premise false, and the grounding a tautology."""
    if not isinstance(f, Implies):
        return ()
    parts = f.left.args if isinstance(f.left, And) else (f.left,)
    return tuple((p.arg.left, p.arg.right) for p in parts if isinstance(p, Not) and isinstance(p.arg, Equals))


def _bindings(f: Formula, variables: Sequence[Variable], types: dict[str, tuple[str, ...]]
             ) -> Iterator[tuple[str, ...]]:
    """The bindings of ``variables`` (in :func:`itertools.product`'s order) but those
    that :func:`_distinct_pairs` makes tautologies."""
    slot = {v.name: i for i, v in enumerate(variables)}
    pairs = [(slot.get(a.name) if isinstance(a, Variable) else None, a.name,
              slot.get(b.name) if isinstance(b, Variable) else None, b.name) for a, b in _distinct_pairs(f)]
    for values in itertools.product(*(types[v.domain or ""] for v in variables)):
        if any((a if i is None else values[i]) == (b if j is None else values[j]) for i, a, j, b in pairs):
            continue
        yield values


class ClauseGrounder:
    """Grounds the rules of one theory as clauses (see the module).

    :param types: type name -> its constants (the theory's).
    :param numbers: atom name -> its number (from 1).
    """

    def __init__(self, types: dict[str, tuple[str, ...]], numbers: dict[str, int]) -> None:
        self.types = types
        self.numbers = numbers
        # (what rules share, by node identity, each entry holding its node: the CNF of
        # each side of their =>, and each leaf's value per binding of its own variables)
        self._cnfs = _cnf_memo()
        self._leaves: dict[int, Leaf] = {}
        self._values: dict[tuple[int, object], int | bool] = {}
        # (for rules `premise => conclusion`: their bindings once per variables, each
        # binding one tuple kept here, so that its identity keys the memos below)
        self._binding_lists: dict[object, tuple[list[tuple[str, ...]], dict[str, int]]] = {}
        self._premises: dict[int, tuple[Formula, _Premise | None]] = {}
        self._conclusions: dict[int, tuple[Formula, tuple[tuple[bool, Leaf], ...] | None]] = {}
        self._grounded_premises: dict[tuple[int, int], tuple[dict[int, None], bool]] = {}
        self._by_binding: dict[tuple[int, int], int | bool] = {}

    def clauses(self, f: Formula, variables: Sequence[Variable]
                ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]] | None:
        """The clauses of every grounding of ``f`` over ``variables`` (its variables, by
        name), each clause once, and those of its first grounding that is not a tautology
        (none: every one is); None when ``f`` is not in a shape :func:`_cnf` takes.

        :raises ModelError: for a rule that mentions an atom outside the theory's atoms.
        """
        fast = self._implication(f, variables)
        if fast is not None:
            return fast
        made = _cnf(f, True, self._cnfs)
        if made is None:
            return None
        slot = {v.name: i for i, v in enumerate(variables)}
        index: dict[int, int] = {}
        leaves: list[Leaf] = []
        for part in made:
            for _, leaf in part:
                if id(leaf) not in index:
                    index[id(leaf)] = len(leaves)
                    leaves.append(leaf)
        template = [[(sign, index[id(leaf)]) for sign, leaf in part] for part in made]
        # (a leaf's value depends on its own variables only: each is worked out once per
        # binding of those)
        keys = [_key_of(leaf, slot) for leaf in leaves]
        for leaf in leaves:
            self._leaves.setdefault(id(leaf), leaf)
        ids = [id(leaf) for leaf in leaves]
        values_of = self._values
        out: dict[tuple[int, ...], None] = {}
        first: list[tuple[int, ...]] | None = None
        for values in _bindings(f, variables, self.types):
            own: list[tuple[int, ...]] = []
            decided: list[int | bool] = []
            for leaf, key, at in zip(leaves, keys, ids):
                sub = (at, key(values))
                value = values_of.get(sub)
                if value is None:
                    value = values_of[sub] = self._leaf(leaf, slot, values)
                decided.append(value)
            for row in template:
                lits: dict[int, None] = {}
                for sign, at in row:
                    value = decided[at]
                    if value is True or value is False:
                        if value == sign:
                            break
                        continue
                    lit = value if sign else -value
                    if -lit in lits:
                        break
                    lits[lit] = None
                else:
                    out[tuple(lits)] = None
                    if first is None:
                        own.append(tuple(lits))
            if first is None and own:
                first = own
        return list(out), first or []

    def _implication(self, f: Formula, variables: Sequence[Variable]
                     ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]] | None:
        """:meth:`clauses` of a rule ``premise => conclusion`` (literals and equalities
        on the left, literals on the right: the transformations' rules), the same
        clauses in the same order, with what a binding makes of the premise worked out
        once per premise object (the rules of an evidence set share theirs); None for
        any other shape."""
        if type(f) is not Implies:
            return None
        premise = self._premise(f.left)
        conclusion = self._conclusion(f.right)
        if premise is None or conclusion is None:
            return None
        bindings, slot = self._bindings_of(f, premise, variables)
        grounded = self._grounded_premises
        by_binding = self._by_binding
        at = id(f.left)
        out: dict[tuple[int, ...], None] = {}
        first: list[tuple[int, ...]] | None = None
        for values in bindings:
            key = (at, id(values))
            made = grounded.get(key)
            if made is None:
                made = grounded[key] = self._ground_premise(premise.literals, slot, values)
            lits, tautology = made
            own: list[tuple[int, ...]] = []
            for sign, leaf in conclusion:
                value = by_binding.get((id(leaf), id(values)))
                if value is None:
                    value = self._leaf_value(leaf, slot, values)
                if tautology:
                    continue
                if value is True or value is False:
                    if value == sign:
                        continue
                    clause = tuple(lits)
                else:
                    lit = value if sign else -value
                    if -lit in lits:
                        continue
                    clause = tuple(lits) if lit in lits else (*lits, lit)
                out[clause] = None
                if first is None:
                    own.append(clause)
            if first is None and own:
                first = own
        return list(out), first or []

    def _premise(self, f: Formula) -> _Premise | None:
        """A premise's clause literals and its bindings' lists (None: not a conjunction
        of literals and equalities), made once per premise object."""
        got = self._premises.get(id(f))
        if got is not None and got[0] is f:
            return got[1]
        found = _conjuncts(f)
        value = None if found is None else _Premise(tuple((not sign, leaf) for sign, leaf in found), {})
        self._premises[id(f)] = (f, value)
        return value

    def _conclusion(self, f: Formula) -> tuple[tuple[bool, Leaf], ...] | None:
        """:func:`_conjuncts` of a conclusion, made once per conclusion object."""
        got = self._conclusions.get(id(f))
        if got is not None and got[0] is f:
            return got[1]
        value = _conjuncts(f)
        self._conclusions[id(f)] = (f, value)
        return value

    def _bindings_of(self, f: Formula, premise: _Premise, variables: Sequence[Variable]
                     ) -> tuple[list[tuple[str, ...]], dict[str, int]]:
        """:func:`_bindings` of a rule and its variables' slots, one list per variables
        and ``!=`` pairs (a tuple's identity then names a binding: the memos' keys)."""
        names = tuple([(v.name, v.domain) for v in variables])
        got = premise.bindings.get(names)
        if got is None:
            key = (names, _distinct_pairs(f))
            got = self._binding_lists.get(key)
            if got is None:
                got = self._binding_lists[key] = (list(_bindings(f, variables, self.types)),
                                                  {v.name: i for i, v in enumerate(variables)})
            premise.bindings[names] = got
        return got

    def _ground_premise(self, premise: tuple[tuple[bool, Leaf], ...], slot: dict[str, int],
                        values: tuple[str, ...]) -> tuple[dict[int, None], bool]:
        """A premise's clause literals under one binding (without repeats), and whether
        they make every clause of the rule a tautology."""
        lits: dict[int, None] = {}
        tautology = False
        for sign, leaf in premise:  # (every leaf looked up: an atom outside the theory is always found)
            value = self._leaf_value(leaf, slot, values)
            if tautology:
                continue
            if value is True or value is False:
                tautology = value == sign
                continue
            lit = value if sign else -value
            if -lit in lits:
                tautology = True
            lits[lit] = None
        return lits, tautology

    def _leaf_value(self, leaf: Leaf, slot: dict[str, int], values: tuple[str, ...]) -> int | bool:
        """:meth:`_leaf`, remembered per leaf object and binding tuple."""
        key = (id(leaf), id(values))
        value = self._by_binding.get(key)
        if value is None:
            self._leaves.setdefault(id(leaf), leaf)
            value = self._by_binding[key] = self._leaf(leaf, slot, values)
        return value

    def _leaf(self, leaf: Leaf, slot: dict[str, int], values: tuple[str, ...]) -> int | bool:
        if isinstance(leaf, Atom):
            return leaf.index
        if isinstance(leaf, Equals):
            return _name(leaf.left, slot, values) == _name(leaf.right, slot, values)
        args = tuple(_name(t, slot, values) for t in leaf.args)
        number = self.numbers.get(atom_name(leaf.pred, args))
        if number is None:
            raise ModelError(f"rule mentions {atom_name(leaf.pred, args)}, an atom outside the model")
        return number


def rule_contents(theory: LiftedTheory) -> list[list[tuple[int, ...]] | Formula]:
    """Per rule of ``theory``, the ground clauses of all its groundings
    (:meth:`ClauseGrounder.clauses`), or for a rule in no shape that takes, the
    conjunction of its groundings: the rules' models without a formula per grounding.

    :raises ModelError: for a rule that mentions an atom outside the theory's atoms.
    """
    grounder = ClauseGrounder(dict(theory.types), theory.atom_numbers)
    out: list[list[tuple[int, ...]] | Formula] = []
    for pf, variables in zip(theory.formulas, theory.rule_variables):
        made = grounder.clauses(pf.formula, variables)
        out.append(conjunction(theory.groundings(pf)) if made is None else made[0])
    return out


def _conjuncts(f: Formula) -> tuple[tuple[bool, Leaf], ...] | None:
    """(sign, leaf) of a literal or equality, or of each member of a conjunction of
    them; None for any other formula."""
    parts = f.args if type(f) is And else (f,)
    out = []
    for part in parts:
        sign = True
        if type(part) is Not:
            sign, part = False, part.arg
        if type(part) is not Atom and type(part) is not PredAtom and type(part) is not Equals:
            return None
        out.append((sign, part))
    return tuple(out)


def _name(t: Term, slot: dict[str, int], values: tuple[str, ...]) -> str:
    return values[slot[t.name]] if isinstance(t, Variable) else t.name


def _key_of(leaf: Leaf, slot: dict[str, int]) -> Callable[[tuple[str, ...]], object]:
    """What of a binding a leaf's value depends on: the values of its own variables."""
    terms = () if isinstance(leaf, Atom) else (leaf.left, leaf.right) if isinstance(leaf, Equals) else leaf.args
    used = sorted({slot[t.name] for t in terms if isinstance(t, Variable)})
    if not used:
        return lambda values: ()
    return itemgetter(*used)
