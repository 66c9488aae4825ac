"""Clause form of formulas by the Plaisted-Greenbaum (polarity-aware Tseitin) encoding.

``clausify(f, pool)`` returns clauses over the atoms of ``f`` and fresh variables
from ``pool`` such that every model of the clauses satisfies ``f`` and every model
of ``f`` extends to a model of the clauses.  That is all MaxSAT and SAT need, and
it keeps the encoding linear (no distribution).
"""

from __future__ import annotations

__all__ = ["VarPool", "clausify", "clausify_under", "clauses_of", "Clause"]

from collections.abc import Callable

from .formula import And, Atom, Formula, Implies, Not, Or, Truth, nnf, shape, substitute_atoms

Clause = tuple[int, ...]


class VarPool:
    """Hands out fresh variable numbers above ``top`` (the last one in use)."""

    __slots__ = ("top",)

    def __init__(self, top: int) -> None:
        self.top = top

    def new(self) -> int:
        self.top += 1
        return self.top


def clausify(f: Formula, pool: VarPool) -> list[Clause]:
    """Clauses that imply ``f`` and are satisfiable in every model of ``f``.

    A tautology gives ``[]``, a contradiction ``[()]`` (the empty clause).
    """
    lits = _clause_literals(f)
    if lits is not None:  # (a clause written as one: the clause itself, as the general way makes it)
        seen = dict.fromkeys(lits)
        return [] if any(-lit in seen for lit in seen) else [tuple(seen)]
    return _clausify_nnf(f, pool)


def clauses_of(content: Formula | list[Clause], pool: VarPool) -> list[Clause]:
    """The clauses of a formula (:func:`clausify`), or clauses given as they are."""
    return content if isinstance(content, list) else clausify(content, pool)


def _clausify_nnf(f: Formula, pool: VarPool) -> list[Clause]:
    """:func:`clausify` the general way: through the negation normal form."""
    g = substitute_atoms(nnf(f), lambda _atom: None)  # flattens, folds constants
    if isinstance(g, Truth):
        return [] if g.value else [()]
    out: list[Clause] = []
    for part in g.args if isinstance(g, And) else (g,):
        _emit(_clause(part, pool, out), out)
    return out


def _clause_literals(f: Formula) -> list[int] | None:
    """The literals of ``f`` in the order the general way writes them, when ``f`` is a
    clause as written: a literal, a disjunction of literals, or an implication from a
    literal or a conjunction of literals to a literal or a disjunction of them (a ground
    theory's rules); None otherwise."""
    if type(f) is Implies:
        body, head = _junction_literals(f.left, And), _junction_literals(f.right, Or)
        return None if body is None or head is None else [-lit for lit in body] + head
    return _junction_literals(f, Or)


def _junction_literals(f: Formula, junction: type[And] | type[Or]) -> list[int] | None:
    """The literals of a literal, or of a ``junction`` of literals; None otherwise."""
    if type(f) is Atom:
        return [f.index]
    if type(f) is Not:
        return [-f.arg.index] if type(f.arg) is Atom else None
    if type(f) is junction and f.args:
        out = []
        for a in f.args:
            if type(a) is Atom:
                out.append(a.index)
            elif type(a) is Not and type(a.arg) is Atom:
                out.append(-a.arg.index)
            else:
                return None
        return out
    return None


def clausify_under(f: Formula, value: Callable[[int], bool | None], pool: VarPool) -> tuple[Truth | None, list[Clause]]:
    """``substitute_atoms(f, value)`` and, unless that is a constant, its
    :func:`clausify`: (the constant, ``[]``) or (None, the clauses).

    Computed once per shape of ``f`` and values of its atoms (a model's groundings of one
    template share them) and instantiated with ``f``'s atoms; fresh variables are taken
    from ``pool`` in the order :func:`clausify` takes them, so the clauses are the same,
    variable for variable."""
    key, atoms = shape(f)
    known = tuple(value(a) for a in atoms)
    template = _TEMPLATES.get((key, known))
    if template is None:
        g = substitute_atoms(f, value)
        if isinstance(g, Truth):
            template = (g, [], 0)
        else:  # (clausified here, then written over positions: atom i is i + 1, fresh variables follow)
            top = max(atoms)
            position = {a: i + 1 for i, a in enumerate(atoms)}
            taken = VarPool(top)
            clauses = clausify(g, taken)
            # (the fresh variables it took, those in no clause included: a conjunction whose
            # definitions are all tautologies, dropped, still took its name)
            template = (None, [tuple((1 if l > 0 else -1) * (position[abs(l)] if abs(l) <= top else
                                                              len(atoms) + abs(l) - top) for l in c)
                               for c in clauses], taken.top - top)
        if len(_TEMPLATES) < MAX_TEMPLATES:
            _TEMPLATES[(key, known)] = template
    constant, clauses, fresh = template
    if constant is not None:
        return constant, []
    names = [0, *atoms, *(pool.new() for _ in range(fresh))]
    return None, [tuple(names[l] if l > 0 else -names[-l] for l in c) for c in clauses]


MAX_TEMPLATES = 10_000
"""Clause forms of formula shapes kept (a model has a few per template)."""

_TEMPLATES: dict[tuple[str, tuple[bool | None, ...]], tuple[Truth | None, list[Clause], int]] = {}
"""Shape and known values -> the constant, or the clauses over positions and the fresh
variables they take."""


def _emit(lits: list[int], out: list[Clause]) -> None:
    seen: dict[int, None] = dict.fromkeys(lits)  # ordered, without repeats
    if any(-lit in seen for lit in seen):
        return  # tautology
    out.append(tuple(seen))


def _clause(g: Formula, pool: VarPool, out: list[Clause]) -> list[int]:
    """One clause that implies ``g`` (an NNF formula), adding definitions to ``out``."""
    if isinstance(g, Atom):
        return [g.index]
    if isinstance(g, Not):
        if not isinstance(g.arg, Atom):
            raise ValueError(f"not in negation normal form: {g!r}")
        return [-g.arg.index]
    if isinstance(g, Or):
        lits: list[int] = []
        for a in g.args:
            lits.extend(_clause(a, pool, out))
        return lits
    if isinstance(g, And):
        name = pool.new()
        for a in g.args:
            _emit([-name, *_clause(a, pool, out)], out)
        return [name]
    raise TypeError(f"unexpected node in NNF: {g!r}")
