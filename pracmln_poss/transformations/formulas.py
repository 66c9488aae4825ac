"""What the transformations share: building rules and the hard part."""

from __future__ import annotations

__all__ = ["conjunction_of", "clause_against", "hard_part"]

from collections.abc import Iterable

from ..logic.formula import Formula, conjunction, disjunction, literal
from ..model.ground_mln import GroundMLN
from ..possibilistic.theory import PossibilisticFormula
from ..weights import INF


def conjunction_of(lits: Iterable[int]) -> Formula:
    """The conjunction of DIMACS literals (one literal stays a literal, none is ``TRUE``)."""
    return conjunction(literal(lit) for lit in lits)


def clause_against(lits: Iterable[int]) -> Formula:
    """``not (l1 ^ ... ^ ln)`` written as the clause ``!l1 v ... v !ln`` (none: ``FALSE``)."""
    return disjunction(literal(-lit) for lit in lits)


def hard_part(mln: GroundMLN) -> list[PossibilisticFormula]:
    """The hard formulas of the MLN, certain in every theory."""
    return [PossibilisticFormula(wf.formula, INF, wf.source, mln.resolution) for wf in mln.hard]
