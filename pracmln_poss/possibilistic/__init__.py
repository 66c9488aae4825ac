"""Possibilistic logic: theories ground (:mod:`.theory`) and lifted (:mod:`.lifted`),
what both offer (:mod:`.protocol`), inference (:mod:`.reasoner`), filtering."""

from .lifted import LiftedTheory
from .protocol import Theory
from .reasoner import QueryResult, Reasoner
from .theory import Level, PossibilisticFormula, PossibilisticTheory

__all__ = ["Level", "LiftedTheory", "PossibilisticFormula", "PossibilisticTheory", "QueryResult", "Reasoner", "Theory"]
