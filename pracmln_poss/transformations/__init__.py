"""The transformations of a ground MLN into a possibilistic theory, by name.

``exhaustive`` (Transformation 1), ``selective`` (2), ``defaults`` (3) and ``lifted``
(4: first-order, returns a :class:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory`); see each module.
:func:`~.conversion.transform` is the common entry point; :func:`~.conversion.default_method` picks ``lifted``
for first-order models and ``defaults`` for propositional ones.
"""

from __future__ import annotations

__all__ = ["METHODS", "transform", "convert", "Conversion", "default_method", "evidence_family", "Focus", "count_evidence_sets",
           "MAX_EVIDENCE_SETS", "MAX_LIFTED_EVIDENCE_SETS", "ExhaustiveOptions", "SelectiveOptions", "DefaultsOptions",
           "LiftedOptions", "MethodOptions", "Runtime"]

from ..search.focus import Focus
from .conversion import (
    MAX_EVIDENCE_SETS,
    MAX_LIFTED_EVIDENCE_SETS,
    METHODS,
    Conversion,
    convert,
    count_evidence_sets,
    default_method,
    transform,
)
from .defaults import DefaultsOptions
from .exhaustive import ExhaustiveOptions
from .lifted import LiftedOptions
from .options import MethodOptions, Runtime
from .selective import SelectiveOptions, evidence_family
