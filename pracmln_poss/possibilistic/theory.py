"""Possibilistic logic theories: formulas at levels.

A level is the exact penalty value ``x`` of ``lambda_x`` (an int number of resolution
steps) or ``INF`` for certainty 1 (hard rules, evidence); only the order of levels
matters to inference (DESIGN.md section 1).  The ``[0, 1]`` scale
``lambda_x = (K + x) / L`` is for display only (:meth:`PossibilisticTheory.degree`).

Formulas are ground formulas over the theory's named atoms (ints inside, names at
the edges).  Reasoning (consistency level, entailment, necessity, drowning) is in
:mod:`.reasoner`; :meth:`PossibilisticTheory.reasoner` opens one.
"""

from __future__ import annotations

__all__ = ["PossibilisticFormula", "PossibilisticTheory", "Level", "parse_level"]

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable, Sequence, Union

from ..atoms import NamedAtoms, intern_atoms
from ..errors import ModelError
from ..logic.formula import Formula, atoms_of, evaluate
from ..logic.syntax import parse_formula
from ..weights import INF, Resolution, format_weight

if TYPE_CHECKING:
    from .reasoner import Reasoner

Level = Union[int, float]  # int steps, or INF


def parse_level(level: object, resolution: Resolution) -> Level:
    """A level in user units (number or text; ``None``/``inf`` for certain) as int steps or ``INF``."""
    if level is None or level == INF or (isinstance(level, str) and level.strip().lower() in ("inf", "+inf", "1 (certain)")):
        return INF
    return resolution.to_int(level, what="level")  # type: ignore[arg-type]


@dataclass(frozen=True)
class PossibilisticFormula:
    """A formula with its level; ``origin`` says where it came from (e.g. an evidence set)."""

    formula: Formula
    level: Level
    origin: str | None = None


@dataclass(frozen=True)
class PossibilisticTheory(NamedAtoms):
    """An immutable possibilistic logic theory over named ground atoms.

    :ivar atoms: atom names; atom ``i`` (from 1) is ``atoms[i - 1]``.
    :ivar formulas: the formulas in the order given (writers group them by level).
    :ivar resolution: the unit of the int levels.
    """

    atoms: tuple[str, ...]
    formulas: tuple[PossibilisticFormula, ...]
    resolution: Resolution = field(default_factory=Resolution)

    def __post_init__(self) -> None:
        n = len(self.atoms)
        for pf in self.formulas:
            if not (pf.level == INF or (isinstance(pf.level, int) and not isinstance(pf.level, bool))):
                raise ModelError(f"level {pf.level!r} is neither an int number of steps nor INF")
            bad = [a for a in atoms_of(pf.formula) if not 1 <= a <= n]
            if bad:
                raise ModelError(f"formula uses unknown atom index {bad[0]}")

    @classmethod
    def from_pairs(
        cls,
        pairs: Iterable[tuple[str | Formula, object]],
        resolution: Resolution | str | None = None,
        atoms: Sequence[str] = (),
    ) -> "PossibilisticTheory":
        """Build from ``(formula, level)`` pairs, levels in user units (``0.5``, ``10``);
        ``None``, ``inf`` or ``"inf"`` make a formula certain.  Atoms are numbered in
        order of first appearance after those in ``atoms``."""
        res = resolution if isinstance(resolution, Resolution) else Resolution(resolution or "1e-6")
        names: dict[str, int] = {}
        for name in atoms:
            names.setdefault(name, len(names) + 1)
        out = []
        for text, level in pairs:
            tree = parse_formula(text, ground=True) if isinstance(text, str) else text
            out.append(PossibilisticFormula(intern_atoms(tree, names), parse_level(level, res)))
        return cls(tuple(names), tuple(out), res)

    # -- structure -----------------------------------------------------------------

    def levels(self) -> tuple[Level, ...]:
        """The distinct levels present, ascending (``INF`` last)."""
        return tuple(sorted({pf.level for pf in self.formulas}))

    def cut(self, level: Level) -> "PossibilisticTheory":
        """The formulas with a level ``>= level`` (the lambda-cut)."""
        return replace(self, formulas=tuple(pf for pf in self.formulas if pf.level >= level))

    def with_formulas(self, formulas: Iterable[PossibilisticFormula]) -> "PossibilisticTheory":
        return replace(self, formulas=tuple(formulas))

    def __len__(self) -> int:
        return len(self.formulas)

    def __iter__(self):
        return iter(self.formulas)

    # -- semantics without a solver ---------------------------------------------------

    def violated_level(self, world: Sequence[bool]) -> Level | None:
        """The highest level of a formula ``world`` violates; ``None`` if it violates none.

        The least specific model gives ``pi(world) = 1 - lambda(violated_level)``.
        """
        levels = [pf.level for pf in self.formulas if not evaluate(pf.formula, world)]
        return max(levels) if levels else None

    def possibility(self, world: Sequence[bool], k: Fraction | int = 1) -> Fraction:
        """``pi(world)`` in the least specific model, on the display scale of :meth:`degree`."""
        level = self.violated_level(world)
        return Fraction(1) if level is None else 1 - self.degree(level, k)

    def degree(self, level: Level, k: Fraction | int = 1) -> Fraction:
        """The display degree ``lambda_x = (K + x) / L`` in ``(0, 1]``.

        ``K`` (in user units, default 1) keeps ``lambda_0 > 0``; ``L`` is chosen so that
        every finite level stays below 1.  ``INF`` is 1.
        """
        if level == INF:
            return Fraction(1)
        step = Fraction(self.resolution.step)
        finite = [pf.level for pf in self.formulas if pf.level != INF]
        top = max(finite + [level]) * step
        big_l = Fraction(k) + top + 1
        return (Fraction(k) + level * step) / big_l

    # -- display ---------------------------------------------------------------------

    def level_name(self, level: Level) -> str:
        """``lambda_2.5`` style name of a level, in user units."""
        return "1 (certain)" if level == INF else f"lambda_{format_weight(level, self.resolution)}"

    def reasoner(self, solver: str = "g3") -> "Reasoner":
        """An incremental SAT reasoner over this theory; use it as a context manager."""
        from .reasoner import Reasoner

        return Reasoner(self, solver)
