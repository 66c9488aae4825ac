"""Possibilistic logic: theories (:mod:`.theory`), inference (:mod:`.reasoner`), filtering."""

from .reasoner import QueryResult, Reasoner
from .theory import Level, PossibilisticFormula, PossibilisticTheory

__all__ = ["Level", "PossibilisticFormula", "PossibilisticTheory", "QueryResult", "Reasoner"]
