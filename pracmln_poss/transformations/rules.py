"""The rule core of Transformations 3 and 4: default rules for evidence sets of size <= k.

For every evidence set ``E`` (all of them for Transformation 3; one per renaming class
of interchangeable constants for Transformation 4, whose symmetry maps each set onto
its class's representative), with ``X(E)`` the literals true in all MAP worlds of ``E``:

- ``E`` is impossible (contradicts the hard formulas): nothing;
- some ``y`` in ``E`` has ``(M, E - {y}) |-MAP y`` (cautious monotonicity): nothing;
- else the rule ``(AND E => AND head, pen(E))``, ``head`` being ``X(E)`` less the
  literals of ``E``, the fixed ones, and what rational monotonicity already gives
  (Prop. 3: ``x`` in ``X(E - {y})`` where ``pen(E - {y}) = pen(E)``); no rule when
  nothing is left;
- when ``pen(E) > 0``, the blocking rule ``(not AND body, lambda'_E)`` with ``lambda'_E``
  the level just below ``pen(E)`` among the penalties of all evidence sets, and
  ``body`` ``E`` (short form) or ``E`` with ``X(E)`` (long form); it is omitted when
  ``lambda'_E = pen(E - {y})`` for some ``y`` whose negation the rules of ``E - {y}``
  conclude.

A :class:`Focus` restricts the evidence sets to literals over the evidence and query
atoms, and the heads to query literals (docs/focus.md proves that the theory then
answers exactly the questions ``(M, E) |-MAP OR C`` with ``E`` over the evidence atoms,
``C`` over the query atoms and ``|E| + |C| <= k + 1``).

Most of the work is MAP inference, and most of it is avoided: an optimal world of
``E - {y}`` that satisfies ``y`` (renamed) is optimal for ``E``; below size ``k``,
``X(E)`` is read off the table of penalties (``x`` in ``X(E)`` iff
``pen(E + {not x}) > pen(E)``); at size ``k`` the backbone starts from a known optimum
and skips what rational monotonicity already gives.
"""

from __future__ import annotations

__all__ = ["Focus", "DefaultRule", "BlockingRule", "default_rules", "RuleStats"]

import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..atoms import predicate_of
from ..errors import ModelError, UnknownNameError
from ..ground_mln import GroundMLN
from ..map.engine import MapEngine, Optimum, World
from ..possibilistic.theory import Level
from ..weights import INF
from .common import Reporter
from .evidence import EvidenceSet
from .symmetry import Symmetry, canonical_map, rename


@dataclass(frozen=True)
class Focus:
    """Which atoms evidence may mention and which atoms rules conclude about (None: all)."""

    evidence: frozenset[int] | None = None
    query: frozenset[int] | None = None

    @classmethod
    def of_predicates(
        cls, mln: GroundMLN, evidence: Iterable[str] | None = None, query: Iterable[str] | None = None
    ) -> Focus:
        """The focus given by predicate names (``None``: no restriction).

        :raises UnknownNameError: naming a predicate the model does not have, and the ones it has.
        """
        by_pred: dict[str, set[int]] = {}
        for i, name in enumerate(mln.atoms, 1):
            by_pred.setdefault(predicate_of(name), set()).add(i)

        def atoms(preds: Iterable[str] | None, what: str) -> frozenset[int] | None:
            if preds is None:
                return None
            out: set[int] = set()
            for p in preds:
                if p not in by_pred:
                    raise UnknownNameError(
                        f"unknown {what} predicate {p!r}; the model's predicates: {', '.join(sorted(by_pred))}"
                    )
                out |= by_pred[p]
            return frozenset(out)

        return cls(atoms(evidence, "evidence"), atoms(query, "query"))

    @property
    def restricted(self) -> bool:
        return self.evidence is not None or self.query is not None

    def is_query(self, atom: int) -> bool:
        return self.query is None or atom in self.query

    def enumerated(self, atoms: Sequence[int]) -> list[int]:
        """The atoms evidence sets are built from: evidence and query atoms (the proof
        of Prop. 2 adds negated conclusions to the evidence)."""
        if self.evidence is None or self.query is None:
            return list(atoms)
        keep = self.evidence | self.query
        return [a for a in atoms if a in keep]


@dataclass(frozen=True)
class DefaultRule:
    """``AND evidence => AND head`` at ``level`` (an empty ``evidence`` is unconditional)."""

    evidence: EvidenceSet
    head: tuple[int, ...]
    level: Level


@dataclass(frozen=True)
class BlockingRule:
    """``not AND body`` at ``level``, for the evidence set ``evidence``."""

    evidence: EvidenceSet
    body: tuple[int, ...]
    level: Level


@dataclass
class RuleStats:
    """What a run of the rule search did."""

    evidence_sets: int = 0
    skipped_cautious: int = 0
    skipped_impossible: int = 0
    rules: int = 0
    blocking_rules: int = 0
    map_calls: int = 0


def _by_abs(lits: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(lits, key=lambda l: (abs(l), l)))


