"""Inconsistency-tolerant possibilistic inference on one incremental SAT solver.

Every formula is clausified once (Plaisted-Greenbaum) and its clauses are guarded by
the activation literal of its level; a cut is a set of assumptions, so no query
rebuilds anything.  ``con`` is found by a binary search over the sorted distinct
levels: ``ceil(log2(#levels))`` solver calls, plus one to answer an entailment.
Evidence and queries that are not literals get a fresh guard, retired after use.
"""

from __future__ import annotations

__all__ = ["Reasoner", "QueryResult"]

from collections.abc import Sequence
from dataclasses import dataclass

from .. import arguments
from ..atoms import Evidence, EvidenceItem, evidence_items
from ..closable import Closable
from ..collector import collection_paused
from ..errors import ArgumentTypeError, InconsistentEvidenceError
from ..logic.cnf import Clause
from ..logic.formula import Formula, is_literal, literal_of, negate
from ..stopping import SAT_SOLVER, Guard
from ..weights import INF
from .ground_clauses import rule_contents
from .lifted_theory import LiftedTheory
from .selectors import SelectorSolver
from .theory import Level, PossibilisticFormula, PossibilisticTheory


@dataclass(frozen=True)
class QueryResult:
    """The answer to ``(T, E) |-poss query``, exact: levels in int steps of the theory's
    resolution (:class:`~.theory.Answer` is the same in weight units, formulas as text)."""

    entailed: bool
    consistency_steps: Level  # con(T, E) in int steps of the resolution (INF: certain)
    drowned: tuple[PossibilisticFormula, ...]

    def __repr__(self) -> str:  # (counted, not listed: see Answer)
        return f"QueryResult(entailed={self.entailed}, consistency_steps={self.consistency_steps!r}, " \
               f"drowned=<{len(self.drowned):,} rule{'' if len(self.drowned) == 1 else 's'}>)"


