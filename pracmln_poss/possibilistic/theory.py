"""Possibilistic logic theories: formulas at levels.

A level is the penalty value ``x`` of ``lambda_x`` or ``INF`` for certainty 1 (hard
rules, evidence); only the order of levels matters to inference (docs/semantics.md).
Every level a user reads or passes is in the model's weight units (``formula.level``,
``levels()``, ``cut(0.5)``); inside, a level is exact: an int number of steps of the
theory's resolution, under names that say so (``formula.steps``, ``level_steps()``,
``cut_steps()``).  The ``[0, 1]`` scale ``lambda_x = (K + x) / L`` is for display only
(:meth:`PossibilisticTheory.degree`).

Formulas are ground formulas over the theory's named atoms (ints inside, names at
the edges).  A theory is data: questions (consistency level, entailment, necessity,
drowning) go through :func:`~.inference.possibilistic_inference` (weight units) or
:class:`~.reasoner.Reasoner` (exact int steps).
"""

from __future__ import annotations

__all__ = ["PossibilisticFormula", "PossibilisticTheory", "Displayed", "LevelsInUnits", "register_display", "Level",
           "parse_level", "level_name", "Answer", "RuleText", "BLOCKING_ORIGIN"]

import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, overload

from ..atoms import NamedAtoms
from ..errors import ArgumentError, ArgumentTypeError, PossWarning, WeightError
from ..logic.formula import Formula, Implies, NodeMemo, evaluate
from ..logic.leaves import check_atom_range, number_formulas
from ..weights import INF, Level, Resolution, format_weight, parse_weight


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


_DEFAULT_RESOLUTION = Resolution()


@dataclass(frozen=True)
class PossibilisticFormula:
    """A formula at a level; ``origin`` says where it came from (e.g. an evidence set).

    :ivar steps: the exact level: an int number of steps of ``resolution`` (or ``INF``).
    :ivar resolution: the unit of ``steps`` (a theory's formulas share the theory's).

    :attr:`level` is the same level in the model's weight units; a formula at a level in
    weight units is made by :meth:`at` (or :meth:`PossibilisticTheory.from_pairs`).
    """

    formula: Formula
    steps: Level
    origin: str | None = None
    resolution: Resolution = _DEFAULT_RESOLUTION

    def __post_init__(self) -> None:
        # (every way in, Python's included: steps are an int from 0, or INF; a float here
        # is a level in weight units given where steps are meant)
        if not ((type(self.steps) is int and self.steps >= 0) or self.steps == INF):
            raise ArgumentError(f"a formula's steps are an int of 0 or more, or INF; got {self.steps!r} "
                                "(a level in weight units: PossibilisticFormula.at(formula, level) or "
                                "PossibilisticTheory.from_pairs)")

    @classmethod
    def at(cls, formula: Formula, level: object, origin: str | None = None,
           resolution: Resolution | str | None = None) -> PossibilisticFormula:
        """``formula`` at ``level`` in weight units (a number or text; ``None``/``inf``: certain)."""
        res = Resolution.of(resolution)
        return cls(formula, parse_level(level, res), origin, res)

    @property
    def level(self) -> float:
        """The level in the model's weight units (``inf``: certain)."""
        return self.resolution.to_units(self.steps)

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

    def __repr__(self) -> str:  # (a learned model's theory drowns thousands of rules: they are counted, not listed)
        return f"Answer(entailed={self.entailed}, consistency_level={self.consistency_level!r}, " \
               f"drowned=<{len(self.drowned):,} rule{'' if len(self.drowned) == 1 else 's'}>)"


def level_name(level: Level, resolution: Resolution) -> str:
    """``lambda_2.5`` style name of a level, in user units (``certain (inf)`` for ``INF``)."""
    return "certain (inf)" if level == INF else f"lambda_{format_weight(level, resolution)}"


_SHOWN_AS: dict[str, Callable[[Any], str]] = {}


def register_display(kind: str, show: Callable[[Any], str]) -> None:
    """How theories show themselves as ``text`` (``print``) or ``html`` (a notebook):
    the text format lives with the other formats and the table with the other displays,
    in layers above this one; the package's ``__init__`` registers both, once."""
    if kind not in ("text", "html"):
        raise ValueError(f"unknown display {kind!r}")
    _SHOWN_AS[kind] = show