def default_rules(
    engine: MapEngine,
    sets: Sequence[EvidenceSet],
    k: int,
    *,
    symmetry: Symmetry | None = None,
    focus: Focus = Focus(),
    long_blocking: bool = True,
    omit_redundant_blocking: bool = True,
    prune_heads: bool = True,
    report_optima: Reporter | None = None,
    report_rules: Reporter | None = None,
    stats: RuleStats | None = None,
) -> Iterator[DefaultRule | BlockingRule]:
    """The rules for ``sets`` (every evidence set of at most ``k`` literals, smallest
    first; with ``symmetry``, one per renaming class, each its class's representative).

    Free atoms are those not fixed by hard units; the sets must be over free atoms.
    """
    if k < 0:
        raise ModelError(f"k must be at least 0, got {k}")
    stats = stats if stats is not None else RuleStats()
    fixed = engine.fixed
    mln = engine.mln
    free = [a for a in range(1, mln.n_atoms + 1) if a not in fixed]
    query_free = [a for a in free if focus.is_query(a)]

    def canon(e: EvidenceSet) -> tuple[EvidenceSet, dict[str, str]]:
        if symmetry is None:
            return _by_abs(e), {}
        return canonical_map(e, symmetry)

    optima = _optima(engine, sets, canon, symmetry, report_optima)
    empty = optima.get(())
    base = empty.cost if empty is not None else 0
    penalty = {e: INF if o is None else o.cost - base for e, o in optima.items()}

    def pen(lits: Iterable[int]) -> Level:
        return penalty[canon(tuple(lits))[0]]

    levels = sorted({p for p in penalty.values() if p != INF})
    backbone: dict[EvidenceSet, frozenset[int]] = {}
    fixed_lits = frozenset(a if v else -a for a, v in fixed.items())

    def consequences(e: EvidenceSet) -> frozenset[int]:
        """X(E) over the query atoms (and E, and the fixed atoms)."""
        if e not in backbone:
            if len(e) < k:
                taken = {abs(l) for l in e}
                rep, mapping = canon(e)
                world = optima[rep].world  # type: ignore[union-attr]
                if symmetry is not None:
                    world = _renamed_world(world, symmetry.permute(symmetry.extend(mapping)))
                # only literals of one MAP world can hold in all of them
                p = penalty[rep]
                backbone[e] = fixed_lits | frozenset(e) | frozenset(
                    x for x in (a if world[a] else -a for a in query_free if a not in taken) if pen(e + (-x,)) > p
                )
            else:
                # rational monotonicity: when pen(E) = pen(E - {y}), X(E) holds X(E - {y})
                known = [consequences(rest) for y, rest in _drop_each(e) if pen(rest) == pen(e)]
                backbone[e] = engine.consequences(
                    list(e), known=optima[e], entailed=frozenset().union(*known), atoms=query_free
                )
        return backbone[e]

    total = len(sets)
    for done, e in enumerate(sets, 1):
        if report_rules is not None:
            report_rules(done, stats.rules + stats.blocking_rules, len(e))
        stats.evidence_sets += 1
        p = penalty[e]
        if p == INF:
            stats.skipped_impossible += 1
            continue
        smaller = _drop_each(e)
        if any(pen(rest + (-y,)) > pen(rest) for y, rest in smaller):
            stats.skipped_cautious += 1  # E - {y} already entails y
            continue
        x = consequences(e)
        head = {lit for lit in x if abs(lit) not in fixed and lit not in e and focus.is_query(abs(lit))}
        if prune_heads:
            for _y, rest in smaller:
                if pen(rest) == p:  # E - {y} does not entail not y (rational monotonicity)
                    head -= consequences(rest)
        if head:
            stats.rules += 1
            yield DefaultRule(e, _by_abs(head), p)
        if p > 0:
            below = levels[bisect.bisect_left(levels, p) - 1]
            # the rules of E - {y} conclude not y when pen(E - {y}) < pen(E), if y is a query atom
            if omit_redundant_blocking and any(pen(rest) == below and focus.is_query(abs(y)) for y, rest in smaller):
                continue
            body = e
            if long_blocking:
                body = _by_abs(set(e) | {lit for lit in x if abs(lit) not in fixed and focus.is_query(abs(lit))})
            stats.blocking_rules += 1
            yield BlockingRule(e, body, below)
    if report_rules is not None:
        report_rules(total, stats.rules + stats.blocking_rules, final=True)
    stats.map_calls = engine.calls


def _drop_each(e: EvidenceSet) -> list[tuple[int, EvidenceSet]]:
    """Each literal of ``e`` with the rest of ``e``."""
    return [(y, tuple(l for l in e if l != y)) for y in e]


Canon = Callable[[EvidenceSet], tuple[EvidenceSet, dict[str, str]]]
"""An evidence set -> its class's representative and the renaming onto it."""


def _optima(engine: MapEngine, sets: Sequence[EvidenceSet], canon: Canon, symmetry: Symmetry | None,
            report: Reporter | None) -> dict[EvidenceSet, Optimum | None]:
    """An optimal world of every set (None when it is impossible), smallest first.

    Most need no solver call: if a (renamed) optimal world of ``E - {y}`` satisfies
    ``y``, it is optimal for ``E`` too (``pen(E) >= pen(E - {y})``); if ``E - {y}`` is
    impossible, so is ``E``.
    """
    optima: dict[EvidenceSet, Optimum | None] = {}
    for done, e in enumerate(sets, 1):
        if report is not None:
            report(done, 0, len(e))
        decided, found = _from_subsets(e, optima, canon, symmetry)
        optima[e] = found if decided else engine.find_optimum(list(e))
    if report is not None:
        report(len(sets), 0, final=True)
    if optima.get(()) is None:
        engine.base()  # raises: the hard formulas are unsatisfiable
    return optima


def _from_subsets(e: EvidenceSet, optima: dict[EvidenceSet, Optimum | None], canon: Canon,
                  symmetry: Symmetry | None) -> tuple[bool, Optimum | None]:
    """``(True, None)`` when some ``E - {y}`` is impossible, ``(True, optimum)`` when a
    renamed optimum of some ``E - {y}`` satisfies ``y``, else ``(False, None)``."""
    inherited = None
    for y in e:
        rest, mapping = canon(tuple(l for l in e if l != y))
        known = optima[rest]
        if known is None:
            return True, None
        if inherited is None:
            if symmetry is None:
                if known.world.satisfies(y):
                    inherited = known
            else:
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
