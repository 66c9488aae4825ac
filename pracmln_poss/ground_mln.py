"""Ground MLNs: weighted ground formulas over int atoms, with exact int weights.

A :class:`GroundMLN` is plain data and needs no pracmln.  Build one from Python
with :meth:`GroundMLN.from_pairs` (``("a => x", 5)`` pairs) or from a first-order
model with :func:`pracmln_poss.grounding.ground`.
"""

from __future__ import annotations

__all__ = ["WeightedFormula", "GroundMLN"]

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Sequence

from .errors import FormulaSyntaxError, ModelError, UnknownNameError, WeightError
from .logic.formula import (
    Atom,
    Formula,
    Not,
    PredAtom,
    Truth,
    And,
    Or,
    Implies,
    Iff,
    Equals,
    Exists,
    atoms_of,
    negate,
)
from .logic.syntax import atom_name, format_formula, parse_formula, parse_literal
from .weights import INF, Resolution


@dataclass(frozen=True)
class WeightedFormula:
    """A ground formula with its weight: an int number of resolution steps, or ``INF``.

    ``source`` says where it came from (file position and template text), for
    messages and explanations.
    """

    formula: Formula
    weight: int | float
    source: str | None = None

    @property
    def hard(self) -> bool:
        return self.weight == INF


@dataclass(frozen=True)
class GroundMLN:
    """A normalised ground MLN.

    :ivar atoms: atom names; atom ``i`` (an int from 1) is ``atoms[i - 1]``.
    :ivar soft: soft formulas, every weight a positive int (negative weights were
        turned into ``(not F, -w)``, zero weights dropped).
    :ivar hard: hard formulas (weight ``INF``), evidence included as unit formulas.
    :ivar resolution: the unit of the int weights.
    """

    atoms: tuple[str, ...]
    soft: tuple[WeightedFormula, ...]
    hard: tuple[WeightedFormula, ...]
    resolution: Resolution = field(default_factory=Resolution)

    @classmethod
    def create(
        cls,
        atoms: Sequence[str],
        formulas: Iterable[WeightedFormula],
        resolution: Resolution | None = None,
    ) -> "GroundMLN":
        """Normalise weighted formulas (negative weights flipped, zeros dropped)."""
        soft: list[WeightedFormula] = []
        hard: list[WeightedFormula] = []
        n = len(atoms)
        if len(set(atoms)) != n:
            raise ModelError("duplicate atom names")
        for wf in formulas:
            bad = [a for a in atoms_of(wf.formula) if not 1 <= a <= n]
            if bad:
                raise ModelError(f"formula uses unknown atom index {bad[0]}")
            if wf.weight == INF:
                hard.append(wf)
            elif wf.weight == -INF:
                hard.append(WeightedFormula(negate(wf.formula), INF, wf.source))
            elif not isinstance(wf.weight, int):
                raise WeightError(f"weight {wf.weight!r} is not an exact int (see Resolution)")
            elif wf.weight > 0:
                soft.append(wf)
            elif wf.weight < 0:
                soft.append(WeightedFormula(negate(wf.formula), -wf.weight, wf.source))
        return cls(tuple(atoms), tuple(soft), tuple(hard), resolution or Resolution())

    @classmethod
    def from_pairs(
        cls,
        pairs: Iterable[tuple[str | Formula, object]],
        resolution: Resolution | str | None = None,
        atoms: Sequence[str] = (),
        grammar: str = "StandardGrammar",
    ) -> "GroundMLN":
        """Build from ``(formula, weight)`` pairs, e.g. ``[("a => x", 5), ("a", None)]``.

        Formulas are ground pracmln formulas (``bird(Tweety) => flies(Tweety)``, or
        argument-less atoms ``a => x``).  A weight of ``None``, ``inf`` or ``"inf"``
        makes the formula hard; others are converted exactly at ``resolution``.
        Atoms are numbered in order of first appearance after those in ``atoms``.
        """
        res = resolution if isinstance(resolution, Resolution) else Resolution(resolution or "1e-6")
        names: dict[str, int] = {}
        for name in atoms:
            names.setdefault(name, len(names) + 1)
        formulas: list[WeightedFormula] = []
        for text, weight in pairs:
            tree = parse_formula(text, grammar, ground=True) if isinstance(text, str) else text
            ground_f = _intern(tree, names)
            if weight is None or weight == INF or (isinstance(weight, str) and weight.strip() in ("inf", "+inf")):
                w: int | float = INF
            elif weight == -INF or (isinstance(weight, str) and weight.strip() == "-inf"):
                w = -INF
            else:
                w = res.to_int(weight, what=f"weight of {text if isinstance(text, str) else format_formula(tree)!s}")  # type: ignore[arg-type]
            formulas.append(WeightedFormula(ground_f, w, text if isinstance(text, str) else None))
        return cls.create(tuple(names), formulas, res)

    # -- names at the edges -------------------------------------------------------

    @cached_property
    def _index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.atoms, 1)}

    @property
    def n_atoms(self) -> int:
        return len(self.atoms)

    def atom(self, name: str) -> int:
        """The int of an atom name (spaces inside the name are ignored)."""
        key = name.replace(" ", "")
        try:
            return self._index[key]
        except KeyError:
            raise UnknownNameError(f"unknown atom {name!r}") from None

    def name(self, atom: int) -> str:
        return self.atoms[atom - 1]

    def literal(self, text: str | int) -> int:
        """A DIMACS literal from ``"!bird(Tweety)"`` (or an int, checked)."""
        if isinstance(text, int):
            if not 1 <= abs(text) <= self.n_atoms:
                raise UnknownNameError(f"unknown atom index {abs(text)}")
            return text
        try:
            positive, atom = parse_literal(text)
        except FormulaSyntaxError:
            raise UnknownNameError(f"{text!r} is not a literal") from None
        index = self.atom(atom_name(atom.pred, tuple(t.name for t in atom.args)))
        return index if positive else -index

    def literal_or_formula(self, text: str) -> int | Formula:
        """A literal as its int, any other ground formula as a tree (for evidence)."""
        try:
            positive, atom = parse_literal(text)
        except FormulaSyntaxError:
            return self.formula(text)
        index = self.atom(atom_name(atom.pred, tuple(t.name for t in atom.args)))
        return index if positive else -index

    def formula(self, text: str | Formula, grammar: str = "StandardGrammar") -> Formula:
        """A ground formula over this MLN's atoms, from text or an already-built tree."""
        tree = parse_formula(text, grammar, ground=True) if isinstance(text, str) else text
        return _resolve(tree, self)

    def format(self, f: Formula) -> str:
        return format_formula(f, self.name)

    def literal_name(self, lit: int) -> str:
        return self.name(lit) if lit > 0 else "!" + self.name(-lit)

    def __str__(self) -> str:
        lines = [f"// {self.n_atoms} atoms, {len(self.soft)} soft, {len(self.hard)} hard formulas"]
        from .weights import format_weight

        for wf in self.soft:
            lines.append(f"{format_weight(wf.weight, self.resolution)} {self.format(wf.formula)}")
        for wf in self.hard:
            lines.append(f"{self.format(wf.formula)}.")
        return "\n".join(lines)


