"""Transformation 4 (lifted): the search over evidence sets up to renaming.

Rules are computed for one evidence set per renaming class of interchangeable
constants (:mod:`.symmetry`) and kept as *schemas*: a representative evidence set with
one concluded literal, or a blocking rule (short ``not AND E`` by default, as the paper
recommends; long ``not (AND E ^ AND X(E))`` with ``long_blocking``).
:func:`ground_schemas` expands them over every renaming (with ``long_blocking`` exactly
the rules of Transformation 3, one conclusion per rule); :mod:`.variabilize` writes
them first-order.  :func:`lifted` does both.

Most of the work is MAP inference, and most of it is avoided: an optimal world of
``E - {y}`` that satisfies ``y`` (renamed) is optimal for ``E``; below size ``k``,
``X(E)`` is read off the table of penalties; at size ``k`` the backbone starts from a
known optimum and skips what rational monotonicity already gives.
"""

from __future__ import annotations

__all__ = ["Schema", "lifted", "lifted_schemas", "ground_schemas"]

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import ModelError
from ..ground_mln import GroundMLN
from ..grounding import ground
from ..logic.formula import Implies, literal
from ..map import open_engine
from ..map.engine import MapEngine, Optimum, World
from ..model import FirstOrderMLN
from ..possibilistic.theory import Level, PossibilisticFormula, PossibilisticTheory
from ..weights import INF
from .common import Progress, Reporter, clause_against, conjunction_of, hard_part
from .evidence import EvidenceSet, describe
from .symmetry import Symmetry, canonical, canonical_map, canonical_parts, rename, renamings, representatives

if TYPE_CHECKING:
    from .variabilize import LiftedTheory


@dataclass(frozen=True)
class Schema:
    """A rule for a representative evidence set: ``AND evidence => conclusion`` or,
    when ``conclusion`` is None, the blocking rule ``not AND body``."""

    evidence: EvidenceSet
    conclusion: int | None
    body: EvidenceSet
    level: Level


def lifted_schemas(mln: GroundMLN, symmetry: Symmetry, k: int, *, long_blocking: bool = False,
                   backend: str = "auto", progress: Progress = None) -> list[Schema]:
    """The rules of Transformation 3 for one evidence set per renaming class."""
    if k < 0:
        raise ModelError(f"k must be at least 0, got {k}")
    out: list[Schema] = []
    with open_engine(mln, backend) as engine:
        fixed = engine.fixed
        free = [a for a in range(1, mln.n_atoms + 1) if a not in fixed]
        reps = list(representatives(symmetry, k, free))
        optima = _optima(engine, symmetry, reps, Reporter(progress, "penalties of evidence classes", len(reps)))
        base = optima[()].cost if optima[()] is not None else 0
        penalty = {e: INF if o is None else o.cost - base for e, o in optima.items()}

        def pen(lits) -> Level:
            return penalty[canonical(tuple(lits), symmetry)]

        levels = sorted({p for p in penalty.values() if p != INF})
        backbone: dict[EvidenceSet, frozenset[int]] = {}
        fixed_lits = frozenset(a if v else -a for a, v in fixed.items())

        def consequences(e: EvidenceSet) -> frozenset[int]:
            """X(E); below size k read off the penalty table (x is entailed iff
            pen(E + {not x}) > pen(E)), as in the ground Transformation 3."""
            if e not in backbone:
                if len(e) < k:
                    taken = {abs(l) for l in e}
                    rep, mapping = canonical_map(e, symmetry)
                    world = _renamed_world(optima[rep].world, symmetry.permute(symmetry.extend(mapping)))
                    # only literals of one MAP world can hold in all of them
                    p = penalty[rep]
                    backbone[e] = fixed_lits | frozenset(e) | frozenset(
                        x for x in (a if world[a] else -a for a in free if a not in taken) if pen(e + (-x,)) > p
                    )
                else:
                    # rational monotonicity: when pen(E) = pen(E - {y}), X(E) holds X(E - {y})
                    known = [consequences(rest) for y, rest in _drop_each(e) if pen(rest) == pen(e)]
                    backbone[e] = engine.consequences(list(e), known=optima[e], entailed=frozenset().union(*known))
            return backbone[e]

        report = Reporter(progress, "rules of evidence classes", len(reps))
        for done, e in enumerate(reps, 1):
            report(done, len(out), len(e))
            p = penalty[e]
            if p == INF:
                continue
            smaller = _drop_each(e)
            if any(pen(rest + (-y,)) > pen(rest) for y, rest in smaller):
                continue  # cautious monotonicity: E - {y} already entails y
            x = consequences(e)
            head = {lit for lit in x if abs(lit) not in fixed and lit not in e}
            for y, rest in smaller:
                if pen(e) == pen(rest):  # E - {y} does not entail not y (rational monotonicity)
                    head -= consequences(rest)
            seen: set[tuple] = set()
            for lit in sorted(head, key=lambda l: (abs(l), l)):
                # one conclusion per class of those a renaming fixing E maps onto each other
                key = canonical_parts((e, (lit,)), symmetry)
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
        report(len(reps), len(out), final=True)
    return out


