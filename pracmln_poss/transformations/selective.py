"""Transformation 2 (selective): avoid drowning for a chosen family of evidence sets.

With the corrections of docs/corrections.md: ``M*_E`` uses ``pen(M, not F) <= pen(M, E)``
(item 2), and the weakened formula ``(not AND E v OR Z)`` gets the level
``pen(M, E ^ not F1 ^ ... ^ not Fl)`` (item 1).  For every ``E`` in the family,
``(M, E) |-MAP a`` iff ``(T, E) |-poss a``.  Formulas the hard part already entails
(level ``INF``) are dropped.
"""

from __future__ import annotations

__all__ = ["selective", "evidence_family", "minimal_sets", "SelectiveOptions"]

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..logic.formula import Formula, disjunction, literal, negate
from ..map import open_engine
from ..model.ground_mln import GroundMLN
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory
from ..search.evidence import EvidenceSet, describe, literal_sets
from ..search.focus import Focus
from ..search.progress import Reporter
from ..weights import INF
from .formulas import clause_against, hard_part
from .options import MAX_EVIDENCE_SETS, Flag, Request, Runtime, SearchOptions, check_family, family_name, option


@dataclass(frozen=True)
class SelectiveOptions(SearchOptions):
    """Transformation 2.

    :ivar family: ``all`` or ``positive`` (the sets of at most ``k`` literals over the
        evidence atoms, or only the positive ones), or the evidence sets themselves.
    """

    method: ClassVar[str] = "selective"
    max_evidence_sets: ClassVar[int | None] = MAX_EVIDENCE_SETS

    family: str | tuple[EvidenceSet, ...] = option("all", Flag(
        ("--family",), "all sets of at most k literals, only positive ones, or a file with one evidence set "
        "per line (literals separated by commas)", str, "all|positive|FILE"), check=check_family)

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.family, str):
            object.__setattr__(self, "family", tuple(tuple(e) for e in self.family))

    def run(self, request: Request, runtime: Runtime) -> PossibilisticTheory:
        return selective(request.ground, self, focus=request.focus, runtime=runtime)

    def evidence_atoms(self, request: Request, free: list[int]) -> int | None:
        if not isinstance(self.family, str):
            return None  # (the caller's sets, in memory already)
        return len(free) if request.focus.evidence is None else len(request.focus.evidence)


def minimal_sets(items: Sequence[int], holds: Callable[[tuple[int, ...]], bool]) -> list[tuple[int, ...]]:
    """The subset-minimal subsets of ``items`` for which the upward-closed ``holds`` is true,
    by increasing size (supersets of a found set are not tried)."""
    found: list[frozenset[int]] = []
    out: list[tuple[int, ...]] = []
    for size in range(1, len(items) + 1):
        for subset in itertools.combinations(items, size):
            s = frozenset(subset)
            if any(f <= s for f in found):
                continue
            if holds(subset):
                found.append(s)
                out.append(subset)
    return out


def selective(mln: GroundMLN, options: SelectiveOptions = SelectiveOptions(), *, focus: Focus = Focus(),
              runtime: Runtime = Runtime()) -> PossibilisticTheory:
    """Transformation 2 for the evidence sets of ``options.family`` (tuples of DIMACS
    literals, or a family by name over the focus's evidence atoms: :func:`evidence_family`).

    :param runtime: its progress is reported to.
    """
    family: Sequence[EvidenceSet] = (evidence_family(mln, options.family, options.k, focus)
                                      if isinstance(options.family, str) else options.family)
    soft = [wf.formula for wf in mln.soft]
    out = hard_part(mln)
    report = Reporter(runtime.progress, "evidence sets", len(family))
    with open_engine(mln, options.backend, runtime.guard) as engine:
        negated_level = [engine.penalty([negate(f)]) for f in soft]
        for i, (f, level) in enumerate(zip(soft, negated_level)):
            if level != INF:
                out.append(PossibilisticFormula(f, level, f"soft formula {i + 1}", mln.resolution))
        for done, evidence in enumerate(family, 1):
            pen_e = engine.penalty(list(evidence))
            if pen_e != INF:
                origin = describe(evidence, mln)
                candidates = [i for i in range(len(soft)) if negated_level[i] <= pen_e]

                def breaks(subset: tuple[int, ...]) -> bool:  # used within this iteration only
                    return engine.penalty(list(evidence) + [negate(f) for f in (soft[i] for i in subset)]) > pen_e  # noqa: B023

                for subset in minimal_sets(candidates, breaks):
                    parts = tuple(soft[i] for i in subset)
                    weakened = disjunction((*_negated_evidence(evidence), *parts))
                    level = engine.penalty(list(evidence) + [negate(p) for p in parts])
                    if level != INF:
                        out.append(PossibilisticFormula(weakened, level, origin, mln.resolution))
                out.append(PossibilisticFormula(clause_against(evidence), pen_e, origin, mln.resolution))
            report(done, len(out), len(evidence))
    report(len(family), len(out), final=True)
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)


def evidence_family(mln: GroundMLN, kind: str, k: int, focus: Focus = Focus()) -> list[EvidenceSet]:
    """The evidence sets of at most ``k`` literals over the focus's evidence atoms:
    ``all`` of them, or only the ``positive`` ones."""
    family_name(kind)
    atoms = list(range(1, mln.n_atoms + 1)) if focus.evidence is None else sorted(focus.evidence)
    return list(literal_sets(atoms, k, positive_only=kind == "positive"))


def _negated_evidence(evidence: EvidenceSet) -> tuple[Formula, ...]:
    return tuple(literal(-lit) for lit in evidence)
