"""Possibilistic logic theories: formulas at levels.

A level is the exact penalty value ``x`` of ``lambda_x`` (an int number of resolution
steps) or ``INF`` for certainty 1 (hard rules, evidence); only the order of levels
matters to inference (docs/semantics.md).  The ``[0, 1]`` scale
``lambda_x = (K + x) / L`` is for display only (:meth:`PossibilisticTheory.degree`).

Formulas are ground formulas over the theory's named atoms (ints inside, names at
the edges).  A theory is data: questions (consistency level, entailment, necessity,
drowning) go through :func:`~.inference.possibilistic_inference` (weight units) or
:class:`~.reasoner.Reasoner` (exact int steps).
"""

from __future__ import annotations

__all__ = ["PossibilisticFormula", "PossibilisticTheory", "Displayed", "register_display", "Level", "parse_level",
           "level_name", "Answer", "RuleText", "BLOCKING_ORIGIN"]

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, overload

from ..atoms import NamedAtoms, check_atom_range, number_formulas
from ..errors import ArgumentError, ModelError, WeightError
from ..logic.formula import Formula, evaluate
from ..weights import INF, Resolution, format_weight, parse_weight

Level = int | float  # int steps, or INF


def parse_level(level: object, resolution: Resolution) -> Level:
    """A level in user units (number or text; ``None``/``inf`` for certain) as int steps or ``INF``."""
    value = parse_weight(level, resolution, what="level")
    if value == -INF:
        raise WeightError(f"level {level!r} is not a number or 'inf'")
    if value < 0:  # (a level says how certain a formula is: from 0 up, lambda_0 the least)
        raise WeightError(f"level {level!r} is negative; a level is 0 or more, or 'inf'")
    return value


BLOCKING_ORIGIN = "blocking "
"""How the origin of a blocking rule starts (``blocking {E}``), in memory and in files."""


@dataclass(frozen=True)
class PossibilisticFormula:
    """A formula with its level; ``origin`` says where it came from (e.g. an evidence set)."""

    formula: Formula
    level: Level
    origin: str | None = None

    def __post_init__(self) -> None:
        # (every way in, Python's included: a level is an int number of steps from 0, or INF)
        if not ((type(self.level) is int and self.level >= 0) or self.level == INF):
            raise ArgumentError(f"a formula's level is an int number of steps of 0 or more, or INF; got "
                                f"{self.level!r} (levels in weight units: PossibilisticTheory.from_pairs)")

    @property
    def blocking(self) -> bool:
        """Whether it is a blocking rule of a transformation (by its origin)."""
        return (self.origin or "").startswith(BLOCKING_ORIGIN)


@dataclass(frozen=True)
class RuleText:
    """A formula of a theory as a user reads it: its text and its level in weight units
    (``inf``: certain)."""

    formula: str
    level: float

    def __str__(self) -> str:
        return f"{'certain' if self.level == INF else f'lambda_{self.level:.15g}'}: {self.formula}"


@dataclass(frozen=True)
class Answer:
    """``(T, E) |-poss query`` in the model's weight units: whether it is entailed, the
    consistency level ``con(T, E)`` (``inf``: only the certain rules are consistent with
    the evidence) and the rules drowned below it."""

    entailed: bool
    consistency_level: float
    drowned: tuple[RuleText, ...]


def level_name(level: Level, resolution: Resolution) -> str:
    """``lambda_2.5`` style name of a level, in user units (``certain (inf)`` for ``INF``)."""
    return "certain (inf)" if level == INF else f"lambda_{format_weight(level, resolution)}"


_SHOWN_AS: dict[str, Callable[[Any], str]] = {}


def register_display(kind: str, show: Callable[[Any], str]) -> None:
    """How theories show themselves as ``text`` (``print``) or ``html`` (a notebook):
    the text format lives with the other formats and the table with the other displays,
    in layers above this one, and each registers itself here when imported (the
    package's ``__init__`` imports both)."""
    if kind not in ("text", "html"):
        raise ValueError(f"unknown display {kind!r}")
    _SHOWN_AS[kind] = show


class Displayed:
    """How a theory shows itself: ``print`` gives its text format, a notebook a table
    per level (certain rules last), ``repr`` a one-line summary."""

    if TYPE_CHECKING:  # what the theories that show themselves have
        atoms: tuple[str, ...]
        formulas: tuple[PossibilisticFormula, ...]

        def levels(self) -> tuple[Level, ...]: ...

    def __str__(self) -> str:
        return _SHOWN_AS["text"](self)

    def __repr__(self) -> str:
        formulas, levels, atoms = self.formulas, self.levels(), self.atoms
        return f"<{type(self).__name__}: {len(formulas)} formulas in {len(levels)} levels over {len(atoms)} atoms>"

    def _repr_html_(self) -> str:
        return _SHOWN_AS["html"](self)


