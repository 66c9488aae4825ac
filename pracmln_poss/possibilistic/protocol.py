"""What every theory offers, ground or lifted: the :class:`Theory` protocol.

Formats, explanations and the command line are written against it, so that they
handle a :class:`~.theory.PossibilisticTheory` and a :class:`~.lifted_theory.LiftedTheory`
alike; only what really differs (the text format's ``#type`` lines, how a rule reads)
asks which one it has.
"""

from __future__ import annotations

__all__ = ["Theory"]

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ..logic.formula import Formula
from ..weights import Resolution

if TYPE_CHECKING:
    from .theory import Level, PossibilisticFormula, PossibilisticTheory


class Theory(Protocol):
    """A possibilistic theory: formulas at levels over named ground atoms.

    Data only: questions (entailment, consistency level, necessity) go through
    :func:`~.inference.possibilistic_inference`, which answers them on :meth:`ground`.
    Levels are in the model's weight units; their exact int steps (or ``INF``) go by
    names that say so.
    """

    @property
    def atoms(self) -> Sequence[str]:
        """The ground atoms' names; atom ``i`` (from 1) is ``atoms[i - 1]``."""

    @property
    def formulas(self) -> tuple[PossibilisticFormula, ...]:
        """The formulas (rules) in order."""

    @property
    def resolution(self) -> Resolution:
        """The unit of the formulas' exact int steps."""

    @property
    def made_by(self) -> str | None:
        """How it was made, as its file records it (None: not said)."""

    @property
    def types(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Type name -> its constants, for the variables of lifted rules (empty when ground)."""

    def __len__(self) -> int: ...

    def levels(self) -> tuple[float, ...]:
        """The distinct levels in weight units, ascending (``inf`` last)."""

    def level_steps(self) -> tuple[Level, ...]:
        """The distinct levels as exact int steps, ascending (``INF`` last)."""

    def level_name(self, level: object) -> str:
        """``lambda_2.5`` style name of a level given in weight units."""

    def steps_name(self, steps: Level) -> str:
        """``lambda_2.5`` style name of a level given as exact int steps."""

    def in_units(self, steps: Level) -> float:
        """Exact int steps in weight units."""

    def format(self, f: Formula) -> str:
        """One of the theory's formulas in pracmln syntax."""

    def prefixes(self) -> dict[str, str]:
        """Type name -> the prefix of its variables (empty when ground)."""

    def ground(self, force: bool = False) -> PossibilisticTheory:
        """The theory as a ground theory over its atoms (``force``: even above the limit
        of groundings)."""

    def ground_with_sources(self, force: bool = False) -> tuple[PossibilisticTheory, tuple[int, ...]]:
        """:meth:`ground`, and per ground formula the index of the formula it comes from."""

    def ground_formula(self, query: str | Formula) -> Formula:
        """A formula as one ground formula over the atoms: on a lifted theory a rule over
        its typed variables stands for the conjunction of its groundings."""
