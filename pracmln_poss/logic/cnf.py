"""Clause form of formulas by the Plaisted-Greenbaum (polarity-aware Tseitin) encoding.

``clausify(f, pool)`` returns clauses over the atoms of ``f`` and fresh variables
from ``pool`` such that every model of the clauses satisfies ``f`` and every model
of ``f`` extends to a model of the clauses.  That is all MaxSAT and SAT need, and
it keeps the encoding linear (no distribution).
"""

from __future__ import annotations

__all__ = ["VarPool", "clausify", "Clause"]

from typing import cast

from .formula import And, Atom, Formula, Not, Or, Truth, nnf, substitute_atoms

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
    g = substitute_atoms(nnf(f), lambda _atom: None)  # flattens, folds constants
    if isinstance(g, Truth):
        return [] if g.value else [()]
    out: list[Clause] = []
    for part in g.args if isinstance(g, And) else (g,):
        _emit(_clause(part, pool, out), out)
    return out


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
        return [-cast(Atom, g.arg).index]  # NNF: negation only on atoms
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
