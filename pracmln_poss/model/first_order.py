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
        return frozenset(self._mentions.keys() | self._evidence_mentions.keys())

    def swap_invariant(self, c: str, d: str) -> bool:
        """Whether swapping constants ``c`` and ``d`` maps its formulas (with their
        weights) and its evidence onto themselves, as written: then the swap maps its
        grounding onto itself (docs/symmetry.md), provided each is a constant of one
        domain, the same."""
        swap = {c: d, d: c}

        def term(t: Term) -> Term:
            return Constant(swap[t.name]) if isinstance(t, Constant) and t.name in swap else t

        def moved(index: dict[str, list[int]]) -> list[int]:  # (only what names c or d can change)
            return sorted(set(index.get(c, ())) | set(index.get(d, ())))

        mentions = self._mentions
        if sorted(self.formulas[i].weight for i in mentions.get(c, ())) != sorted(
                self.formulas[i].weight for i in mentions.get(d, ())):
            return False  # (the swap maps the formulas naming c onto those naming d)
        formulas = [self.formulas[i] for i in moved(mentions)]
        evidence = [(e.pred, e.args, e.value) for e in (self.evidence[i] for i in moved(self._evidence_mentions))]
        return (Counter((map_terms(t.formula, term), t.weight) for t in formulas)
                == Counter((t.formula, t.weight) for t in formulas)
                and Counter((p, tuple(swap.get(a, a) for a in args), v) for p, args, v in evidence) == Counter(evidence))

    @cached_property
    def _mentions(self) -> dict[str, list[int]]:
        """Constant -> the indices of the formulas that name it."""
        out: dict[str, list[int]] = {}
        for i, template in enumerate(self.formulas):
            for name in {n for g in walk(template.formula) if isinstance(g, (PredAtom, Equals)) for n in _names(g)}:
                out.setdefault(name, []).append(i)
        return out

    @cached_property
    def _evidence_mentions(self) -> dict[str, list[int]]:
        """Constant -> the indices of the evidence literals that name it."""
        out: dict[str, list[int]] = {}
        for i, ev in enumerate(self.evidence):
            for name in set(ev.args):
                out.setdefault(name, []).append(i)
        return out


def _names(g: PredAtom | Equals) -> set[str]:
    terms = g.args if isinstance(g, PredAtom) else (g.left, g.right)
    return {t.name for t in terms if isinstance(t, Constant)}
