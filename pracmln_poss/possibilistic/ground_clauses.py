"""The groundings of a first-order rule straight as clauses over the atoms' numbers.

Grounding a rule as a formula rebuilds it once per binding of its variables, which is
most of the time a large lifted theory takes to filter (CORA at k = 3: 3.7 million
groundings).  A rule in the shape the transformations write (a conjunction of literals
and ``!=`` constraints implying a literal or a conjunction of them, or any formula whose
CNF over its atoms and equalities stays small) is put in CNF once, over its leaves;
each binding then only decides the equalities and looks up the atoms.  The clauses are
those of the conjunction of the groundings, tautologies left out: the same models.
"""

from __future__ import annotations

__all__ = ["ClauseGrounder", "MAX_TEMPLATE_CLAUSES"]

import itertools
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter

from ..errors import ModelError
from ..logic.formula import And, Atom, Equals, Formula, Implies, NodeMemo, Not, Or, PredAtom, Term, Truth, Variable
from ..logic.syntax import atom_name

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

    def clauses(self, f: Formula, variables: Sequence[Variable]
                ) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]] | None:
        """The clauses of every grounding of ``f`` over ``variables`` (its variables, by
        name), each clause once, and those of its first grounding that is not a tautology
        (none: every one is); None when ``f`` is not in a shape :func:`_cnf` takes.

        :raises ModelError: for a rule that mentions an atom outside the theory's atoms.
        """
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


def _name(t: Term, slot: dict[str, int], values: tuple[str, ...]) -> str:
    return values[slot[t.name]] if isinstance(t, Variable) else t.name


def _key_of(leaf: Leaf, slot: dict[str, int]) -> Callable[[tuple[str, ...]], object]:
    """What of a binding a leaf's value depends on: the values of its own variables."""
    terms = () if isinstance(leaf, Atom) else (leaf.left, leaf.right) if isinstance(leaf, Equals) else leaf.args
    used = sorted({slot[t.name] for t in terms if isinstance(t, Variable)})
    if not used:
        return lambda values: ()
    return itemgetter(*used)
