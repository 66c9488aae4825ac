"""Transformation 4 (lifted), first part: the search over evidence sets up to renaming.

Work in progress (issue 6): rules are computed for one evidence set per renaming class
of interchangeable constants (:mod:`.symmetry`) and kept as *schemas*: a
representative evidence set with one concluded literal, or a blocking rule.
:func:`ground_schemas` expands them over every renaming, giving the ground theory of
Transformation 3 (with ``long_blocking=True`` exactly its rules, one conclusion per
rule; with the default short blocking rule ``not AND E`` the one the paper
recommends).  Variabilisation into first-order rules, their file formats and the
command line come next.
"""

from __future__ import annotations

__all__ = ["Schema", "lifted", "lifted_schemas", "ground_schemas"]

import bisect
from dataclasses import dataclass

from ..ground_mln import GroundMLN
from ..logic.formula import Implies, literal
from ..map import open_engine
from ..possibilistic.theory import Level, PossibilisticFormula, PossibilisticTheory
from ..weights import INF
from .common import clause_against, conjunction_of, hard_part
from .evidence import EvidenceSet, describe
from .symmetry import Symmetry, _rename, canonical, renamings, representatives


@dataclass(frozen=True)
class Schema:
    """A rule for a representative evidence set: ``AND evidence => conclusion`` or,
    when ``conclusion`` is None, the blocking rule ``not AND body``."""

    evidence: EvidenceSet
    conclusion: int | None
    body: EvidenceSet
    level: Level


def lifted_schemas(mln: GroundMLN, symmetry: Symmetry, k: int, *, long_blocking: bool = False,
                   backend: str = "rc2") -> list[Schema]:
    """The rules of Transformation 3 for one evidence set per renaming class."""
    out: list[Schema] = []
    with open_engine(mln, backend) as engine:
        fixed = engine.fixed
        free = [a for a in range(1, mln.n_atoms + 1) if a not in fixed]
        reps = list(representatives(symmetry, k, free))
        penalty = {e: engine.penalty(list(e)) for e in reps}

        def pen(lits) -> Level:
            return penalty[canonical(tuple(lits), symmetry)]

        levels = sorted({p for p in penalty.values() if p != INF})
        backbone: dict[EvidenceSet, frozenset[int]] = {}

        def consequences(e: EvidenceSet) -> frozenset[int]:
            if e not in backbone:
                backbone[e] = engine.consequences(list(e))
            return backbone[e]

        for e in reps:
            p = penalty[e]
            if p == INF:
                continue
            smaller = [(y, tuple(l for l in e if l != y)) for y in e]
            if any(pen(rest + (-y,)) > pen(rest) for y, rest in smaller):
                continue  # cautious monotonicity: E - {y} already entails y
            x = consequences(e)
            head = {lit for lit in x if abs(lit) not in fixed and lit not in e}
            for y, rest in smaller:
                if pen(e) == pen(rest):  # E - {y} does not entail not y (rational monotonicity)
                    head -= consequences(rest)
            seen: set[tuple] = set()
            for lit in sorted(head, key=lambda l: (abs(l), l)):
                key = _rule_key(e, lit, symmetry)
                if key not in seen:
                    seen.add(key)
                    out.append(Schema(e, lit, e, p))
            if p > 0:
                below = levels[bisect.bisect_left(levels, p) - 1]
                if any(pen(rest) == below for _, rest in smaller):
                    continue
                body = e
                if long_blocking:
                    body = tuple(sorted(set(e) | {lit for lit in x if abs(lit) not in fixed}, key=abs))
                out.append(Schema(e, None, body, below))
    return out


def _rule_key(evidence: EvidenceSet, conclusion: int, symmetry: Symmetry) -> tuple:
    """Equal for two conclusions of the same evidence set that a renaming fixing the
    evidence maps onto each other."""
    mln = symmetry.mln
    best = None
    for mapping in renamings(evidence + (conclusion,), symmetry):
        if tuple(sorted((_rename(l, mapping, mln) for l in evidence), key=abs)) != tuple(sorted(evidence, key=abs)):
            continue
        image = _rename(conclusion, mapping, mln)
        best = image if best is None or image < best else best
    return (evidence, best)


def ground_schemas(mln: GroundMLN, symmetry: Symmetry, schemas: list[Schema]) -> PossibilisticTheory:
    """Every renaming of every schema, with the hard part: a ground theory."""
    out = hard_part(mln)
    seen: set[tuple] = set()
    for s in schemas:
        lits = s.body + ((s.conclusion,) if s.conclusion is not None else ())
        for mapping in renamings(lits, symmetry):
            body = tuple(sorted((_rename(l, mapping, mln) for l in s.body), key=abs))
            if s.conclusion is None:
                key = ("block", body, s.level)
                formula = clause_against(body)
            else:
                head = _rename(s.conclusion, mapping, mln)
                key = ("rule", body, head, s.level)
                formula = Implies(conjunction_of(body), literal(head)) if body else literal(head)
            if key not in seen:
                seen.add(key)
                out.append(PossibilisticFormula(formula, s.level, describe(body, mln)))
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)


def lifted(
    mln: GroundMLN,
    k: int = 1,
    *,
    domains: dict[str, tuple[str, ...]],
    long_blocking: bool = False,
    backend: str = "rc2",
    progress=None,
):
    """Transformation 4: a :class:`~.variabilize.LiftedTheory` for evidence sets of at most
    ``k`` literals, one per renaming class of interchangeable constants.

    :param domains: the model's domains (constants per domain), for the symmetry test.
    """
    from .symmetry import find_symmetry
    from .variabilize import lift

    symmetry = find_symmetry(mln, domains)
    return lift(mln, symmetry, lifted_schemas(mln, symmetry, k, long_blocking=long_blocking, backend=backend))
