"""Certifying a theory against exact MAP inference (Prop. 2 as a check).

For literal sets ``E`` and non-empty ``C`` on other atoms with ``|E| + |C| <= k + 1``
(``E`` possible under the MLN; with a focus, ``E`` over its evidence atoms and ``C``
over its query atoms), ``(M, E) |-MAP OR C`` must equal ``(T, E) |-poss OR C``.  The
MAP side uses the penalty table: ``(M, E) |-MAP OR C`` iff ``pen(E + not C) > pen(E)``.
All pairs are checked when there are at most ``max_pairs`` of them, otherwise exactly
``sample`` distinct pairs drawn uniformly (seeded); the first disagreement is returned
with both answers.  A verification that checked nothing is an error, never a
certificate.
"""

from __future__ import annotations

__all__ = ["Verification", "Counterexample", "verify", "count_pairs", "DEFAULT_MAX_PAIRS", "DEFAULT_SAMPLE", "COUNT_LIMIT",
           "SAMPLE_DRAWS", "SAMPLE_DRAWS_MORE"]

import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from math import comb

from .. import arguments
from ..errors import ModelError
from ..logic.formula import disjunction, literal
from ..map import DEFAULT_BACKEND, MapEngine, open_engine
from ..model.ground_mln import GroundMLN
from ..possibilistic.reasoner import Reasoner
from ..possibilistic.theory import PossibilisticTheory
from ..search.evidence import EvidenceSet, literal_sets
from ..search.focus import Focus
from ..search.progress import Progress, Reporter, SizeCosts
from ..stopping import Guard
from ..weights import INF
from .vocabulary import check_same_atoms

DEFAULT_MAX_PAIRS = 200_000
DEFAULT_SAMPLE = 10_000


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
    pairs_total: int | None = None
    """How many pairs there are (None: more than :data:`COUNT_LIMIT`), those whose
    evidence is impossible included."""
    pairs_impossible: int = 0
    """Pairs met whose evidence the hard formulas rule out (nothing to check: both sides
    are defined for possible evidence only): in an exhaustive check, all of them, and
    ``pairs_checked + pairs_impossible == pairs_total``; in a sample, those drawn (and
    drawn again)."""


def _with_atoms(theory: PossibilisticTheory, names: tuple[str, ...]) -> PossibilisticTheory:
    """The theory over the MLN's atom numbering (the same atoms, or an error naming the difference)."""
    check_same_atoms(theory.atoms, names)
    index = {n: i for i, n in enumerate(names, 1)}
    from ..logic.formula import Atom
    from ..logic.leaves import map_leaves

    renumber = lambda a: Atom(index[theory.name(a.index)])  # noqa: E731
    return theory.__class__(
        names, tuple(replace(pf, formula=map_leaves(pf.formula, renumber)) for pf in theory.formulas), theory.resolution,
    )


def _atoms(wanted: frozenset[int] | None, n: int) -> list[int]:
    return list(range(1, n + 1)) if wanted is None else sorted(wanted)


COUNT_LIMIT = 10**15
"""Pairs are counted up to this (beyond it, "more than")."""


def _pair_classes(evidence_atoms: Sequence[int], query_atoms: Sequence[int], k: int) -> Iterator[tuple[int, int]]:
    """``(|E| + |C|, pairs)`` over the pairs :func:`count_pairs` counts, a size at a time
    (a size may come more than once), the smallest evidence sets first."""
    q = len(query_atoms)
    shared = len(set(evidence_atoms) & set(query_atoms))
    alone = len(evidence_atoms) - shared
    k = min(k, len(evidence_atoms) + q)  # (no larger sets exist)
    for i in range(0, k + 1):
        for t in range(0, i + 1):  # t atoms of E are query atoms too
            sets_e = comb(shared, t) * comb(alone, i - t) * 2**i
            if sets_e:
                for j in range(1, k + 2 - i):
                    yield i + j, sets_e * comb(q - t, j) * 2**j


def count_pairs(evidence_atoms: Sequence[int], query_atoms: Sequence[int], k: int, limit: int | None = None) -> int:
    """How many pairs ``(E, C)``: ``E`` a literal set over ``evidence_atoms`` of at most
    ``k`` literals, ``C`` a non-empty literal set over ``query_atoms`` on other atoms,
    ``|E| + |C| <= k + 1`` (counting stops past ``limit``: more than that is enough to
    know)."""
    total = 0
    for _, pairs in _pair_classes(evidence_atoms, query_atoms, k):
        total += pairs
        if limit is not None and total > limit:
            return total
    return total


