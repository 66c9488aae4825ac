"""A domain paid for once: the constants no question names priced as one representative.

The lifted search asks, of an evidence set ``E`` of at most ``k`` literals, its penalty
and the literals true in all its MAP worlds over a frame of a few constants
(docs/symmetry.md).  Of a large domain, ``E`` and the frame name at most ``(k + 1) * a``
constants that the model does not (``a``: the most arguments a predicate takes in the
domain); the others are interchangeable and, for the models this module accepts,
independent of each other given the rest of the world: each takes, in every MAP world,
one of the assignments that are best for one of them alone.  So they cost ``R`` times
what one of them costs (``R`` of them), and a model that keeps the named constants, the
first ``(k + 1) * a`` others, and one *representative* whose groundings weigh ``R``
times their template's weight has the same penalties and, over the kept constants, the
same MAP consequences: the same lifted theory, at a cost that does not grow with the
domain.  docs/domains.md states the conditions and proves it.

The conditions, checked on the first-order model (:func:`reduction` says which failed):

- no formula has three variables over the large domains together, nor a quantifier over
  one (each grounding then involves at most two constants no question names);
- no functional predicate has an argument in a large domain (its constraint would name
  every constant of one, or be written ground for each);
- the groundings that involve two such constants can all be satisfied by the atoms of
  that pair alone, set one way per predicate (``Friends(x, y)`` false satisfies
  ``Friends(x, y) => (Smokes(x) <=> Smokes(y))``): pairs cost nothing and constrain
  nothing else.
"""

from __future__ import annotations

__all__ = ["Reduction", "NotReduced", "reduction", "MAX_PAIR_PREDICATES"]

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..logic.formula import Exists, Formula, Truth, simplified_not, substitute_atoms, walk
from ..weights import INF
from .first_order import FirstOrderMLN, FormulaTemplate
from .grounding import bound_groundings, free_variables, infer_variable_domains, template_source

MAX_PAIR_PREDICATES = 12
"""The most predicates with atoms of a pair of constants whose settings are tried (two
each) for the pair's groundings to be satisfied by them alone."""


@dataclass(frozen=True)
class Reduction:
    """A model whose large domains each keep a few constants and one representative.

    :ivar model: the reduced model (its domains the kept constants and the representatives).
    :ivar full: the model it stands for.
    :ivar domains: per reduced domain: its name, its size in ``full``, the constants no
        question names that are kept, the representative, and how many it stands for.
    """

    model: FirstOrderMLN
    full: FirstOrderMLN
    domains: tuple[tuple[str, int, int, str, int], ...]

    @property
    def multiplicity(self) -> dict[str, int]:
        """Representative -> how many constants it stands for (:func:`~.grounding.ground`'s)."""
        return {rep: count for _, _, _, rep, count in self.domains}

    @property
    def representatives(self) -> frozenset[str]:
        return frozenset(rep for _, _, _, rep, _ in self.domains)

    def describe(self) -> str:
        """One line: each reduced domain, its size and what the search grounds of it."""
        return "; ".join(f"{name}: {size:,} constants, {size - count:,} of them searched and the other {count:,} "
                         "priced as one" for name, size, _, _, count in self.domains)


@dataclass(frozen=True)
class NotReduced:
    """Why a model's large domains are ground whole.

    :ivar domains: the large domains (name and size).
    :ivar reason: what keeps them whole, in a sentence.
    """

    domains: tuple[tuple[str, int], ...]
    reason: str

    def describe(self) -> str:
        sizes = ", ".join(f"{name} ({size:,} constants)" for name, size in self.domains)
        return f"{sizes} ground whole: {self.reason}"


def reduction(model: FirstOrderMLN, k: int) -> Reduction | NotReduced | None:
    """The reduction of ``model``'s large domains for evidence sets of at most ``k``
    literals (None: no domain is large enough to gain from one; :class:`NotReduced`:
    a condition of the module's fails, and why)."""
    large = _large_domains(model, k)
    if not large:
        return None
    preds = model.predicate_map
    typed = [infer_variable_domains(t, preds) for t in model.formulas]
    sizes = tuple((d, len(model.domain_map[d])) for d in large)
    reason = _obstacle(model, typed, set(large))
    if reason is not None:
        return NotReduced(sizes, reason)
    domains = dict(model.domains)
    reduced: list[tuple[str, int, int, str, int]] = []
    for d, (unnamed, keep) in large.items():
        rest = unnamed[keep:]
        dropped = set(rest)
        domains[d] = tuple(c for c in model.domain_map[d] if c not in dropped) + (rest[-1],)
        reduced.append((d, len(model.domain_map[d]), keep, rest[-1], len(rest)))
    small = replace(model, domains=tuple(domains.items()))
    reason = _coupled_pair(small, typed, set(large), {d: unnamed[:keep] for d, (unnamed, keep) in large.items()})
    if reason is not None:
        return NotReduced(sizes, reason)
    return Reduction(small, model, tuple(reduced))


