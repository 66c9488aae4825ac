"""First-order MLNs as plain data: typed predicates, domains, weighted templates, evidence.

The bridge fills these from pracmln (:mod:`pracmln_poss.bridge`); grounding them
(:func:`pracmln_poss.model.grounding.ground`) gives a :class:`~pracmln_poss.model.ground_mln.GroundMLN`.
Weights are exact ints at ``resolution`` (any sign) or ``INF`` for hard templates.
"""

from __future__ import annotations

__all__ = ["Predicate", "FormulaTemplate", "EvidenceLiteral", "FirstOrderMLN", "fresh_constants", "MAX_DOMAIN_SIZE"]

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..errors import ModelError, SourcePosition
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

    def resized(self, sizes: Mapping[str, int]) -> FirstOrderMLN:
        """The model with each domain of ``sizes`` replaced by that many fresh constants
        (:func:`fresh_constants`, as ``--domain-size`` does).

        :raises ModelError: for a domain the model does not have, or a size out of range.
        """
        domains = dict(self.domains)
        for name, size in sizes.items():
            if name not in domains:
                raise ModelError(f"{name!r} is not a domain of the model; its domains: {', '.join(domains)}")
            domains[name] = tuple(fresh_constants(name, size, domains))
        return replace(self, domains=tuple(domains.items()))

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


MAX_DOMAIN_SIZE = 1_000_000
"""The largest domain :func:`fresh_constants` makes (the grounding's limit on atoms)."""


def fresh_constants(domain: str, size: int, domains: Mapping[str, Sequence[str]]) -> list[str]:
    """``size`` new constants for ``domain``: ``Cluster1``, ``Cluster2``, ... (with a
    suffix when the model already uses such a name).

    :raises ModelError: for a size below 1 or above :data:`~pracmln_poss.model.first_order.MAX_DOMAIN_SIZE`.
    """
    if size < 1:
        raise ModelError(f"domain size of {domain} must be at least 1, got {size}")
    if size > MAX_DOMAIN_SIZE:  # (checked before a single name is made)
        raise ModelError(f"domain size of {domain} is {size:,}: a predicate over it alone would have more ground "
                         f"atoms than a grounding may ({MAX_DOMAIN_SIZE:,})")
    taken = {c for name, cs in domains.items() if name != domain for c in cs}
    stem = domain[:1].upper() + domain[1:]

    def clashes(stem: str) -> bool:
        return any(c.startswith(stem) and c[len(stem):].isdecimal() and 1 <= int(c[len(stem):]) <= size
                   for c in taken)

    while clashes(stem):
        stem += "_"
    return [f"{stem}{i}" for i in range(1, size + 1)]