def _work_by_size(evidence_atoms: Sequence[int], query_atoms: Sequence[int], k: int) -> dict[str, dict[int, int]]:
    """The work of checking every pair :func:`count_pairs` counts, by its size: the
    pairs of each size ``|E| + |C|`` (``"item"``), and the distinct penalties asked
    (``"solve"``), each a MAP solve over a literal set: ``E`` and ``E + not C`` of every
    pair.  A literal set on atoms ``X`` is one of them iff ``X`` is within the evidence
    and query atoms and, at ``k + 1`` literals, meets the query atoms (``E`` of at most
    ``k``, on evidence atoms; ``E + not C`` with ``C`` the query atoms of ``X``)."""
    pairs: dict[int, int] = {}
    for size, count in _pair_classes(evidence_atoms, query_atoms, k):
        pairs[size] = pairs.get(size, 0) + count
    atoms = len(set(evidence_atoms) | set(query_atoms))
    only = len(set(evidence_atoms) - set(query_atoms))
    solves = {size: 2**size * (comb(atoms, size) - (comb(only, size) if size == k + 1 else 0))
              for size in range(0, k + 2)}
    return {"item": {size: count for size, count in pairs.items() if count},
            "solve": {size: count for size, count in solves.items() if count}}


def _all_pairs(evidence_atoms: Sequence[int], query_atoms: Sequence[int], k: int) -> Iterator[tuple[EvidenceSet, EvidenceSet]]:
    for e in literal_sets(evidence_atoms, k):
        used = {abs(l) for l in e}
        for c in literal_sets([a for a in query_atoms if a not in used], k + 1 - len(e)):
            if c:
                yield e, c


def _random_pairs(evidence_atoms: Sequence[int], query_atoms: Sequence[int], k: int,
                  rng: random.Random) -> Iterator[tuple[EvidenceSet, EvidenceSet]]:
    """Uniform random pairs (with repeats), by rejection of overlapping draws."""
    sizes = [(i, j) for i in range(k + 1) for j in range(1, k + 2 - i)]
    weights = [comb(len(evidence_atoms), i) * 2**i * comb(len(query_atoms), j) * 2**j for i, j in sizes]
    while True:
        i, j = rng.choices(sizes, weights)[0]
        e_atoms = rng.sample(list(evidence_atoms), i)
        c_atoms = rng.sample(list(query_atoms), j)
        if set(e_atoms) & set(c_atoms):
            continue

        def sign(a: int) -> int:
            return a if rng.random() < 0.5 else -a

        yield (tuple(sorted((sign(a) for a in e_atoms), key=abs)), tuple(sorted((sign(a) for a in c_atoms), key=abs)))


SAMPLE_DRAWS = 100
"""A sample stops drawing after ``SAMPLE_DRAWS`` times the pairs it wants (and
:data:`SAMPLE_DRAWS_MORE`) when it keeps drawing pairs it has met (checked already, or
with impossible evidence): drawing uniformly from ``n`` pairs meets every one after about
``n ln n`` draws, so by then it has met nearly all the pairs there are, and checked every
possible one it met; it says how many it checked."""

SAMPLE_DRAWS_MORE = 10_000
"""Draws a sample may take besides :data:`SAMPLE_DRAWS` per pair wanted (a small sample
of a space of mostly impossible pairs)."""


@dataclass(frozen=True)
class _Plan:
    """What a verification checks: every pair (``exhaustive``) or a sample of ``wanted``,
    of ``total`` pairs (``counted``: None past :data:`COUNT_LIMIT`), and the pairs in the
    order they are checked."""

    exhaustive: bool
    total: int
    counted: int | None
    wanted: int
    pairs: Iterable[tuple[EvidenceSet, EvidenceSet]]
    by_size: dict[str, dict[int, int]] | None  # (an exhaustive plan's work of each size: _work_by_size; None: a sample)


def _plan(mln: GroundMLN, k: int, focus: Focus, sample: int | None, seed: int, max_pairs: int) -> _Plan:
    """Every pair when there are at most ``max_pairs`` and no ``sample`` is asked for, or
    when ``sample`` is at least their number; else ``sample`` (or :data:`DEFAULT_SAMPLE`)
    drawn uniformly, seeded."""
    evidence_atoms = _atoms(focus.evidence, mln.n_atoms)
    query_atoms = _atoms(focus.query, mln.n_atoms)
    k_atoms = min(k, max(mln.n_atoms - 1, 0))  # (|E| + |C| atoms at most: no larger pairs exist)
    total = count_pairs(evidence_atoms, query_atoms, k_atoms, limit=max(max_pairs, sample or 0, COUNT_LIMIT))
    exhaustive = (sample is None and total <= max_pairs) or (sample is not None and sample >= total)
    pairs: Iterable[tuple[EvidenceSet, EvidenceSet]] = (
        _all_pairs(evidence_atoms, query_atoms, k_atoms) if exhaustive
        else _random_pairs(evidence_atoms, query_atoms, k_atoms, random.Random(seed)))
    return _Plan(exhaustive, total, total if total <= COUNT_LIMIT else None,
                 total if exhaustive else (sample or DEFAULT_SAMPLE), pairs,
                 _work_by_size(evidence_atoms, query_atoms, k_atoms) if exhaustive else None)


