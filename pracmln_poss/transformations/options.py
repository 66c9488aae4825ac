"""The options of each transformation, as immutable values.

:func:`~pracmln_poss.transformations.transform` (and so ``convert``, the CLI and the
plugin) takes them as keyword arguments and checks them here: an option the method
does not have is an error naming the ones it has, not a silent no-op.
"""

from __future__ import annotations

__all__ = ["ExhaustiveOptions", "SelectiveOptions", "DefaultsOptions", "LiftedOptions", "MethodOptions",
           "method_options", "has_option"]

import os
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, fields
from typing import Any

from .. import arguments
from ..errors import ArgumentTypeError, UnknownNameError
from ..search.rules import RuleStats
from .exhaustive import DEFAULT_MAX_FORMULAS


class _Checked:
    """Options that check their own values when made: one ``TypeError`` or ``ValueError``
    naming the option, before any work."""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            check = _CHECKS.get(f.name)
            if check is not None:
                check(f.name, getattr(self, f.name))


def _backend(name: str, value: object) -> None:
    from ..map import BACKENDS

    if not isinstance(value, str) or value not in BACKENDS:
        raise UnknownNameError(f"unknown MAP backend {value!r} for {name}; valid: {', '.join(BACKENDS)}")


def _flag(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{name} takes True or False, not {type(value).__name__} {value!r}")


def _executor(name: str, value: object) -> None:
    if value is not None and not callable(getattr(value, "submit", None)):
        raise ArgumentTypeError(f"{name} takes a concurrent.futures.Executor or None, not {type(value).__name__}")


def _stats(name: str, value: object) -> None:
    if value is not None and not isinstance(value, RuleStats):
        raise ArgumentTypeError(f"{name} takes a RuleStats or None, not {type(value).__name__}")


_CHECKS: dict[str, Callable[[str, Any], object]] = {
    "backend": _backend,
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
    """Transformation 1.

    :ivar backend: the MAP backend (``auto``, ``rc2``, ``toulbar2``, ``cpsat``, ...).
    :ivar max_formulas: refuse more soft formulas than this (2^m worlds) unless forced.
    """

    backend: str = "auto"
    max_formulas: int = DEFAULT_MAX_FORMULAS


@dataclass(frozen=True)
class SelectiveOptions(_Checked):
    """Transformation 2 (its family of evidence sets is an argument of ``transform``)."""

    backend: str = "auto"


@dataclass(frozen=True)
class DefaultsOptions(_Checked):
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
class LiftedOptions(_Checked):
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


def has_option(method: str, name: str) -> bool:
    """Whether ``method`` takes the option ``name``."""
    return name in {f.name for f in fields(_BY_METHOD[method])}


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
