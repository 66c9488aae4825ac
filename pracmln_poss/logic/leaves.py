"""Formulas' leaves: replaced one by one (:func:`map_leaves`), and ground atoms given
ints in order of first appearance (:func:`intern_atoms`, :func:`number_formulas`)."""

from __future__ import annotations

__all__ = ["map_leaves", "ground_leaf_name", "intern_atoms", "number_formulas", "check_atom_range"]

from collections.abc import Callable, Iterable, Sequence

from ..errors import ModelError
from .formula import Atom, Equals, Exists, Formula, PredAtom, Rebuild, Truth, atoms_of
from .syntax import atom_name, parse_formula


def map_leaves(f: Formula, leaf: Callable[[Atom | PredAtom | Equals], Formula]) -> Formula:
    """``f`` with every atom-like leaf replaced by ``leaf(node)``.

    :raises ModelError: for an ``EXIST`` (a ground formula has none).
    """
    return _MapLeaves(leaf)(f)


class _MapLeaves(Rebuild):
    def __init__(self, leaf: Callable[[Atom | PredAtom | Equals], Formula]) -> None:
        self.leaf = leaf

    def atom(self, f: Atom) -> Formula:
        return self.leaf(f)

    def pred_atom(self, f: PredAtom) -> Formula:
        return self.leaf(f)

    def equals(self, f: Equals) -> Formula:
        return self.leaf(f)

    def exists(self, f: Exists, body: Formula) -> Formula:
        raise ModelError("EXIST is not allowed in a ground formula")


def ground_leaf_name(a: PredAtom | Equals) -> str | bool:
    """A ground leaf's atom name, or the truth of an equality of two constants."""
    if isinstance(a, Equals):
        return a.left.name == a.right.name
    return atom_name(a.pred, tuple(t.name for t in a.args))


def intern_atoms(f: Formula, names: dict[str, int]) -> Formula:
    """A ground tree over ``names``, numbering new atom names as they appear (updates ``names``)."""

    def leaf(a: Atom | PredAtom | Equals) -> Formula:
        if isinstance(a, Atom):
            return a
        key = ground_leaf_name(a)
        if isinstance(key, bool):
            return Truth(key)
        return Atom(names.setdefault(key, len(names) + 1))

    return map_leaves(f, leaf)


def number_formulas(
    items: Iterable[str | Formula], atoms: Sequence[str] = (), grammar: str = "StandardGrammar"
) -> tuple[tuple[str, ...], list[Formula]]:
    """Ground formulas (text or trees) over int atoms, numbered in order of first
    appearance after those in ``atoms``; returns the atom names and the trees."""
    names: dict[str, int] = {}
    for name in atoms:
        names.setdefault(name, len(names) + 1)
    trees = [
        intern_atoms(parse_formula(item, grammar, ground=True) if isinstance(item, str) else item, names)
        for item in items
    ]
    return tuple(names), trees


def check_atom_range(f: Formula, n_atoms: int) -> None:
    """:raises ModelError: when ``f`` uses an atom int outside ``1..n_atoms``."""
    bad = [a for a in atoms_of(f) if not 1 <= a <= n_atoms]
    if bad:
        raise ModelError(f"formula uses unknown atom index {bad[0]}")