class _Penalties:
    """``pen(E)`` of the MLN, each evidence set asked of the engine once (and, where
    ``costs`` is given, what each solve took told to them, by its size)."""

    def __init__(self, engine: MapEngine, costs: SizeCosts | None = None) -> None:
        self.engine = engine
        self.costs = costs
        self.solving = 0.0  # seconds the solves took so far
        self.known: dict[EvidenceSet, int | float] = {}

    def __call__(self, lits: Iterable[int]) -> int | float:
        key = tuple(sorted(lits, key=abs))
        found = self.known.get(key)
        if found is None:
            began = time.perf_counter()
            found = self.known[key] = self.engine.penalty(list(key))
            took = time.perf_counter() - began
            self.solving += took
            if self.costs is not None:
                self.costs.add(len(key), took, "solve")
        return found


def _disagreement(pen: _Penalties, reasoner: Reasoner, e: EvidenceSet, c: EvidenceSet) -> tuple[bool, bool] | None:
    """``((M, E) |-MAP OR C, (T, E) |-poss OR C)`` when they differ, else None; the MAP
    side from the penalties: ``pen(E + not C) > pen(E)``."""
    map_side = pen(e + tuple(-l for l in c)) > pen(e)
    poss_side = reasoner.entails(list(e), disjunction(literal(l) for l in c))
    return (map_side, poss_side) if map_side != poss_side else None


def verify(
    theory: PossibilisticTheory,
    mln: GroundMLN,
    k: int,
    *,
    sample: int | None = None,
    seed: int = 0,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    backend: str = DEFAULT_BACKEND,
    focus: Focus = Focus(),
    progress: Progress = None,
    guard: Guard | None = None,
) -> Verification:
    """Check ``(M, E) |-MAP OR C`` iff ``(T, E) |-poss OR C`` for ``|E| + |C| <= k + 1``,
    ``E`` possible and over the focus's evidence atoms, ``C`` over its query atoms.

    Every pair when there are at most ``max_pairs`` and no ``sample`` is asked for, or
    when ``sample`` is at least their number; otherwise exactly ``sample`` distinct pairs
    with a possible ``E`` (seeded), or all of them if there are fewer.  The solves go
    through ``guard``, the run's (None: their own).

    :raises ArgumentError: for ``k < 0`` or ``sample < 1`` (as :func:`~pracmln_poss.transformations.conversion.transform_mln` for ``k``).
    """
    arguments.integer("k", k, 0)
    if sample is not None:
        arguments.integer("sample", sample, 1)
    start = time.perf_counter()
    theory = _with_atoms(theory, mln.atoms)
    plan = _plan(mln, k, focus, sample, seed, max_pairs)
    report = Reporter(progress, "evidence/conclusion pairs", plan.wanted)
    costs = SizeCosts(plan.wanted, plan.by_size)
    checked = 0
    met: set[tuple[EvidenceSet, EvidenceSet]] = set()  # (a sample's pairs drawn so far)
    seen_evidence: set[EvidenceSet] = set()
    impossible: set[EvidenceSet] = set()
    impossible_pairs: set[tuple[EvidenceSet, EvidenceSet]] = set()

    def outcome(example: Counterexample | None, every: bool) -> Verification:
        return Verification(ok=example is None, k=k, mode="exhaustive" if every else "sample", pairs_checked=checked,
                            evidence_sets=len(seen_evidence), seconds=time.perf_counter() - start,
                            seed=None if every else seed, counterexample=example, pairs_total=plan.counted,
                            pairs_impossible=len(impossible_pairs))

    with open_engine(mln, backend, guard) as engine, Reasoner(theory, guard=guard) as reasoner:
        # (all pairs: the solves apart from the rest, most of them asked by the first pairs)
        pen = _Penalties(engine, costs if plan.exhaustive else None)

        def done(size: int, began: float, solving: float) -> None:
            took = time.perf_counter() - began
            costs.add(size, took - (pen.solving - solving) if plan.exhaustive else took)

        for drawn, (e, c) in enumerate(plan.pairs):
            began, solving = time.perf_counter(), pen.solving
            if not plan.exhaustive:
                if (e, c) in met:
                    if drawn > SAMPLE_DRAWS * plan.wanted + SAMPLE_DRAWS_MORE or len(met) == plan.total:
                        break  # every pair, or nearly, is impossible or already checked
                    continue
                met.add((e, c))
            if e in impossible or pen(e) == INF:
                impossible.add(e)
                impossible_pairs.add((e, c))
                if plan.exhaustive:  # (one of the plan's pairs, as those checked)
                    done(len(e) + len(c), began, solving)
                continue
            seen_evidence.add(e)
            differ = _disagreement(pen, reasoner, e, c)
            checked += 1
            done(len(e) + len(c), began, solving)
            report(checked, None, len(e) + len(c), costs=costs)
            if differ is not None:
                return outcome(Counterexample(tuple(mln.literal_name(l) for l in e),
                                              tuple(mln.literal_name(l) for l in c), *differ), plan.exhaustive)
            if not plan.exhaustive and checked == plan.wanted:
                break
    if checked == 0:
        raise ModelError("nothing to verify: no evidence set within the focus is possible under the MLN")
    # (a sample that met every pair checked them all)
    return outcome(None, plan.exhaustive or checked + len(impossible_pairs) == plan.total)
