"""First-order MLNs as plain data: typed predicates, domains, weighted templates, evidence.

The bridge fills these from pracmln (:mod:`pracmln_poss.bridge`); grounding them
(:func:`pracmln_poss.model.grounding.ground`) gives a :class:`~pracmln_poss.model.ground_mln.GroundMLN`.
Weights are exact ints at ``resolution`` (any sign) or ``INF`` for hard templates.
"""

from __future__ import annotations

__all__ = ["Predicate", "FormulaTemplate", "EvidenceLiteral", "FirstOrderMLN"]

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..errors import SourcePosition
from ..logic.formula import Constant, Equals, Formula, PredAtom, Term, map_terms, walk
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

    @cached_property
    def named(self) -> frozenset[str]:
        """The constants its formulas or its evidence name: any two other constants of
        one domain are interchangeable (docs/symmetry.md)."""
        out = {c for ev in self.evidence for c in ev.args}
        for template in self.formulas:
            out.update(name for g in walk(template.formula) if isinstance(g, (PredAtom, Equals)) for name in _names(g))
        return frozenset(out)

    def swap_invariant(self, c: str, d: str) -> bool:
        """Whether swapping constants ``c`` and ``d`` maps its formulas (with their
        weights) and its evidence onto themselves, as written: then the swap maps its
        grounding onto itself (docs/symmetry.md), provided each is a constant of one
        domain, the same."""
        swap = {c: d, d: c}

        def term(t: Term) -> Term:
            return Constant(swap[t.name]) if isinstance(t, Constant) and t.name in swap else t

        def evidence(ev: EvidenceLiteral) -> tuple[str, tuple[str, ...], bool]:
            return ev.pred, ev.args, ev.value

        moved = [t for t in self.formulas if any(isinstance(g, (PredAtom, Equals)) and swap.keys() & _names(g)
                                                  for g in walk(t.formula))]
        return (Counter((map_terms(t.formula, term), t.weight) for t in moved) == Counter((t.formula, t.weight) for t in moved)
                and Counter(evidence(EvidenceLiteral(e.pred, tuple(swap.get(a, a) for a in e.args), e.value))
                            for e in self.evidence) == Counter(map(evidence, self.evidence)))


def _names(g: PredAtom | Equals) -> set[str]:
    terms = g.args if isinstance(g, PredAtom) else (g.left, g.right)
    return {t.name for t in terms if isinstance(t, Constant)}
