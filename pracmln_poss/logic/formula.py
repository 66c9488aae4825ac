"""Immutable formula trees, shared by ground (propositional) and first-order logic.

Connectives (:class:`Not`, :class:`And`, :class:`Or`, :class:`Implies`,
:class:`Iff`, :class:`Truth`) are common to both.  Ground formulas have
:class:`Atom` leaves holding an int (ints inside, names at the edges); first-order
formulas have :class:`PredAtom`, :class:`Equals` and :class:`Exists` nodes over
:class:`Variable` / :class:`Constant` terms (all defined here).
"""

from __future__ import annotations

__all__ = [
    "Formula",
    "Valuation",
    "Atom",
    "Not",
    "And",
    "Or",
    "Implies",
    "Iff",
    "Truth",
    "TOP",
    "BOTTOM",
    "Variable",
    "Constant",
    "Term",
    "PredAtom",
    "Equals",
    "Exists",
    "literal",
    "negate",
    "atoms_of",
    "evaluate",
    "nnf",
    "substitute_atoms",
    "shape",
    "children",
    "walk",
    "Fold",
    "Rebuild",
    "is_literal",
    "literal_of",
]

import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


@dataclass(frozen=True, slots=True)
class Atom:
    """A ground atom, by its int index (1-based, as in DIMACS)."""

    index: int


@dataclass(frozen=True, slots=True)
class Not:
    arg: Formula


@dataclass(frozen=True, slots=True)
class And:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Or:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Implies:
    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Iff:
    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Truth:
    """The constant true (``TOP``) or false (``BOTTOM``)."""

    value: bool


TOP = Truth(True)
BOTTOM = Truth(False)


@dataclass(frozen=True, slots=True)
class Variable:
    """A first-order variable; ``domain`` is its type once known."""

    name: str
    domain: str | None = None


@dataclass(frozen=True, slots=True)
class Constant:
    name: str


Term = Variable | Constant


@dataclass(frozen=True, slots=True)
class PredAtom:
    """A first-order atom ``pred(t1, ..., tn)``."""

    pred: str
    args: tuple[Term, ...]


@dataclass(frozen=True, slots=True)
class Equals:
    """``left = right`` between terms (``!(a = b)`` is written ``a != b``)."""

    left: Term
    right: Term


@dataclass(frozen=True, slots=True)
class Exists:
    variables: tuple[Variable, ...]
    body: Formula


Formula = Atom | Not | And | Or | Implies | Iff | Truth | PredAtom | Equals | Exists


def literal(lit: int) -> Formula:
    """The formula of a DIMACS-style literal (``-3`` is ``Not(Atom(3))``)."""
    return Atom(lit) if lit > 0 else Not(Atom(-lit))


def negate(f: Formula) -> Formula:
    """``not f``, removing a double negation."""
    return f.arg if isinstance(f, Not) else Not(f)


def is_literal(f: Formula) -> bool:
    return isinstance(f, Atom) or (isinstance(f, Not) and isinstance(f.arg, Atom))


def literal_of(f: Formula) -> int:
    """The DIMACS literal of a ground literal formula."""
    if isinstance(f, Atom):
        return f.index
    if isinstance(f, Not) and isinstance(f.arg, Atom):
        return -f.arg.index
    raise TypeError(f"not a ground literal: {f!r}")


def children(f: Formula) -> tuple[Formula, ...]:
    """The immediate subformulas of ``f``."""
    if isinstance(f, (And, Or)):
        return f.args
    if isinstance(f, Not):
        return (f.arg,)
    if isinstance(f, (Implies, Iff)):
        return (f.left, f.right)
    if isinstance(f, Exists):
        return (f.body,)
    return ()


def walk(f: Formula) -> Iterator[Formula]:
    """Every node of ``f``, in pre-order (left to right)."""
    stack = [f]
    while stack:
        g = stack.pop()
        yield g
        stack.extend(reversed(children(g)))