class Displayed:
    """How a theory shows itself: ``print`` gives its text format, a notebook a table
    per level (certain rules last), ``repr`` a one-line summary."""

    if TYPE_CHECKING:  # what the theories that show themselves have
        atoms: Sequence[str]
        formulas: tuple[PossibilisticFormula, ...]

        def levels(self) -> tuple[float, ...]: ...

    def __str__(self) -> str:
        return _SHOWN_AS["text"](self)

    def __repr__(self) -> str:
        formulas, levels, atoms = self.formulas, self.levels(), self.atoms
        return f"<{type(self).__name__}: {len(formulas)} formulas in {len(levels)} levels over {len(atoms)} atoms>"

    def _repr_html_(self) -> str:
        return _SHOWN_AS["html"](self)


_T = TypeVar("_T", bound="LevelsInUnits")


class LevelsInUnits:
    """Levels as a user reads and passes them, in the model's weight units (``0.5``,
    ``inf``), and the exact int steps under names that say so; ground and lifted
    theories alike."""

    if TYPE_CHECKING:  # what the theories with levels have
        formulas: tuple[PossibilisticFormula, ...]
        resolution: Resolution

        def with_formulas(self: _T, formulas: Iterable[PossibilisticFormula]) -> _T: ...

    def level_steps(self) -> tuple[Level, ...]:
        """The distinct levels present as exact int steps, ascending (``INF`` last)."""
        return tuple(sorted({pf.steps for pf in self.formulas}))

    def levels(self) -> tuple[float, ...]:
        """The distinct levels present in the model's weight units, ascending (``inf`` last)."""
        return tuple(self.resolution.to_units(x) for x in self.level_steps())

    def cut(self: _T, level: object) -> _T:
        """The formulas at ``level`` or above (the lambda-cut), ``level`` in the model's
        weight units (a number or text; ``inf``: the certain formulas).  Exact whatever
        the resolution: ``cut(0.25)`` keeps a formula at 0.3 and leaves out one at 0.2."""
        steps = self.resolution.ceil_steps(level, "level")
        if steps < 0:
            raise WeightError(f"level {level!r} is negative; a level is 0 or more, or 'inf'")
        finite = [pf.steps for pf in self.formulas if pf.steps != INF]
        if steps != INF and finite and steps > max(finite):
            # (steps given where weight units are meant would land here: say what the cut holds)
            warnings.warn(f"cut({level!r}) is above every finite level of the theory (the highest is "
                          f"{format_weight(max(finite), self.resolution)}): only the certain formulas are kept; "
                          "levels are in weight units (cut_steps takes int steps)", PossWarning, stacklevel=2)
        return self.cut_steps(steps)

    def cut_steps(self: _T, steps: Level) -> _T:
        """The formulas whose exact level is ``steps`` int steps or more (``INF``: the
        certain formulas)."""
        if not ((type(steps) is int and steps >= 0) or steps == INF):
            raise ArgumentTypeError(f"cut_steps takes an int number of steps of 0 or more, or INF; got {steps!r} "
                                    f"(a level in weight units: cut({steps!r}))")
        return self.with_formulas(pf for pf in self.formulas if pf.steps >= steps)

    def level_name(self, level: object) -> str:
        """``lambda_2.5`` style name of a level given in weight units (``certain (inf)``)."""
        return level_name(parse_level(level, self.resolution), self.resolution)

    def steps_name(self, steps: Level) -> str:
        """``lambda_2.5`` style name of a level given as exact int steps."""
        return level_name(steps, self.resolution)

    @overload
    def in_units(self, steps: Level) -> float: ...
    @overload
    def in_units(self, steps: None) -> None: ...
    @overload
    def in_units(self, steps: Level | None) -> float | None: ...
    def in_units(self, steps: Level | None) -> float | None:
        """Exact int steps in the model's weight units (``INF`` stays ``inf``, None stays None)."""
        return None if steps is None else self.resolution.to_units(steps)


