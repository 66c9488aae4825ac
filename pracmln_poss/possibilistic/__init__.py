"""Possibilistic logic: theories ground (:mod:`.theory`) and lifted (:mod:`.lifted_theory`),
what both offer (:mod:`.protocol`), inference (:mod:`.inference` in weight units over the
exact :mod:`.reasoner`), filtering."""

from .inference import PossibilisticInference, possibilistic_inference
from .lifted_theory import LiftedTheory
from .protocol import Theory
from .reasoner import QueryResult, Reasoner
from .theory import Level, PossibilisticFormula, PossibilisticTheory

__all__ = ["Level", "LiftedTheory", "PossibilisticFormula", "PossibilisticInference", "PossibilisticTheory",
           "QueryResult", "Reasoner", "Theory", "possibilistic_inference"]
