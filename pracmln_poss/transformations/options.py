"""The options of each transformation, as immutable values.

:func:`~pracmln_poss.transformations.transform` (and so ``convert``, the CLI and the
plugin) takes them as keyword arguments and checks them here: an option the method
does not have is an error naming the ones it has, not a silent no-op.
"""

from __future__ import annotations

__all__ = ["ExhaustiveOptions", "SelectiveOptions", "DefaultsOptions", "LiftedOptions", "MethodOptions",
           "method_options"]

import os
from concurrent.futures import Executor
from dataclasses import dataclass, fields
from typing import Any

from ..errors import UnknownNameError
from .exhaustive import DEFAULT_MAX_FORMULAS
from .rules import RuleStats


@dataclass(frozen=True)
class ExhaustiveOptions:
    """Transformation 1.

    :ivar backend: the MAP backend (``auto``, ``rc2``, ``toulbar2``, ``cpsat``, ...).
    :ivar max_formulas: refuse more soft formulas than this (2^m worlds) unless forced.
    """

    backend: str = "auto"
    max_formulas: int = DEFAULT_MAX_FORMULAS


@dataclass(frozen=True)
class SelectiveOptions:
    """Transformation 2 (its family of evidence sets is an argument of ``transform``)."""

    backend: str = "auto"


@dataclass(frozen=True)
class DefaultsOptions:
    """Transformation 3.

    :ivar omit_redundant_blocking: drop blocking rules that the rules for ``E - {y}`` entail.
    :ivar prune_heads: remove from rule heads what rational monotonicity gives (Prop. 3).
    :ivar stats: filled in with what the run did (a :class:`~.rules.RuleStats`), if given.
    :ivar jobs: worker processes for the search (1: this process; 0: one per core).
    :ivar executor: any ``concurrent.futures.Executor`` to run the search on instead
        (a Dask cluster's ``Client.get_executor()``); the output is the same.
    :ivar checkpoint: a file keeping finished work: an interrupted conversion given the
        same file resumes from it; removed when the conversion completes.
    """

    backend: str = "auto"
    omit_redundant_blocking: bool = True
    prune_heads: bool = True
    stats: RuleStats | None = None
    jobs: int = 1
    executor: Executor | None = None
    checkpoint: str | os.PathLike[str] | None = None


@dataclass(frozen=True)
class LiftedOptions:
    """Transformation 4.

    :ivar long_blocking: blocking rules ``not (AND E ^ AND X(E))`` instead of ``not AND E``.
    :ivar jobs: as for :class:`DefaultsOptions`.
    :ivar executor: as for :class:`DefaultsOptions`.
    :ivar checkpoint: as for :class:`DefaultsOptions`.
    """

    backend: str = "auto"
    long_blocking: bool = False
    jobs: int = 1
    executor: Executor | None = None
    checkpoint: str | os.PathLike[str] | None = None


MethodOptions = ExhaustiveOptions | SelectiveOptions | DefaultsOptions | LiftedOptions

_BY_METHOD: dict[str, type[MethodOptions]] = {
    "exhaustive": ExhaustiveOptions,
    "selective": SelectiveOptions,
    "defaults": DefaultsOptions,
    "lifted": LiftedOptions,
}


def method_options(method: str, given: dict[str, Any]) -> MethodOptions:
    """The options of ``method`` from keyword arguments.

    :raises UnknownNameError: for an option the method does not have, naming those it has.
    """
    cls = _BY_METHOD[method]
    names = [f.name for f in fields(cls)]
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise UnknownNameError(
            f"the {method} transformation has no option {unknown[0]!r}; its options: {', '.join(names)} "
            "(and k, evidence_preds, query_preds, family, grounded, force, progress)"
        )
    return cls(**given)
