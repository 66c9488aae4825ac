"""What every theory offers, ground or lifted: the :class:`Theory` protocol.

Formats, explanations and the command line are written against it, so that they
handle a :class:`~.theory.PossibilisticTheory` and a :class:`~.lifted.LiftedTheory`
alike; only what really differs (the text format's ``#type`` lines, how a rule reads)
asks which one it has.
"""

from __future__ import annotations

__all__ = ["Theory"]

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..logic.formula import Formula
from ..weights import Resolution

if TYPE_CHECKING:
    from .reasoner import Reasoner
    from .theory import Answer, Level, PossibilisticFormula, PossibilisticTheory


class Theory(Protocol):
    """A possibilistic theory: formulas at levels over named ground atoms.

    Questions (entailment, consistency level, necessity) are answered on the ground
    theory (:meth:`ground`); levels are exact ints (or ``INF``), and the ``*_level``-less
    methods give them in the model's weight units.
    """

    @property
    def atoms(self) -> tuple[str, ...]:
        """The ground atoms' names; atom ``i`` (from 1) is ``atoms[i - 1]``."""

    @property
    def formulas(self) -> tuple[PossibilisticFormula, ...]:
        """The formulas (rules) in order."""

    @property
    def resolution(self) -> Resolution:
        """The unit of the int levels."""

    @property
    def types(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Type name -> its constants, for the variables of lifted rules (empty when ground)."""

    def __len__(self) -> int: ...

    def levels(self) -> tuple[Level, ...]:
        """The distinct levels, ascending (``INF`` last)."""

    def level_name(self, level: Level) -> str:
        """``lambda_2.5`` style name of a level, in user units."""

    def format(self, f: Formula) -> str:
        """One of the theory's formulas in pracmln syntax."""

    def prefixes(self) -> dict[str, str]:
        """Type name -> the prefix of its variables (empty when ground)."""

    def ground(self, force: bool = False) -> PossibilisticTheory:
        """The theory as a ground theory over its atoms (``force``: even above the limit
        of groundings)."""

    def ground_with_sources(self, force: bool = False) -> tuple[PossibilisticTheory, tuple[int, ...]]:
        """:meth:`ground`, and per ground formula the index of the formula it comes from."""

    def reasoner(self, solver: str = "g3") -> Reasoner:
        """A new incremental SAT reasoner over the ground theory (a context manager)."""

    def entails(self, evidence: Iterable[object], query: str | Formula) -> bool:
        """``(T, E) |-poss query``."""

    def consistency_level(self, evidence: Iterable[object] = ()) -> float:
        """``con(T, E)`` in the model's weight units."""

    def query(self, evidence: Iterable[object], query: str | Formula | None) -> Answer:
        """Entailment, consistency level and drowned formulas at once."""

    def necessity(self, query: str | Formula) -> float | None:
        """``N(query)`` in the model's weight units; None when no cut entails it."""

    def necessity_level(self, query: str | Formula) -> Level | None:
        """``N(query)`` as an exact int level; None when no cut entails it."""