def atoms_of(f: Formula) -> frozenset[int]:
    """The atom indices occurring in a ground formula."""
    out: set[int] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if isinstance(g, Atom):
            out.add(g.index)
        else:
            stack.extend(children(g))
    return frozenset(out)


T = TypeVar("T")


class Fold(Generic[T]):
    """The one walk over a formula tree: bottom up, each node's method given the node and
    what its subformulas folded to (an ``And``'s or ``Or``'s lazily, in order, so that a
    fold may stop early), subformulas left to right.

    A subclass defines the methods of the nodes it takes; the others refuse the node
    with a :class:`TypeError` saying what the fold could not do (``doing``).
    """

    doing = "fold"

    def __call__(self, f: Formula) -> T:
        # type(f) is, not isinstance or match: this runs once per node of every formula
        # (the leaves and the connectives most met first: a ground clause's Or and its atoms)
        if type(f) is Atom:
            return self.atom(f)
        if type(f) is Not:
            return self.not_(f, self(f.arg))
        if type(f) is Or:
            return self.or_(f, map(self, f.args))
        if type(f) is And:
            return self.and_(f, map(self, f.args))
        if type(f) is Implies:
            return self.implies(f, self(f.left), self(f.right))
        if type(f) is Iff:
            return self.iff(f, self(f.left), self(f.right))
        if type(f) is Truth:
            return self.truth(f)
        if type(f) is PredAtom:
            return self.pred_atom(f)
        if type(f) is Equals:
            return self.equals(f)
        if type(f) is Exists:
            return self.exists(f, self(f.body))
        raise TypeError(f"not a formula: {f!r}")

    def refuse(self, f: Formula) -> T:
        raise TypeError(f"cannot {self.doing} {f!r}")

    def atom(self, f: Atom) -> T:
        return self.refuse(f)

    def truth(self, f: Truth) -> T:
        return self.refuse(f)

    def pred_atom(self, f: PredAtom) -> T:
        return self.refuse(f)

    def equals(self, f: Equals) -> T:
        return self.refuse(f)

    def not_(self, f: Not, arg: T) -> T:
        return self.refuse(f)

    def and_(self, f: And, parts: Iterator[T]) -> T:
        return self.refuse(f)

    def or_(self, f: Or, parts: Iterator[T]) -> T:
        return self.refuse(f)

    def implies(self, f: Implies, left: T, right: T) -> T:
        return self.refuse(f)

    def iff(self, f: Iff, left: T, right: T) -> T:
        return self.refuse(f)

    def exists(self, f: Exists, body: T) -> T:
        return self.refuse(f)


class Rebuild(Fold[Formula]):
    """The fold that gives the tree back: leaves as they are, each connective over its
    rebuilt subformulas; a subclass replaces the leaves it means to."""

    doing = "rebuild"

    def atom(self, f: Atom) -> Formula:
        return f

    def truth(self, f: Truth) -> Formula:
        return f

    def pred_atom(self, f: PredAtom) -> Formula:
        return f

    def equals(self, f: Equals) -> Formula:
        return f

    def not_(self, f: Not, arg: Formula) -> Formula:
        return Not(arg)

    def and_(self, f: And, parts: Iterator[Formula]) -> Formula:
        return And(tuple(parts))

    def or_(self, f: Or, parts: Iterator[Formula]) -> Formula:
        return Or(tuple(parts))

    def implies(self, f: Implies, left: Formula, right: Formula) -> Formula:
        return Implies(left, right)

    def iff(self, f: Iff, left: Formula, right: Formula) -> Formula:
        return Iff(left, right)

    def exists(self, f: Exists, body: Formula) -> Formula:
        return Exists(f.variables, body)


class Valuation(Protocol):
    """Anything indexed by atom int giving a truth value (a list, a dict, a MAP world)."""

    def __getitem__(self, atom: int, /) -> bool: ...


def evaluate(f: Formula, world: Valuation | Sequence[bool] | Mapping[int, bool]) -> bool:
    """Truth of a ground formula in ``world`` (indexed by atom int)."""
    return _Evaluate(world)(f)


