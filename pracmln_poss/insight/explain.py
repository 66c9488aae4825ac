"""Explaining a possibilistic conclusion: which rules made it, which drowned.

When the query is entailed, the explanation is a minimal set of formulas of the
active cut that, with the evidence, entails it: a minimal unsatisfiable subset of
``cut + E + not query`` over the formulas (deletion-based, shrunk by solver cores, so
dropping any one rule breaks the entailment).  Otherwise it is a most plausible
world of the evidence (a model of the active cut and the evidence) where the query
fails.  Either way it lists the consistency level, the formulas that drowned below
it, which of those conflict with the evidence (the reason for drowning), and which,
had they not drowned, would have decided the query.
"""

from __future__ import annotations

__all__ = ["Explanation", "explain"]

from dataclasses import dataclass
from typing import Iterable

from pysat.solvers import Solver

from ..errors import BackendError
from ..logic.cnf import VarPool, clausify
from ..logic.formula import Formula, negate
from ..possibilistic.reasoner import EvidenceItem
from ..possibilistic.theory import Level, PossibilisticFormula, PossibilisticTheory


@dataclass(frozen=True)
class Explanation:
    """Why ``(T, E) |-poss query`` holds or not.

    :ivar rules: when entailed, a minimal set of active formulas entailing the query
        with the evidence (each one necessary); empty otherwise.
    :ivar countermodel: when not entailed, the true literals of a most plausible world
        of the evidence where the query fails.
    :ivar conflicting: drowned formulas inconsistent with the active cut and evidence.
    :ivar would_decide: drowned formulas consistent with them that, had they stayed,
        would have made the query (``True``) or its negation (``False``) follow.
    """

    query: Formula
    evidence: tuple[EvidenceItem, ...]
    entailed: bool
    consistency_level: Level
    rules: tuple[PossibilisticFormula, ...]
    countermodel: tuple[int, ...] | None
    drowned: tuple[PossibilisticFormula, ...]
    conflicting: tuple[PossibilisticFormula, ...]
    would_decide: tuple[tuple[PossibilisticFormula, bool], ...]


class _Checker:
    """One SAT solver over a set of formulas, each switchable by a selector literal."""

    def __init__(self, theory: PossibilisticTheory, formulas: Iterable[PossibilisticFormula]) -> None:
        self.theory = theory
        self.pool = VarPool(theory.n_atoms)
        self.solver = Solver(name="g3")
        self.selector: dict[int, PossibilisticFormula] = {}
        for pf in formulas:
            s = self.pool.new()
            self.selector[s] = pf
            for clause in clausify(pf.formula, self.pool):
                self.solver.add_clause([*clause, -s])

    def guard(self, f: Formula) -> int:
        g = self.pool.new()
        for clause in clausify(f, self.pool):
            self.solver.add_clause([*clause, -g])
        return g

    def close(self) -> None:
        self.solver.delete()


def explain(
    theory: PossibilisticTheory, evidence: Iterable[EvidenceItem], query: str | Formula
) -> Explanation:
    """Explain the answer to ``(T, E) |-poss query``.

    :raises InconsistentEvidenceError: when the evidence contradicts the certain part.
    """
    evidence = tuple(evidence)
    q = theory.formula(query)
    with theory.reasoner() as reasoner:
        result = reasoner.query(evidence, q)
    level = result.consistency_level
    active = [pf for pf in theory.formulas if pf.level >= level]
    checker = _Checker(theory, list(active) + list(result.drowned))
    try:
        ev = [checker.guard(theory.formula(e) if isinstance(e, str) else _literal_formula(e, theory)) for e in evidence]
        active_sel = [s for s, pf in checker.selector.items() if pf.level >= level]
        rules: tuple[PossibilisticFormula, ...] = ()
        countermodel = None
        if result.entailed:
            not_q = checker.guard(negate(q))
            rules = _minimal(checker, active_sel, ev + [not_q])
        else:
            not_q = checker.guard(negate(q))
            checker.solver.solve(assumptions=active_sel + ev + [not_q])
            model = checker.solver.get_model() or []
            countermodel = tuple(lit for lit in model if abs(lit) <= theory.n_atoms)
        conflicting, would_decide = [], []
        yes, no = checker.guard(q), not_q
        for s, pf in checker.selector.items():
            if pf.level >= level:
                continue
            base = active_sel + ev + [s]
            if not checker.solver.solve(assumptions=base):
                conflicting.append(pf)
            elif not result.entailed:
                if not checker.solver.solve(assumptions=base + [no]):
                    would_decide.append((pf, True))
                elif not checker.solver.solve(assumptions=base + [yes]):
                    would_decide.append((pf, False))
    finally:
        checker.close()
    return Explanation(
        q, evidence, result.entailed, level, rules, countermodel, result.drowned,
        tuple(conflicting), tuple(would_decide),
    )


def _literal_formula(item: EvidenceItem, theory: PossibilisticTheory) -> Formula:
    from ..logic.formula import literal

    return literal(theory.literal(item)) if isinstance(item, int) else theory.formula(item)


def _minimal(checker: _Checker, selectors: list[int], background: list[int]) -> tuple[PossibilisticFormula, ...]:
    """A minimal subset of ``selectors`` that is unsatisfiable with ``background``."""
    solver = checker.solver
    if solver.solve(assumptions=selectors + background):
        raise BackendError("SAT solver disagrees with itself: the entailed query has a countermodel")
    core = set(solver.get_core() or selectors)
    current = [s for s in selectors if s in core]
    i = 0
    while i < len(current):
        trial = current[:i] + current[i + 1 :]
        if not solver.solve(assumptions=trial + background):
            core = set(solver.get_core() or trial)
            current = [s for s in trial if s in core]
        else:
            i += 1
    return tuple(checker.selector[s] for s in current)