@dataclass(frozen=True, repr=False)
class PossibilisticTheory(NamedAtoms, Displayed):
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
            check_atom_range(pf.formula, n)

    @classmethod
    def from_pairs(
        cls,
        pairs: Iterable[tuple[str | Formula, object]],
        resolution: Resolution | str | None = None,
        atoms: Sequence[str] = (),
    ) -> PossibilisticTheory:
        """Build from ``(formula, level)`` pairs, levels in user units (``0.5``, ``10``);
        ``None``, ``inf`` or ``"inf"`` make a formula certain.  Atoms are numbered in
        order of first appearance after those in ``atoms``."""
        res = Resolution.of(resolution)
        pairs = list(pairs)
        names, trees = number_formulas((text for text, _ in pairs), atoms)
        out = [PossibilisticFormula(tree, parse_level(level, res)) for (_, level), tree in zip(pairs, trees)]
        return cls(names, tuple(out), res)

    # -- structure -----------------------------------------------------------------

    def levels(self) -> tuple[Level, ...]:
        """The distinct levels present, ascending (``INF`` last)."""
        return tuple(sorted({pf.level for pf in self.formulas}))

    def cut(self, level: Level) -> PossibilisticTheory:
        """The formulas with a level ``>= level`` (the lambda-cut)."""
        return replace(self, formulas=tuple(pf for pf in self.formulas if pf.level >= level))

    def with_formulas(self, formulas: Iterable[PossibilisticFormula]) -> PossibilisticTheory:
        return replace(self, formulas=tuple(formulas))

    # -- the Theory protocol's view of a ground theory: no types, its own grounding ------

    @property
    def types(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """No types: a ground theory has no variables."""
        return ()

    def prefixes(self) -> dict[str, str]:
        """No variable prefixes: a ground theory has no variables."""
        return {}

    def ground(self, force: bool = False) -> PossibilisticTheory:
        """The theory itself (it is ground)."""
        return self

    def ground_with_sources(self, force: bool = False) -> tuple[PossibilisticTheory, tuple[int, ...]]:
        """The theory itself, each formula its own source."""
        return self, tuple(range(len(self.formulas)))

    def __len__(self) -> int:
        return len(self.formulas)

    def __iter__(self) -> Iterator[PossibilisticFormula]:
        return iter(self.formulas)

    # -- semantics without a solver ---------------------------------------------------

    def violated_level(self, world: Sequence[bool]) -> Level | None:
        """The highest level of a formula ``world`` violates; ``None`` if it violates none.

        The least specific model gives ``pi(world) = 1 - lambda(violated_level)``.
        """
        levels = [pf.level for pf in self.formulas if not evaluate(pf.formula, world)]
        return max(levels) if levels else None

    def possibility(self, world: Sequence[bool], offset: Fraction | int = 1) -> Fraction:
        """``pi(world)`` in the least specific model, on the display scale of :meth:`degree`."""
        level = self.violated_level(world)
        return Fraction(1) if level is None else 1 - self.degree(level, offset)

    def degree(self, level: Level, offset: Fraction | int = 1) -> Fraction:
        """The display degree ``lambda_x = (K + x) / L`` in ``(0, 1]``.

        ``K`` is ``offset`` (in user units, default 1): it keeps ``lambda_0 > 0``; ``L`` is
        chosen so that every finite level stays below 1.  ``INF`` is 1.
        """
        if level == INF:
            return Fraction(1)
        step = Fraction(self.resolution.step)
        finite = [pf.level for pf in self.formulas if pf.level != INF]
        top = max(int(x) for x in finite + [level]) * step
        big_l = Fraction(offset) + top + 1
        return (Fraction(offset) + int(level) * step) / big_l

    # -- display ---------------------------------------------------------------------

    def level_name(self, level: Level) -> str:
        """``lambda_2.5`` style name of a level, in user units."""
        return level_name(level, self.resolution)

    def ground_formula(self, query: str | Formula) -> Formula:
        """A ground formula over this theory's atoms (read from text, or checked)."""
        return self.formula(query)

    @overload
    def in_units(self, level: Level) -> float: ...
    @overload
    def in_units(self, level: None) -> None: ...
    @overload
    def in_units(self, level: Level | None) -> float | None: ...
    def in_units(self, level: Level | None) -> float | None:
        """An int level in the model's weight units (``inf`` stays ``inf``, None stays None)."""
        return None if level is None else self.resolution.to_units(level)
