"""Ground MLNs: weighted ground formulas over int atoms, with exact int weights.

A :class:`GroundMLN` is plain data and needs no pracmln.  Build one from Python
with :meth:`GroundMLN.from_pairs` (``("a => x", 5)`` pairs) or from a first-order
model with :func:`pracmln_poss.model.grounding.ground`.
"""

from __future__ import annotations

__all__ = ["WeightedFormula", "GroundMLN"]

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..atoms import NamedAtoms
from ..errors import ModelError, WeightError
from ..logic.formula import Formula, negate
from ..logic.leaves import check_atom_range, number_formulas
from ..logic.syntax import format_formula
from ..weights import INF, Resolution, format_weight, parse_weight


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
class GroundMLN(NamedAtoms):
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
    ) -> GroundMLN:
        """Normalise weighted formulas (negative weights flipped, zeros dropped)."""
        soft: list[WeightedFormula] = []
        hard: list[WeightedFormula] = []
        n = len(atoms)
        if len(set(atoms)) != n:
            raise ModelError("duplicate atom names")
        for wf in formulas:
            check_atom_range(wf.formula, n)
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
    ) -> GroundMLN:
        """Build from ``(formula, weight)`` pairs, e.g. ``[("a => x", 5), ("a", None)]``.

        Formulas are ground pracmln formulas (``bird(Tweety) => flies(Tweety)``, or
        argument-less atoms ``a => x``).  A weight of ``None``, ``inf`` or ``"inf"``
        makes the formula hard; others are converted exactly at ``resolution``.
        Atoms are numbered in order of first appearance after those in ``atoms``.
        """
        res = Resolution.of(resolution)
        pairs = list(pairs)
        names, trees = number_formulas((text for text, _ in pairs), atoms, grammar)
        formulas: list[WeightedFormula] = []
        for (text, weight), tree in zip(pairs, trees):
            shown = text if isinstance(text, str) else format_formula(tree, lambda i: names[i - 1])
            w = parse_weight(weight, res, what=f"weight of {shown}")
            formulas.append(WeightedFormula(tree, w, text if isinstance(text, str) else None))
        return cls.create(names, formulas, res)

    def __str__(self) -> str:
        lines = [f"// {self.n_atoms} atoms, {len(self.soft)} soft, {len(self.hard)} hard formulas"]
        for wf in self.soft:
            lines.append(f"{format_weight(wf.weight, self.resolution)} {self.format(wf.formula)}")
        for wf in self.hard:
            lines.append(f"{self.format(wf.formula)}.")
        return "\n".join(lines)
