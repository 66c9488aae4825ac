"""The options of each transformation, as immutable values.

:func:`~pracmln_poss.transformations.conversion.transform` (and so ``convert``, the CLI
and the plugin) takes them as keyword arguments and checks them here, once: an option the
method does not have is an error naming the ones it has, not a silent no-op.  The checked
value then travels whole, down to the search.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_FORMULAS", "ExhaustiveOptions", "SelectiveOptions", "DefaultsOptions", "LiftedOptions",
           "MethodOptions", "option_names", "make_options"]

import os
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, fields
from typing import Any

from .. import arguments
from ..errors import ArgumentTypeError, UnknownNameError
from ..map.choice import DEFAULT_BACKEND, backend_name
from ..search.evidence import EvidenceSet
from ..search.progress import Progress
from ..search.rules import RuleStats

DEFAULT_MAX_FORMULAS = 16
"""The exhaustive transformation's default bound on soft formulas (2^m subsets)."""


class _Checked:
    """Options that check their own values when made: one ``TypeError`` or ``ValueError``
    naming the option, before any work."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            check = _CHECKS.get(f.name)
            if check is not None:
                check(f.name, getattr(self, f.name))


def _flag(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{name} takes True or False, not {type(value).__name__} {value!r}")


def _executor(name: str, value: object) -> None:
    if value is not None and not callable(getattr(value, "submit", None)):
        raise ArgumentTypeError(f"{name} takes a concurrent.futures.Executor or None, not {type(value).__name__}")


def _progress(name: str, value: object) -> None:
    if value is not None and not callable(value):
        raise ArgumentTypeError(f"{name} takes a function or None, not {type(value).__name__}")


def _family(name: str, value: object) -> None:
    if isinstance(value, str):
        if value not in ("all", "positive"):
            raise UnknownNameError(f"unknown evidence family {value!r}; valid: all, positive, or a list of sets")
    elif not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} takes 'all', 'positive' or a list of evidence sets, not {value!r}")


def _stats(name: str, value: object) -> None:
    if value is not None and not isinstance(value, RuleStats):
        raise ArgumentTypeError(f"{name} takes a RuleStats or None, not {type(value).__name__}")


_CHECKS: dict[str, Callable[[str, Any], object]] = {
    "backend": lambda name, value: backend_name(value, name),
    "k": lambda name, value: arguments.integer(name, value, 0),
    "family": _family,
    "progress": _progress,
    "max_formulas": lambda name, value: arguments.integer(name, value, 0),
    "jobs": lambda name, value: arguments.integer(name, value, 0),
    "checkpoint": arguments.path,
    "executor": _executor,
    "stats": _stats,
    "omit_redundant_blocking": _flag,
    "prune_heads": _flag,
    "long_blocking": _flag,
}


@dataclass(frozen=True)
class ExhaustiveOptions(_Checked):
    """Transformation 1 (exact for every question: it has no ``k``).

    :ivar backend: the MAP backend (``auto``, ``rc2``, ``toulbar2``, ``cpsat``, ...).
    :ivar max_formulas: refuse more soft formulas than this (2^m worlds) unless forced.
    :ivar progress: called with what is being done and how far.
    """

    backend: str = DEFAULT_BACKEND
    max_formulas: int = DEFAULT_MAX_FORMULAS
    progress: Progress = None


@dataclass(frozen=True)
class SelectiveOptions(_Checked):
    """Transformation 2.

    :ivar k: the largest evidence set of a family given by name.
    :ivar family: ``all`` or ``positive`` (the sets of at most ``k`` literals over the
        evidence atoms, or only the positive ones), or the evidence sets themselves.
    """

    backend: str = DEFAULT_BACKEND
    k: int = 1
    family: str | tuple[EvidenceSet, ...] = "all"
    progress: Progress = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.family, str):
            object.__setattr__(self, "family", tuple(tuple(e) for e in self.family))


@dataclass(frozen=True)
class DefaultsOptions(_Checked):
    """Transformation 3.

    :ivar k: the largest evidence set.
    :ivar omit_redundant_blocking: drop blocking rules that the rules for ``E - {y}`` entail.
    :ivar prune_heads: remove from rule heads what rational monotonicity gives (Prop. 3).
    :ivar stats: filled in with what the run did (a :class:`~pracmln_poss.search.rules.RuleStats`), if given.
    :ivar jobs: worker processes for the search (1: this process; 0: one per core).
    :ivar executor: any ``concurrent.futures.Executor`` to run the search on instead
        (a Dask cluster's ``Client.get_executor()``); the output is the same.
    :ivar checkpoint: a file keeping finished work: an interrupted conversion given the
        same file resumes from it; removed when the conversion completes.
    """

    backend: str = DEFAULT_BACKEND
    k: int = 1
    omit_redundant_blocking: bool = True
    prune_heads: bool = True
    stats: RuleStats | None = None
    jobs: int = 1
    executor: Executor | None = None
    checkpoint: str | os.PathLike[str] | None = None
    progress: Progress = None


@dataclass(frozen=True)
class LiftedOptions(_Checked):
    """Transformation 4.

    :ivar k: the largest evidence set.
    :ivar long_blocking: blocking rules ``not (AND E ^ AND X(E))`` instead of ``not AND E``.
    :ivar jobs: as for :class:`DefaultsOptions`.
    :ivar executor: as for :class:`DefaultsOptions`.
    :ivar checkpoint: as for :class:`DefaultsOptions`.
    """

    backend: str = DEFAULT_BACKEND
    k: int = 1
    long_blocking: bool = False
    jobs: int = 1
    executor: Executor | None = None
    checkpoint: str | os.PathLike[str] | None = None
    progress: Progress = None


MethodOptions = ExhaustiveOptions | SelectiveOptions | DefaultsOptions | LiftedOptions

def option_names(options: type[MethodOptions]) -> tuple[str, ...]:
    """The options an options class holds, in order."""
    return tuple(f.name for f in fields(options))


def make_options(method: str, options: type[MethodOptions], given: dict[str, Any]) -> MethodOptions:
    """``options(**given)`` for the transformation ``method``, checked.

    :raises UnknownNameError: for an option the method does not have, naming those it has.
    """
    names = option_names(options)
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise UnknownNameError(
            f"the {method} transformation has no option {unknown[0]!r}; its options: {', '.join(names)} "
            "(and evidence_preds, query_preds, grounded, force)"
        )
    return options(**given)
