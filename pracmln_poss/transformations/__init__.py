"""The transformations of a ground MLN into a possibilistic theory, by name.

``exhaustive`` (Transformation 1), ``selective`` (2), ``defaults`` (3) and ``lifted``
(4: first-order, returns a :class:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory`); see each module.
:func:`~.conversion.transform_mln` is the common entry point; :func:`~.conversion.default_method` picks ``lifted``
for first-order models and ``defaults`` for propositional ones.
"""

from __future__ import annotations

__all__ = ["METHODS", "transform_mln", "convert_mln", "Conversion", "default_method", "evidence_family", "Focus", "count_evidence_sets",
           "MAX_EVIDENCE_SETS", "MAX_LIFTED_EVIDENCE_SETS", "ExhaustiveOptions", "SelectiveOptions", "DefaultsOptions",
           "LiftedOptions", "MethodOptions", "Runtime"]

import importlib
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (read by mypy and Sphinx; imported on first use, below)
    from ..search.focus import Focus
    from .conversion import (
        MAX_EVIDENCE_SETS,
        MAX_LIFTED_EVIDENCE_SETS,
        METHODS,
        Conversion,
        convert_mln,
        count_evidence_sets,
        default_method,
        transform_mln,
    )
    from .defaults import DefaultsOptions
    from .exhaustive import ExhaustiveOptions
    from .lifted import LiftedOptions
    from .options import MethodOptions, Runtime
    from .selective import SelectiveOptions, evidence_family

_HOMES = MappingProxyType({
    "Focus": "..search.focus", "MAX_EVIDENCE_SETS": ".conversion", "MAX_LIFTED_EVIDENCE_SETS": ".conversion",
    "METHODS": ".conversion", "Conversion": ".conversion", "convert_mln": ".conversion",
    "count_evidence_sets": ".conversion", "default_method": ".conversion", "transform_mln": ".conversion",
    "DefaultsOptions": ".defaults", "ExhaustiveOptions": ".exhaustive", "LiftedOptions": ".lifted",
    "MethodOptions": ".options", "Runtime": ".options", "SelectiveOptions": ".selective", "evidence_family": ".selective",
})
"""Where each name of :data:`__all__` is defined."""


def __getattr__(name: str) -> object:
    # The transformations import the rule search, its worker pools (multiprocessing,
    # concurrent.futures) and the checkpoints: a command that converts nothing (map,
    # query, show) does not pay for them, nor does a submodule's importer (the command
    # line reads its flags from .options).
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value
