"""Certifying a theory against exact MAP inference (Prop. 2 as a check).

For literal sets ``E`` and non-empty ``C`` with ``|E| + |C| <= k + 1`` (``E`` possible
under the MLN), ``(M, E) |-MAP OR C`` must equal ``(T, E) |-poss OR C``.  The MAP side
uses the penalty table: ``(M, E) |-MAP OR C`` iff ``pen(E + not C) > pen(E)``.  All
pairs are checked when there are at most ``max_pairs`` of them, otherwise a seeded
random sample of ``sample`` pairs; the first disagreement is returned with both
answers.
"""

from __future__ import annotations

__all__ = ["Verification", "Counterexample", "verify", "DEFAULT_MAX_PAIRS"]

import random
import time
from dataclasses import dataclass

from ..errors import ModelError
from ..ground_mln import GroundMLN
from ..logic.formula import disjunction, literal
from ..map import open_engine
from ..possibilistic.theory import PossibilisticTheory
from ..transformations.common import Progress, Reporter
from ..transformations.evidence import EvidenceSet, literal_sets
from ..weights import INF

DEFAULT_MAX_PAIRS = 200_000


@dataclass(frozen=True)
class Counterexample:
    """Evidence and conclusion (names) where the MLN and the theory disagree."""

    evidence: tuple[str, ...]
    conclusion: tuple[str, ...]
    map_entails: bool
    theory_entails: bool


@dataclass(frozen=True)
class Verification:
    """The outcome of :func:`verify`: a certificate, or the first counterexample."""

    ok: bool
    k: int
    mode: str  # "exhaustive" or "sample"
    pairs_checked: int
    evidence_sets: int
    seconds: float
    seed: int | None
    counterexample: Counterexample | None


def _with_atoms(theory: PossibilisticTheory, names: tuple[str, ...]) -> PossibilisticTheory:
    """The theory over the MLN's atom numbering (atoms it does not mention added)."""
    missing = [n for n in theory.atoms if n not in set(names)]
    if missing:
        raise ModelError(f"the theory mentions atoms the MLN does not have: {', '.join(missing[:5])}")
    index = {n: i for i, n in enumerate(names, 1)}
    from ..atoms import map_leaves
    from ..logic.formula import Atom

    renumber = lambda a: Atom(index[theory.name(a.index)])  # noqa: E731
    return theory.__class__(
        names,
        tuple(pf.__class__(map_leaves(pf.formula, renumber), pf.level, pf.origin) for pf in theory.formulas),
        theory.resolution,
    )


def verify(
    theory: PossibilisticTheory,
    mln: GroundMLN,
    k: int,
    *,
    sample: int | None = None,
    seed: int = 0,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    backend: str = "auto",
    progress: Progress = None,
) -> Verification:
    """Check ``(M, E) |-MAP OR C`` iff ``(T, E) |-poss OR C`` for ``|E| + |C| <= k + 1``."""
    if k < 0:
        raise ModelError(f"k must be at least 0, got {k}")
    start = time.perf_counter()
    theory = _with_atoms(theory, mln.atoms)
    n = mln.n_atoms
    def all_pairs():
        for e in literal_sets(n, k):
            used = {abs(l) for l in e}
            for c in literal_sets(n, k + 1 - len(e)):
                if c and not used & {abs(l) for l in c}:
                    yield e, c

    total = sum(1 for _ in all_pairs())
    exhaustive = sample is None and total <= max_pairs
    if exhaustive:
        pairs: list[tuple[EvidenceSet, EvidenceSet]] | object = all_pairs()
    else:
        # reservoir sampling: a seeded, uniform sample without holding every pair
        rng = random.Random(seed)
        size = min(sample or 10_000, total)
        chosen: list[tuple[EvidenceSet, EvidenceSet]] = []
        for i, pair in enumerate(all_pairs()):
            if i < size:
                chosen.append(pair)
            else:
                j = rng.randrange(i + 1)
                if j < size:
                    chosen[j] = pair
        pairs = chosen
    penalties: dict[EvidenceSet, int | float] = {}
    report = Reporter(progress, "evidence/conclusion pairs", total if exhaustive else len(chosen))
    checked = 0
    seen_evidence: set[EvidenceSet] = set()
    with open_engine(mln, backend) as engine, theory.reasoner() as reasoner:

        def pen(lits: tuple[int, ...]) -> int | float:
            key = tuple(sorted(lits, key=abs))
            if key not in penalties:
                penalties[key] = engine.penalty(list(key))
            return penalties[key]

        for e, c in pairs:  # type: ignore[attr-defined]
            seen_evidence.add(e)
            if pen(e) == INF:
                continue
            map_side = pen(e + tuple(-l for l in c)) > pen(e)
            poss_side = reasoner.entails(list(e), disjunction(literal(l) for l in c))
            checked += 1
            report(checked, 0, len(e) + len(c))
            if map_side != poss_side:
                example = Counterexample(
                    tuple(mln.literal_name(l) for l in e), tuple(mln.literal_name(l) for l in c), map_side, poss_side
                )
                return Verification(False, k, "exhaustive" if exhaustive else "sample", checked,
                                    len(seen_evidence), time.perf_counter() - start,
                                    None if exhaustive else seed, example)
    return Verification(True, k, "exhaustive" if exhaustive else "sample", checked, len(seen_evidence),
                        time.perf_counter() - start, None if exhaustive else seed, None)


