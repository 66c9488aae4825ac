"""First-order MLNs as plain data: typed predicates, domains, weighted templates, evidence.

The bridge fills these from pracmln (:mod:`pracmln_poss.bridge`); grounding them
(:func:`pracmln_poss.model.grounding.ground`) gives a :class:`~pracmln_poss.model.ground_mln.GroundMLN`.
Weights are exact ints at ``resolution`` (any sign) or ``INF`` for hard templates.
"""

from __future__ import annotations

__all__ = ["Predicate", "FormulaTemplate", "EvidenceLiteral", "FirstOrderMLN"]

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..errors import SourcePosition
from ..logic.formula import Formula
from ..weights import Resolution


@dataclass(frozen=True)
class Predicate:
    """A predicate declaration ``name(dom1, ..., domN)``.

    ``functional`` is the index of the argument marked ``!`` (exactly one value per
    assignment of the other arguments) or ``?`` (``soft_functional``: at most one).
    """

    name: str
    domains: tuple[str, ...]
    functional: int | None = None
    soft_functional: bool = False
    position: SourcePosition | None = None


@dataclass(frozen=True)
class FormulaTemplate:
    """A weighted first-order formula; ``weight`` is int steps (any sign) or ``INF``."""

    formula: Formula
    weight: int | float
    text: str
    position: SourcePosition | None = None


@dataclass(frozen=True)
class EvidenceLiteral:
    """A ground literal given as evidence (from a ``.db`` file)."""

    pred: str
    args: tuple[str, ...]
    value: bool
    position: SourcePosition | None = None


@dataclass(frozen=True)
class FirstOrderMLN:
    """A first-order MLN with its domains and evidence; all fields immutable."""

    predicates: tuple[Predicate, ...]
    domains: tuple[tuple[str, tuple[str, ...]], ...]
    formulas: tuple[FormulaTemplate, ...]
    evidence: tuple[EvidenceLiteral, ...] = ()
    resolution: Resolution = field(default_factory=Resolution)
    source: str | None = None

    @cached_property
    def domain_map(self) -> Mapping[str, tuple[str, ...]]:
        return dict(self.domains)

    @cached_property
    def predicate_map(self) -> Mapping[str, Predicate]:
        return {p.name: p for p in self.predicates}