def _large_domains(model: FirstOrderMLN, k: int) -> dict[str, tuple[tuple[str, ...], int]]:
    """Per domain worth reducing: its constants that the model does not name (and that
    are of no other domain), in order, and how many of them to keep: ``(k + 1)`` times the
    most arguments a predicate takes in it, and two at least; worth it when two or more
    are left."""
    counts: dict[str, int] = {}
    for p in model.predicates:
        for d in set(p.domains):
            counts[d] = max(counts.get(d, 0), p.domains.count(d))
    owners: dict[str, int] = {}
    for _, cs in model.domains:
        for c in set(cs):
            owners[c] = owners.get(c, 0) + 1
    out = {}
    for d, cs in model.domains:
        if d not in counts:
            continue
        unnamed = tuple(c for c in cs if c not in model.named and owners[c] == 1)
        keep = max(2, (k + 1) * counts[d])  # (two at least: the pairs are checked on two kept constants)
        if len(unnamed) - keep >= 2:
            out[d] = (unnamed, keep)
    return out


def _obstacle(model: FirstOrderMLN, typed: Sequence[Mapping[str, str]], large: set[str]) -> str | None:
    """What in the model's formulas or predicates keeps its large domains whole (None:
    nothing; the pairs are checked apart)."""
    for template, types in zip(model.formulas, typed):
        where = template_source(template)
        over = [v for v in free_variables(template.formula) if types[v] in large]
        if len(over) > 2:
            return f"{where} has {len(over)} variables over them ({', '.join(over)})"
        for node in walk(template.formula):
            if isinstance(node, Exists) and any(types.get(v.name) in large for v in node.variables):
                return f"{where} quantifies over one"
        if template.weight == INF and over and any(isinstance(n, Exists) for n in walk(template.formula)):
            return f"{where} is a hard formula with EXIST, written ground for each of their constants"
    for p in model.predicates:
        if p.functional is not None and large & set(p.domains):
            return f"predicate {p.name} is functional over one"
    return None


def _coupled_pair(small: FirstOrderMLN, typed: Sequence[Mapping[str, str]], large: set[str],
                  kept: Mapping[str, tuple[str, ...]]) -> str | None:
    """Why the groundings that involve two constants no question names cannot all be
    satisfied by the pair's own atoms (None: they can, for every pair of large domains)."""
    groups: dict[tuple[str, str], list[tuple[FormulaTemplate, dict[str, str]]]] = {}
    for template, types in zip(small.formulas, typed):
        if template.weight == 0:
            continue
        over = [v for v in free_variables(template.formula) if types[v] in large]
        if len(over) != 2:
            continue
        u, v = over
        du, dv = types[u], types[v]
        pair = tuple(sorted((du, dv)))
        x, y = kept[pair[0]][0], kept[pair[1]][1 if pair[0] == pair[1] else 0]
        bindings = [{u: x, v: y}, {u: y, v: x}] if du == dv else [{u: x, v: y} if du == pair[0] else {u: y, v: x}]
        groups.setdefault((pair[0], pair[1]), []).extend((template, b) for b in bindings)
    for (d1, d2), bound in groups.items():
        x, y = kept[d1][0], kept[d2][1 if d1 == d2 else 0]
        signature, grounded = bound_groundings(small, bound)
        pair_atoms: dict[str, list[int]] = {}
        for pred, doms in signature.predicates:
            for args in itertools.product(*(signature.domain_map[d] for d in doms)):
                if x in args and y in args:
                    pair_atoms.setdefault(pred, []).append(signature.index(pred, [
                        signature.domain_map[d].index(c) for d, c in zip(doms, args)]))
        wanted = [(g, template.weight) for (template, _), found in zip(bound, grounded) for g in found]
        if not _satisfied_by_pairs(wanted, pair_atoms):
            names = ", ".join(sorted({template_source(t) for t, _ in bound}))
            return (f"the formulas over two of their constants ({names}) cost something whatever the atoms "
                    f"of the pair: their constants are not independent")
    return None


def _satisfied_by_pairs(wanted: Sequence[tuple[Formula, int | float]], pair_atoms: Mapping[str, list[int]]) -> bool:
    """Whether setting the pair's atoms, all of a predicate one way, makes every ground
    formula cost nothing, whatever the other atoms (a positive weight's formula true, a
    negative one's false)."""
    if len(pair_atoms) > MAX_PAIR_PREDICATES:
        return False
    preds = sorted(pair_atoms)
    for values in itertools.product((False, True), repeat=len(preds)):
        setting = {a: value for p, value in zip(preds, values) for a in pair_atoms[p]}
        if all(_costs_nothing(g, weight, setting) for g, weight in wanted):
            return True
    return False


def _costs_nothing(g: Formula, weight: int | float, setting: Mapping[int, bool]) -> bool:
    formula = g if weight > 0 else simplified_not(g)
    return substitute_atoms(formula, setting.get) == Truth(True)
