"""Transformation 3 (defaults): MAP inference as default rules, for evidence of size <= k.

For every consistent set ``E`` of at most ``k`` literals (over the atoms not fixed by
hard unit formulas), ``X(E)`` is the set of literals true in all MAP worlds of ``E``:

- ``E`` is skipped when some ``y`` in ``E`` has ``(M, E - {y}) |-MAP y`` (cautious
  monotonicity);
- otherwise the rule ``(AND E => AND (X - X0), pen(E))`` is added, where ``X0`` holds the
  literals that rational monotonicity already gives (Prop. 3: ``E - {y} |-MAP x`` and
  ``E - {y}`` does not entail ``not y``), the literals of ``E`` and the fixed ones;
  a rule left with nothing to conclude is omitted;
- when ``pen(E) > 0``, the blocking rule ``(not (AND E ^ AND X), lambda'_E)``, where
  ``lambda'_E`` is the level just below ``pen(E)`` among the penalties of all evidence
  sets of size <= k; it is omitted when ``lambda'_E = pen(E - {y})`` for some ``y``.

Prop. 2: for literal sets ``E``, ``C`` with ``|E| + |C| <= k + 1``,
``(M, E) |-MAP OR C`` iff ``(T, E) |-poss OR C``.
"""

from __future__ import annotations

__all__ = ["defaults", "DefaultsStats"]

import bisect
from dataclasses import dataclass

from ..errors import ModelError
from ..ground_mln import GroundMLN
from ..logic.formula import Implies
from ..map import open_engine
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory
from ..weights import INF
from .common import Progress, Reporter, clause_against, conjunction_of, hard_part
from .evidence import EvidenceSet, describe, literal_sets


@dataclass
class DefaultsStats:
    """What a run of Transformation 3 did (filled in when passed to :func:`defaults`)."""

    evidence_sets: int = 0
    skipped_cautious: int = 0
    skipped_impossible: int = 0
    rules: int = 0
    blocking_rules: int = 0
    map_calls: int = 0


def defaults(
    mln: GroundMLN,
    k: int = 1,
    *,
    backend: str = "auto",
    omit_redundant_blocking: bool = True,
    prune_heads: bool = True,
    progress: Progress = None,
    stats: DefaultsStats | None = None,
) -> PossibilisticTheory:
    """Transformation 3 with evidence sets of at most ``k`` literals.

    :param omit_redundant_blocking: drop blocking rules that rules for ``E - {y}`` entail.
    :param prune_heads: remove from rule heads what rational monotonicity gives (Prop. 3).
    """
    if k < 0:
        raise ModelError(f"k must be at least 0, got {k}")
    stats = stats if stats is not None else DefaultsStats()
    out = hard_part(mln)
    with open_engine(mln, backend) as engine:
        fixed = engine.fixed
        free = [a for a in range(1, mln.n_atoms + 1) if a not in fixed]
        sets = [tuple(free[abs(l) - 1] * (1 if l > 0 else -1) for l in e) for e in literal_sets(len(free), k)]
        # every penalty first: lambda'_E needs the levels of all evidence sets
        report = Reporter(progress, "penalties of evidence sets", len(sets))
        penalty: dict[EvidenceSet, int | float] = {}
        for done, e in enumerate(sets, 1):
            penalty[e] = engine.penalty(list(e))
            report(done, len(out), len(e))
        report(len(sets), len(out), final=True)
        report = Reporter(progress, "rules of evidence sets", len(sets))
        levels = sorted({p for p in penalty.values() if p != INF})
        backbone: dict[EvidenceSet, frozenset[int]] = {}

        def consequences(e: EvidenceSet) -> frozenset[int]:
            """X(E); below size k it is read off the penalty table: x is entailed iff
            pen(E + {not x}) > pen(E), and E + {not x} has at most k literals."""
            if e not in backbone:
                if len(e) < k:
                    taken = {abs(l) for l in e}
                    derived = {a if v else -a for a, v in fixed.items()} | set(e)
                    for a in free:
                        if a in taken:
                            continue
                        for x in (a, -a):
                            if penalty[tuple(sorted(e + (-x,), key=abs))] > penalty[e]:
                                derived.add(x)
                    backbone[e] = frozenset(derived)
                else:
                    backbone[e] = engine.consequences(list(e))
            return backbone[e]

        for done, e in enumerate(sets, 1):
            report(done, len(out), len(e))
            stats.evidence_sets += 1
            pen = penalty[e]
            if pen == INF:
                stats.skipped_impossible += 1
                continue
            smaller = [(y, tuple(l for l in e if l != y)) for y in e]
            if any(y in consequences(rest) for y, rest in smaller):
                stats.skipped_cautious += 1
                continue
            x = consequences(e)
            head = {lit for lit in x if abs(lit) not in fixed and lit not in e}
            if prune_heads:
                for y, rest in smaller:
                    x_rest = consequences(rest)
                    if -y not in x_rest:
                        head -= x_rest
            origin = describe(e, mln)
            if head:
                rule = conjunction_of(sorted(head, key=abs))
                if e:
                    rule = Implies(conjunction_of(e), rule)
                out.append(PossibilisticFormula(rule, pen, origin))
                stats.rules += 1
            if pen > 0:
                below = levels[bisect.bisect_left(levels, pen) - 1]
                if omit_redundant_blocking and any(penalty[rest] == below for _, rest in smaller):
                    continue
                body = sorted(set(e) | {lit for lit in x if abs(lit) not in fixed}, key=abs)
                out.append(PossibilisticFormula(clause_against(body), below, "blocking " + origin))
                stats.blocking_rules += 1
        stats.map_calls = engine.calls
    report(len(sets), len(out), final=True)
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)