class _Evaluate(Fold[bool]):
    doing = "evaluate non-ground formula"

    def __init__(self, world: Valuation | Sequence[bool] | Mapping[int, bool]) -> None:
        self.world = world

    def atom(self, f: Atom) -> bool:
        return bool(self.world[f.index])

    def truth(self, f: Truth) -> bool:
        return f.value

    def not_(self, f: Not, arg: bool) -> bool:
        return not arg

    def and_(self, f: And, parts: Iterator[bool]) -> bool:
        return all(parts)

    def or_(self, f: Or, parts: Iterator[bool]) -> bool:
        return any(parts)

    def implies(self, f: Implies, left: bool, right: bool) -> bool:
        return (not left) or right

    def iff(self, f: Iff, left: bool, right: bool) -> bool:
        return left == right


def shape(f: Formula) -> tuple[str, tuple[int, ...]]:
    """The tree of ``f`` with its atoms numbered by first occurrence (a key two formulas
    share exactly when they are the same tree over other atoms), and those atoms in
    that order: the groundings of one template have one shape."""
    atoms: dict[int, int] = {}
    return _Shape(atoms)(f), tuple(atoms)


class _Shape(Fold[str]):
    doing = "take the shape of non-ground formula"

    def __init__(self, atoms: dict[int, int]) -> None:
        self.atoms = atoms  # (numbered as met: the fold goes left to right)

    def atom(self, f: Atom) -> str:
        return f"a{self.atoms.setdefault(f.index, len(self.atoms))}"

    def truth(self, f: Truth) -> str:
        return "T" if f.value else "F"

    def not_(self, f: Not, arg: str) -> str:
        return "!" + arg

    def and_(self, f: And, parts: Iterator[str]) -> str:
        return "&(" + "".join(p + "," for p in parts) + ")"

    def or_(self, f: Or, parts: Iterator[str]) -> str:
        return "|(" + "".join(p + "," for p in parts) + ")"

    def implies(self, f: Implies, left: str, right: str) -> str:
        return f">({left},{right})"

    def iff(self, f: Iff, left: str, right: str) -> str:
        return f"=({left},{right})"


def compile_ground(f: Formula) -> Callable[[Sequence[bool]], bool]:
    """:func:`evaluate` for one formula as a Python function of the world (a sequence
    of bools indexed by atom int): the search evaluates the same formulas millions of times.

    Formulas of one shape (the same tree over other atoms: the groundings of one
    template) share one compiled body; each gets its atoms as default arguments."""
    atoms: dict[int, str] = {}
    source = _python(f, atoms)
    code = _SHAPES.get(source)
    if code is None:
        parameters = "".join(f", {name}" for name in atoms.values())
        code = compile(f"lambda v{parameters}: {source}", "<formula>", "eval").co_consts[0]
        if len(_SHAPES) < MAX_SHAPES:
            _SHAPES[source] = code
    check: Callable[[Sequence[bool]], bool] = types.FunctionType(code, {"__builtins__": {}}, None, tuple(atoms))
    return check


MAX_SHAPES = 10_000
"""Compiled formula shapes kept (a model has one per template and sign pattern)."""

_SHAPES: dict[str, types.CodeType] = {}


def _python(f: Formula, atoms: dict[int, str]) -> str:
    """Python source of ``f`` over ``v``, an atom ``a`` written ``v[x_i]`` where ``x_i``
    is ``atoms[a]`` (named in order of first occurrence, added here)."""
    return _Python(atoms)(f)


