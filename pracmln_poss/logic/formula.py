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
    "is_literal",
    "literal_of",
]

import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


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


class Valuation(Protocol):
    """Anything indexed by atom int giving a truth value (a list, a dict, a MAP world)."""

    def __getitem__(self, atom: int, /) -> bool: ...


def evaluate(f: Formula, world: Valuation | Sequence[bool] | Mapping[int, bool]) -> bool:
    """Truth of a ground formula in ``world`` (indexed by atom int)."""
    if isinstance(f, Atom):
        return bool(world[f.index])
    if isinstance(f, Not):
        return not evaluate(f.arg, world)
    if isinstance(f, And):
        return all(evaluate(a, world) for a in f.args)
    if isinstance(f, Or):
        return any(evaluate(a, world) for a in f.args)
    if isinstance(f, Implies):
        return (not evaluate(f.left, world)) or evaluate(f.right, world)
    if isinstance(f, Iff):
        return evaluate(f.left, world) == evaluate(f.right, world)
    if isinstance(f, Truth):
        return f.value
    raise TypeError(f"cannot evaluate non-ground formula {f!r}")


def shape(f: Formula) -> tuple[str, tuple[int, ...]]:
    """The tree of ``f`` with its atoms numbered by first occurrence (a key two formulas
    share exactly when they are the same tree over other atoms), and those atoms in
    that order: the groundings of one template have one shape."""
    atoms: dict[int, int] = {}
    parts: list[str] = []

    def walk(g: Formula) -> None:
        if isinstance(g, Atom):
            parts.append(f"a{atoms.setdefault(g.index, len(atoms))}")
        elif isinstance(g, Truth):
            parts.append("T" if g.value else "F")
        elif isinstance(g, Not):
            parts.append("!")
            walk(g.arg)
        elif isinstance(g, (And, Or)):
            parts.append("&(" if isinstance(g, And) else "|(")
            for a in g.args:
                walk(a)
                parts.append(",")
            parts.append(")")
        elif isinstance(g, (Implies, Iff)):
            parts.append(">(" if isinstance(g, Implies) else "=(")
            walk(g.left)
            parts.append(",")
            walk(g.right)
            parts.append(")")
        else:
            raise TypeError(f"not a ground formula: {g!r}")

    walk(f)
    return "".join(parts), tuple(atoms)


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
    if isinstance(f, Atom):
        name = atoms.get(f.index)
        if name is None:
            name = atoms[f.index] = f"x{len(atoms)}"
        return f"v[{name}]"
    if isinstance(f, Not):
        return f"(not {_python(f.arg, atoms)})"
    if isinstance(f, (And, Or)):
        if not f.args:
            return "True" if isinstance(f, And) else "False"
        joiner = " and " if isinstance(f, And) else " or "
        return "(" + joiner.join(_python(a, atoms) for a in f.args) + ")"
    if isinstance(f, Implies):
        return f"((not {_python(f.left, atoms)}) or {_python(f.right, atoms)})"
    if isinstance(f, Iff):
        return f"({_python(f.left, atoms)} == {_python(f.right, atoms)})"
    if isinstance(f, Truth):
        return "True" if f.value else "False"
    raise TypeError(f"cannot evaluate non-ground formula {f!r}")


def nnf(f: Formula, positive: bool = True) -> Formula:
    """Negation normal form of a ground formula (only And, Or, literals, Truth).

    ``positive=False`` gives the NNF of ``not f``.
    """
    if isinstance(f, Atom):
        return f if positive else Not(f)
    if isinstance(f, Truth):
        return f if positive else Truth(not f.value)
    if isinstance(f, Not):
        return nnf(f.arg, not positive)
    if isinstance(f, And):
        parts = tuple(nnf(a, positive) for a in f.args)
        return And(parts) if positive else Or(parts)
    if isinstance(f, Or):
        parts = tuple(nnf(a, positive) for a in f.args)
        return Or(parts) if positive else And(parts)
    if isinstance(f, Implies):
        return nnf(Or((Not(f.left), f.right)), positive)
    if isinstance(f, Iff):
        if positive:
            return And((nnf(Or((Not(f.left), f.right))), nnf(Or((f.left, Not(f.right))))))
        return Or((nnf(And((f.left, Not(f.right)))), nnf(And((Not(f.left), f.right)))))
    raise TypeError(f"cannot take the NNF of non-ground formula {f!r}")


def substitute_atoms(f: Formula, value: Callable[[int], bool | None]) -> Formula:
    """Partially evaluate ``f``: atoms with a known value become constants.

    The result is simplified (constants propagated, And/Or flattened and without
    repeated parts, implications kept as such); it is ``TOP``/``BOTTOM`` when the known
    atoms decide ``f``.
    """
    if isinstance(f, Atom):
        v = value(f.index)
        return f if v is None else Truth(v)
    if isinstance(f, Truth):
        return f
    if isinstance(f, Not):
        g = substitute_atoms(f.arg, value)
        return Truth(not g.value) if isinstance(g, Truth) else negate(g)
    if isinstance(f, (And, Or)):
        absorbing = isinstance(f, Or)  # Or is decided by a true part, And by a false one
        parts: list[Formula] = []
        for a in f.args:
            g = substitute_atoms(a, value)
            if isinstance(g, Truth):
                if g.value == absorbing:
                    return g
                continue
            if type(g) is type(f):
                parts.extend(g.args)
            else:
                parts.append(g)
        parts = list(dict.fromkeys(parts))  # repeated parts add nothing
        if not parts:
            return Truth(not absorbing)
        if len(parts) == 1:
            return parts[0]
        return type(f)(tuple(parts))
    if isinstance(f, Implies):
        left = substitute_atoms(f.left, value)
        right = substitute_atoms(f.right, value)
        if isinstance(left, Truth):
            return right if left.value else TOP
        if isinstance(right, Truth):
            return TOP if right.value else negate(left)
        return Implies(left, right)
    if isinstance(f, Iff):
        left = substitute_atoms(f.left, value)
        right = substitute_atoms(f.right, value)
        if isinstance(left, Truth) and isinstance(right, Truth):
            return Truth(left.value == right.value)
        if isinstance(left, Truth):
            return right if left.value else negate(right)
        if isinstance(right, Truth):
            return left if right.value else negate(left)
        return Iff(left, right)
    raise TypeError(f"cannot simplify non-ground formula {f!r}")


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
    if isinstance(f, PredAtom):
        return PredAtom(f.pred, tuple(term(t) for t in f.args))
    if isinstance(f, Equals):
        return Equals(term(f.left), term(f.right))
    if isinstance(f, Not):
        return Not(map_terms(f.arg, term))
    if isinstance(f, (And, Or)):
        return type(f)(tuple(map_terms(a, term) for a in f.args))
    if isinstance(f, (Implies, Iff)):
        return type(f)(map_terms(f.left, term), map_terms(f.right, term))
    if isinstance(f, Exists):
        return Exists(f.variables, map_terms(f.body, term))
    return f


def conjunction(parts: Iterable[Formula]) -> Formula:
    parts = tuple(parts)
    return parts[0] if len(parts) == 1 else (And(parts) if parts else TOP)


def disjunction(parts: Iterable[Formula]) -> Formula:
    parts = tuple(parts)
    return parts[0] if len(parts) == 1 else (Or(parts) if parts else BOTTOM)


__all__ += ["compile_ground", "conjunction", "disjunction", "map_terms", "variables_of"]