class Reasoner(Closable):
    """Possibilistic inference over one theory; a context manager owning its SAT solver.

    The exact layer: every level it takes or gives is in int steps of the theory's
    resolution (``INF``: certain); :class:`~.inference.PossibilisticInference` answers
    in weight units, for ground and lifted theories.

    A lifted theory is answered on the clauses of its rules' groundings
    (:func:`~.ground_clauses.rule_contents`), made without a formula per grounding; its
    drowned formulas are the ground formulas of :meth:`.LiftedTheory.ground` below the
    consistency level (:meth:`.LiftedTheory.ground_below`: the rules below it grounded,
    for each question).

    :ivar theory: the ground theory answered on; for a lifted theory, its atoms alone
        (what names evidence and queries), its rules being in the solver as clauses.
    :ivar contents: per formula (rule) of the theory given, what the solver holds of it:
        the formula, or for a lifted rule the clauses of its groundings.
    :param force: answer a lifted theory above
        :data:`~.lifted_theory.MAX_GROUNDINGS` groundings.
    :param guard: the run's guard, which the SAT calls go through (None: one of their own).
    :raises ModelError: for a lifted theory above that many groundings, unless ``force``.
    """

    def __init__(self, theory: PossibilisticTheory | LiftedTheory, solver: str = SAT_SOLVER,
                 force: bool = False, guard: Guard | None = None) -> None:
        rules = theory.formulas
        contents: Sequence[Formula | list[Clause]]
        if isinstance(theory, LiftedTheory):
            theory.check_grounding_size(force)
            self.theory = theory.atoms_only()
            self._lifted: LiftedTheory | None = theory
        else:
            self.theory = theory
            self._lifted = None
        self.level_steps: tuple[Level, ...] = tuple(sorted({pf.steps for pf in rules} | {INF}))
        finite = [i for i, pf in enumerate(rules) if pf.steps != INF]
        with collection_paused():  # (a lifted theory's clauses by the million, and no cycle among them)
            contents = rule_contents(theory) if isinstance(theory, LiftedTheory) else [pf.formula for pf in rules]
            # a selector per finite level; certain formulas always on
            self._solver = SelectorSolver(self.theory.n_atoms, [contents[i] for i in finite], solver,
                                          groups=[rules[i].steps for i in finite],
                                          always=[c for c, pf in zip(contents, rules) if pf.steps == INF],
                                          run_guard=guard)
        self._activation = self._solver.selector_of
        self._has_certain = len(finite) < len(rules)
        self._formulas = rules
        self.contents: tuple[Formula | list[Clause], ...] = tuple(contents)

    @property
    def calls(self) -> int:
        """SAT solver calls so far, for statistics and benchmarks."""
        return self._solver.calls

    @property
    def guard(self) -> Guard:
        """The run's guard its SAT calls go through."""
        return self._solver.run_guard

    def close(self) -> None:
        """Release the SAT solver."""
        self._solver.close()

    # -- the solver interface ----------------------------------------------------------

    @property
    def solver(self) -> SelectorSolver:
        """The SAT solver, for callers that ask it more (under :meth:`cut_at` and
        guards of their own, which they retire)."""
        return self._solver

    def cut_at(self, steps: Level) -> list[int]:
        """Assumptions that switch on the cut at the level ``steps`` (one of
        ``level_steps``): the formulas at or above it."""
        return self._cut_assumptions(self.level_steps.index(steps))

    def evidence_assumptions(self, evidence: Evidence) -> tuple[list[int], list[int]]:
        """Evidence as assumptions, and the guards to retire afterwards (for callers of
        :attr:`solver`)."""
        return self._evidence(list(evidence_items(evidence)))

    def _cut_assumptions(self, index: int) -> list[int]:
        """Assumptions enabling the cut at ``self.level_steps[index]`` (levels at or above it)."""
        return [self._activation[level] for level in self.level_steps[index:-1]]

    def _sat(self, assumptions: list[int]) -> bool:
        return self._solver.satisfiable(assumptions)

    def _evidence(self, evidence: Evidence) -> tuple[list[int], list[int]]:
        """Evidence as assumptions, and the guards to retire afterwards."""
        assumptions: list[int] = []
        guards: list[int] = []
        for item in self.theory.evidence(evidence):
            if isinstance(item, int):
                assumptions.append(item)
            else:
                g = self._solver.guard(item)
                guards.append(g)
                assumptions.append(g)
        return assumptions, guards

    def _search(self, assumptions: list[int]) -> int:
        """Index in ``levels`` of the lowest satisfiable cut, taking the certain cut as satisfiable."""
        lo, hi = 0, len(self.level_steps) - 1  # invariant: the answer is in [lo, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if self._sat(assumptions + self._cut_assumptions(mid)):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def _certain_part_is_trivial(self, assumptions: list[int], formula_evidence: bool) -> bool:
        """Whether the certain cut plus the evidence is satisfiable without asking the solver:
        no certain formulas, and the evidence is a consistent set of literals."""
        literals = set(assumptions)
        return not self._has_certain and not formula_evidence and not any(-a in literals for a in literals)

    # -- inference --------------------------------------------------------------------

    def consistency_steps(self, evidence: Evidence = ()) -> Level:
        """``con(T, E)`` in exact int steps: the lowest level whose cut plus the evidence is
        satisfiable.

        :raises InconsistentEvidenceError: when the evidence contradicts the certain part.
        """
        return self.query(evidence, None).consistency_steps

    def entails(self, evidence: Evidence, query: str | Formula) -> bool:
        """``(T, E) |-poss query``: the cut at ``con(T, E)`` plus ``E`` entails the query."""
        if query is None:  # (query(E, None) asks for no query: "not entailed" would be a wrong answer here)
            raise ArgumentTypeError("query takes a formula (text or a tree), not None")
        return self.query(evidence, query).entailed

    def drowned(self, evidence: Evidence = ()) -> tuple[PossibilisticFormula, ...]:
        """The formulas below the consistency level: ignored under the evidence."""
        return self.query(evidence, None).drowned

    def query(self, evidence: Evidence, query: str | Formula | None) -> QueryResult:
        """Consistency level, entailment of ``query`` (if given) and drowned formulas at once.

        >>> from pracmln_poss import PossibilisticTheory, Reasoner
        >>> theory = PossibilisticTheory.from_pairs([("bird(T) => flies(T)", 0.5), ("penguin(T) => !flies(T)", "inf")])
        >>> with Reasoner(theory) as reasoner:
        ...     found = reasoner.query(["bird(T)", "penguin(T)"], "!flies(T)")
        >>> found.entailed, found.consistency_steps, [theory.format(pf.formula) for pf in found.drowned]
        (True, inf, ['bird(T) => flies(T)'])
        """
        evidence = list(evidence_items(evidence))
        if query is not None:
            arguments.instance("query", query, str | Formula, "a formula (text or a tree) or None")
        assumptions, guards = self._evidence(evidence)
        formula_evidence = bool(guards)
        try:
            extra: list[int] = []
            if query is not None:
                negated = negate(self.theory.formula(query))
                if is_literal(negated):
                    extra = [literal_of(negated)]
                else:
                    guard = self._solver.guard(negated)
                    guards.append(guard)
                    extra = [guard]
            index = self._search(assumptions)
            level = self.level_steps[index]
            if level == INF and not self._certain_part_is_trivial(assumptions, formula_evidence):
                # one call settles both when the query fails there; else check the evidence alone
                if query is not None and self._sat(assumptions + extra):
                    entailed = False
                elif self._sat(assumptions):
                    entailed = query is not None
                else:
                    raise InconsistentEvidenceError(
                        f"evidence {_describe(evidence)} contradicts the certain part of the theory"
                    )
            else:
                entailed = query is not None and not self._sat(
                    assumptions + self._cut_assumptions(index) + extra
                )
        finally:
            self._solver.retire(*guards)
        return QueryResult(entailed, level, self._below(level))

    def _below(self, level: Level) -> tuple[PossibilisticFormula, ...]:
        """The ground formulas below ``level``."""
        if self._lifted is not None:
            return self._lifted.ground_below(level)
        return tuple(pf for pf in self._formulas if pf.steps < level)

    def necessity_steps(self, query: str | Formula) -> Level | None:
        """``N(query)`` in exact int steps: the highest level whose cut entails it; ``None``
        if no cut does."""
        q = self.theory.formula(query)
        negated = negate(q)
        guards: list[int] = []
        if is_literal(negated):
            extra = [literal_of(negated)]
        else:
            guards.append(self._solver.guard(negated))
            extra = guards[:]
        try:
            # cut(levels[i]) |= q holds for i up to some index (cuts shrink as i grows)
            lo, hi = -1, len(self.level_steps) - 1  # answer in [lo, hi]; -1 means no cut entails
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if not self._sat(extra + self._cut_assumptions(mid)):
                    lo = mid
                else:
                    hi = mid - 1
        finally:
            self._solver.retire(*guards)
        return None if lo < 0 else self.level_steps[lo]


def _describe(evidence: list[EvidenceItem]) -> str:
    return "{" + ", ".join(str(e) for e in evidence) + "}"