class _Python(Fold[str]):
    doing = "evaluate non-ground formula"

    def __init__(self, atoms: dict[int, str]) -> None:
        self.atoms = atoms

    def atom(self, f: Atom) -> str:
        name = self.atoms.get(f.index)
        if name is None:
            name = self.atoms[f.index] = f"x{len(self.atoms)}"
        return f"v[{name}]"

    def truth(self, f: Truth) -> str:
        return "True" if f.value else "False"

    def not_(self, f: Not, arg: str) -> str:
        return f"(not {arg})"

    def and_(self, f: And, parts: Iterator[str]) -> str:
        return "(" + " and ".join(parts) + ")" if f.args else "True"

    def or_(self, f: Or, parts: Iterator[str]) -> str:
        return "(" + " or ".join(parts) + ")" if f.args else "False"

    def implies(self, f: Implies, left: str, right: str) -> str:
        return f"((not {left}) or {right})"

    def iff(self, f: Iff, left: str, right: str) -> str:
        return f"({left} == {right})"


def nnf(f: Formula, positive: bool = True) -> Formula:
    """Negation normal form of a ground formula (only And, Or, literals, Truth).

    ``positive=False`` gives the NNF of ``not f``.
    """
    g = _NNF()(f)
    return g if positive else _negated_nnf(g)


class _NNF(Fold[Formula]):
    doing = "take the NNF of non-ground formula"

    def atom(self, f: Atom) -> Formula:
        return f

    def truth(self, f: Truth) -> Formula:
        return f

    def not_(self, f: Not, arg: Formula) -> Formula:
        return _negated_nnf(arg)

    def and_(self, f: And, parts: Iterator[Formula]) -> Formula:
        return And(tuple(parts))

    def or_(self, f: Or, parts: Iterator[Formula]) -> Formula:
        return Or(tuple(parts))

    def implies(self, f: Implies, left: Formula, right: Formula) -> Formula:
        return Or((_negated_nnf(left), right))  # l => r is !l v r

    def iff(self, f: Iff, left: Formula, right: Formula) -> Formula:
        return And((Or((_negated_nnf(left), right)), Or((left, _negated_nnf(right)))))


class _NegatedNNF(Fold[Formula]):
    """The NNF of ``not g`` from the NNF ``g`` (De Morgan; a literal's sign flipped)."""

    doing = "negate a formula not in NNF"

    def atom(self, f: Atom) -> Formula:
        return Not(f)

    def truth(self, f: Truth) -> Formula:
        return Truth(not f.value)

    def not_(self, f: Not, arg: Formula) -> Formula:
        return f.arg  # (NNF: the negation of an atom)

    def and_(self, f: And, parts: Iterator[Formula]) -> Formula:
        return Or(tuple(parts))

    def or_(self, f: Or, parts: Iterator[Formula]) -> Formula:
        return And(tuple(parts))


_negated_nnf = _NegatedNNF()


def substitute_atoms(f: Formula, value: Callable[[int], bool | None]) -> Formula:
    """Partially evaluate ``f``: atoms with a known value become constants.

    The result is simplified (constants propagated, And/Or flattened and without
    repeated parts, implications kept as such); it is ``TOP``/``BOTTOM`` when the known
    atoms decide ``f``.
    """
    return _Substitute(value)(f)


class _Substitute(Fold[Formula]):
    doing = "simplify non-ground formula"

    def __init__(self, value: Callable[[int], bool | None]) -> None:
        self.value = value

    def atom(self, f: Atom) -> Formula:
        v = self.value(f.index)
        return f if v is None else Truth(v)

    def truth(self, f: Truth) -> Formula:
        return f

    def not_(self, f: Not, arg: Formula) -> Formula:
        return simplified_not(arg)

    def and_(self, f: And, parts: Iterator[Formula]) -> Formula:
        return simplified_junction(And, parts)

    def or_(self, f: Or, parts: Iterator[Formula]) -> Formula:
        return simplified_junction(Or, parts)

    def implies(self, f: Implies, left: Formula, right: Formula) -> Formula:
        return simplified_implies(left, right)

    def iff(self, f: Iff, left: Formula, right: Formula) -> Formula:
        return simplified_iff(left, right)


# The simplification rules, on parts already simplified (constants propagated): one node
# each.  substitute_atoms applies them bottom up; the grounding as it builds each node.

def simplified_not(arg: Formula) -> Formula:
    """``not arg``: a constant flipped, a double negation removed."""
    return Truth(not arg.value) if isinstance(arg, Truth) else negate(arg)