def _map_leaves(f: Formula, leaf) -> Formula:
    if isinstance(f, (PredAtom, Atom, Equals)):
        return leaf(f)
    if isinstance(f, Truth):
        return f
    if isinstance(f, Not):
        return Not(_map_leaves(f.arg, leaf))
    if isinstance(f, (And, Or)):
        return type(f)(tuple(_map_leaves(a, leaf) for a in f.args))
    if isinstance(f, (Implies, Iff)):
        return type(f)(_map_leaves(f.left, leaf), _map_leaves(f.right, leaf))
    if isinstance(f, Exists):
        raise ModelError("EXIST is not allowed in a ground formula")
    raise TypeError(f"unexpected formula node {f!r}")


def _ground_leaf_name(a: PredAtom | Equals) -> str | bool:
    if isinstance(a, Equals):
        return a.left.name == a.right.name
    return atom_name(a.pred, tuple(t.name for t in a.args))


def _intern(f: Formula, names: dict[str, int]) -> Formula:
    def leaf(a):
        if isinstance(a, Atom):
            return a
        key = _ground_leaf_name(a)
        if isinstance(key, bool):
            return Truth(key)
        return Atom(names.setdefault(key, len(names) + 1))

    return _map_leaves(f, leaf)


def _resolve(f: Formula, mln: GroundMLN) -> Formula:
    def leaf(a):
        if isinstance(a, Atom):
            mln.literal(a.index)
            return a
        key = _ground_leaf_name(a)
        if isinstance(key, bool):
            return Truth(key)
        return Atom(mln.atom(key))

    return _map_leaves(f, leaf)