@dataclass(frozen=True, repr=False)
class PossibilisticTheory(NamedAtoms, LevelsInUnits, Displayed):
    """An immutable possibilistic logic theory over named ground atoms.

    :ivar atoms: atom names; atom ``i`` (from 1) is ``atoms[i - 1]``.
    :ivar formulas: the formulas in the order given (writers group them by level).
    :ivar resolution: the unit of the formulas' exact int steps.
    """

    atoms: tuple[str, ...]
    formulas: tuple[PossibilisticFormula, ...]
    resolution: Resolution = field(default_factory=Resolution)
    made_by: str | None = field(default=None, compare=False)
    """How it was made (the command, as its file records it: :func:`~pracmln_poss.formats.codec.dumps`)."""

    def __post_init__(self) -> None:
        n = len(self.atoms)
        side = NodeMemo(lambda g: check_atom_range(g, n))  # (each side of an "=>" that rules share, once)
        for i, pf in enumerate(self.formulas):
            if not isinstance(pf, PossibilisticFormula):
                raise ArgumentTypeError(f"formula {i + 1} of the theory is a {type(pf).__name__}, "
                                        "not a PossibilisticFormula")
            if pf.resolution is not self.resolution and pf.resolution != self.resolution:
                # (its steps would be read in another unit)
                raise ArgumentError(f"formula {i + 1} counts its steps at resolution {pf.resolution}, the theory at "
                                    f"{self.resolution}: make it with resolution={str(self.resolution)!r}")
            f = pf.formula
            if isinstance(f, Implies):
                side(f.left)
                side(f.right)
            else:
                check_atom_range(f, n)

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
        out = [PossibilisticFormula(tree, parse_level(level, res), None, res) for (_, level), tree in zip(pairs, trees)]
        return cls(names, tuple(out), res)

    # -- structure -----------------------------------------------------------------

    def with_formulas(self, formulas: Iterable[PossibilisticFormula]) -> PossibilisticTheory:
        """The same atoms and resolution with other formulas."""
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

    def violated_steps(self, world: Sequence[bool]) -> Level | None:
        """The highest exact level (int steps) of a formula ``world`` violates; ``None``
        if it violates none.

        :param world: a truth value per atom, indexed by atom (``world[0]`` unused: ``n_atoms + 1``
            entries), such as a :class:`~pracmln_poss.map.world.World`.
        :raises ArgumentError: for anything else (a string, a list of another length).
        """
        if isinstance(world, (str, bytes)) or not hasattr(world, "__getitem__") or not hasattr(world, "__len__"):
            raise ArgumentError(f"a world is a sequence of truth values indexed by atom (index 0 unused), "
                                f"got {type(world).__name__}")
        if len(world) != len(self.atoms) + 1:
            raise ArgumentError(f"a world of this theory has {len(self.atoms) + 1} truth values (index 0 unused, "
                                f"then one per atom, in the order of its atoms), got {len(world)}")
        levels = [pf.steps for pf in self.formulas if not evaluate(pf.formula, world)]
        return max(levels) if levels else None

    def violated_level(self, world: Sequence[bool]) -> float | None:
        """The highest level, in weight units, of a formula ``world`` violates; ``None`` if
        it violates none.  The least specific model gives ``pi(world) = 1 - lambda(violated_level)``.
        """
        return self.in_units(self.violated_steps(world))

    def possibility(self, world: Sequence[bool], offset: Fraction | int = 1) -> Fraction:
        """``pi(world)`` in the least specific model, on the display scale of :meth:`degree`."""
        steps = self.violated_steps(world)
        return Fraction(1) if steps is None else 1 - self._degree(steps, offset)

    def degree(self, level: object, offset: Fraction | int = 1) -> Fraction:
        """The display degree ``lambda_x = (K + x) / L`` in ``(0, 1]`` of a level ``x`` in
        weight units.

        ``K`` is ``offset`` (in weight units, default 1): it keeps ``lambda_0 > 0``; ``L`` is
        chosen so that every finite level stays below 1.  ``inf`` is 1.
        """
        return self._degree(parse_level(level, self.resolution), offset)

    def _degree(self, steps: Level, offset: Fraction | int) -> Fraction:
        if steps == INF:
            return Fraction(1)
        step = Fraction(self.resolution.step)
        finite = [pf.steps for pf in self.formulas if pf.steps != INF]
        top = max(int(x) for x in finite + [steps]) * step
        big_l = Fraction(offset) + top + 1
        return (Fraction(offset) + int(steps) * step) / big_l

    # -- display ---------------------------------------------------------------------

    def ground_formula(self, query: str | Formula) -> Formula:
        """A ground formula over this theory's atoms (read from text, or checked)."""
        return self.formula(query)