def simplified_junction(kind: type[And] | type[Or], simplified: Iterable[Formula]) -> Formula:
    """An And (decided by a false part) or Or (decided by a true part) of ``simplified``,
    flattened, without repeats; the parts after a deciding one are never made (an
    iterator's)."""
    absorbing = kind is Or
    parts: list[Formula] = []
    for g in simplified:
        if isinstance(g, Truth):
            if g.value == absorbing:
                return g
            continue
        if type(g) is kind:
            parts.extend(g.args)
        else:
            parts.append(g)
    parts = list(dict.fromkeys(parts))  # repeated parts add nothing
    if not parts:
        return Truth(not absorbing)
    if len(parts) == 1:
        return parts[0]
    return kind(tuple(parts))


def simplified_implies(left: Formula, right: Formula) -> Formula:
    """``left => right``, kept an implication unless a side is a constant."""
    if isinstance(left, Truth):
        return right if left.value else TOP
    if isinstance(right, Truth):
        return TOP if right.value else negate(left)
    return Implies(left, right)


def simplified_iff(left: Formula, right: Formula) -> Formula:
    """``left <=> right``, kept an equivalence unless a side is a constant."""
    if isinstance(left, Truth) and isinstance(right, Truth):
        return Truth(left.value == right.value)
    if isinstance(left, Truth):
        return right if left.value else negate(right)
    if isinstance(right, Truth):
        return left if right.value else negate(left)
    return Iff(left, right)


def variables_of(f: Formula) -> Iterator[Variable]:
    """Every variable occurrence of ``f`` (EXIST-bound ones included), in order."""
    for g in walk(f):
        if isinstance(g, PredAtom):
            yield from (t for t in g.args if isinstance(t, Variable))
        elif isinstance(g, Equals):
            yield from (t for t in (g.left, g.right) if isinstance(t, Variable))
        elif isinstance(g, Exists):
            yield from g.variables


def map_terms(f: Formula, term: Callable[[Term], Term]) -> Formula:
    """``f`` with every term of its atoms and equalities replaced by ``term(t)``."""
    return _MapTerms(term)(f)


class _MapTerms(Rebuild):
    def __init__(self, term: Callable[[Term], Term]) -> None:
        self.term = term

    def pred_atom(self, f: PredAtom) -> Formula:
        return PredAtom(f.pred, tuple(self.term(t) for t in f.args))

    def equals(self, f: Equals) -> Formula:
        return Equals(self.term(f.left), self.term(f.right))


def conjunction(parts: Iterable[Formula]) -> Formula:
    parts = tuple(parts)
    return parts[0] if len(parts) == 1 else (And(parts) if parts else TOP)


def disjunction(parts: Iterable[Formula]) -> Formula:
    parts = tuple(parts)
    return parts[0] if len(parts) == 1 else (Or(parts) if parts else BOTTOM)


class NodeMemo(Generic[T]):
    """A function of a formula node, remembered by the node's identity: the rules of a
    read theory share their leaves and the sides of their ``=>`` (its reader makes each
    once), and hashing a node (a frozen dataclass: its whole subtree, every time) would
    cost more than most functions of it.  An entry holds its node, so that no other node
    takes its id; past ``LIMIT`` entries the memo starts again."""

    LIMIT = 1 << 16

    def __init__(self, compute: Callable[[Formula], T]) -> None:
        self._compute = compute
        self.known: dict[int, tuple[Formula, T]] = {}

    def __call__(self, node: Formula) -> T:
        got = self.known.get(id(node))
        if got is not None and got[0] is node:
            return got[1]
        if len(self.known) >= self.LIMIT:  # (formulas built in memory may have a node per rule)
            self.known.clear()
        value = self._compute(node)
        self.known[id(node)] = (node, value)
        return value


__all__ += ["NodeMemo", "compile_ground", "conjunction", "disjunction", "map_terms", "variables_of", "simplified_not",
            "simplified_junction", "simplified_implies", "simplified_iff"]