def _drop_each(e: EvidenceSet) -> list[tuple[int, EvidenceSet]]:
    """Each literal of ``e`` with the rest of ``e``."""
    return [(y, tuple(l for l in e if l != y)) for y in e]


def _optima(engine: MapEngine, symmetry: Symmetry, reps: list[EvidenceSet], report: Reporter) -> dict[EvidenceSet, Optimum | None]:
    """An optimal world of every representative (None when it is impossible), smallest first.

    Most need no solver call: if a renaming of an optimal world of ``E - {y}`` satisfies
    ``y``, it is optimal for ``E`` too (``pen(E) >= pen(E - {y})``); if ``E - {y}`` is
    impossible, so is ``E``.
    """
    optima: dict[EvidenceSet, Optimum | None] = {}
    for done, e in enumerate(reps, 1):
        report(done, 0, len(e))
        decided, found = _from_subsets(e, optima, symmetry)
        optima[e] = found if decided else engine.find_optimum(list(e))
    report(len(reps), 0, final=True)
    if optima[()] is None:
        engine.base()  # raises: the hard formulas are unsatisfiable
    return optima


def _from_subsets(
    e: EvidenceSet, optima: dict[EvidenceSet, Optimum | None], symmetry: Symmetry
) -> tuple[bool, Optimum | None]:
    """``(True, None)`` when some ``E - {y}`` is impossible, ``(True, optimum)`` when a
    renamed optimum of some ``E - {y}`` satisfies ``y``, else ``(False, None)``."""
    inherited = None
    for y in e:
        rest, mapping = canonical_map(tuple(l for l in e if l != y), symmetry)
        known = optima[rest]
        if known is None:
            return True, None
        if inherited is None:
            mapping = symmetry.extend(mapping)
            if known.world.satisfies(rename(y, mapping, symmetry)):
                inherited = Optimum(known.cost, _renamed_world(known.world, symmetry.permute(mapping)))
    return inherited is not None, inherited


def _renamed_world(world: World, perm: list[int]) -> World:
    """The world whose atom ``a`` has the value of atom ``perm[a]`` in ``world``: for
    ``perm`` mapping a set onto its representative, the representative's optimum turned
    into one of the set."""
    values = world.values
    return World((False,) + tuple(values[perm[a]] for a in range(1, len(values))))


def ground_schemas(mln: GroundMLN, symmetry: Symmetry, schemas: list[Schema]) -> PossibilisticTheory:
    """Every renaming of every schema, with the hard part: a ground theory."""
    out = hard_part(mln)
    seen: set[tuple] = set()
    for s in schemas:
        lits = s.body + ((s.conclusion,) if s.conclusion is not None else ())
        for mapping in renamings(lits, symmetry):
            body = tuple(sorted((rename(l, mapping, symmetry) for l in s.body), key=abs))
            if s.conclusion is None:
                key = ("block", body, s.level)
                formula = clause_against(body)
            else:
                head = rename(s.conclusion, mapping, symmetry)
                key = ("rule", body, head, s.level)
                formula = Implies(conjunction_of(body), literal(head)) if body else literal(head)
            if key not in seen:
                seen.add(key)
                out.append(PossibilisticFormula(formula, s.level, describe(body, mln)))
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)


def lifted(
    model: FirstOrderMLN,
    k: int = 1,
    *,
    long_blocking: bool = False,
    backend: str = "auto",
    progress: Progress = None,
    grounded: GroundMLN | None = None,
) -> "LiftedTheory":
    """Transformation 4: a :class:`~.variabilize.LiftedTheory` of the first-order ``model``
    for evidence sets of at most ``k`` literals, one per renaming class of
    interchangeable constants.

    :param long_blocking: blocking rules ``not (AND E ^ AND X(E))`` instead of ``not AND E``.
    :param grounded: ``ground(model)``, when the caller has it already.
    """
    from .symmetry import find_symmetry
    from .variabilize import lift

    if not isinstance(model, FirstOrderMLN):
        raise ModelError("the lifted transformation needs the first-order model (its domains), not a ground MLN")
    mln = grounded if grounded is not None else ground(model)
    symmetry = find_symmetry(mln, dict(model.domain_map))
    schemas = lifted_schemas(mln, symmetry, k, long_blocking=long_blocking, backend=backend, progress=progress)
    return lift(mln, symmetry, schemas, model)
