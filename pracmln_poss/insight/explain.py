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

__all__ = ["Explanation", "Explainer", "explain", "formula_line", "map_countermodel", "COUNTERMODEL", "MAP_COUNTERMODEL"]

import html
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field, replace

from .. import arguments
from ..atoms import Evidence, EvidenceItem
from ..closable import Closable
from ..collector import collection_paused
from ..errors import BackendError
from ..formats.family import origin_literals
from ..logic.formula import (
    And,
    Atom,
    Formula,
    Implies,
    NodeMemo,
    Not,
    Or,
    PredAtom,
    Variable,
    atoms_of,
    evaluate,
    literal,
    negate,
    walk,
)
from ..logic.syntax import atom_name, split_atom
from ..map import open_engine
from ..map.inference import MapInference
from ..model.ground_mln import GroundMLN
from ..possibilistic.lifted_theory import LiftedTheory
from ..possibilistic.protocol import Theory
from ..possibilistic.reasoner import Reasoner
from ..possibilistic.selectors import SelectorSolver
from ..possibilistic.theory import BLOCKING_ORIGIN, Level, PossibilisticFormula, PossibilisticTheory
from ..stopping import Guard

COUNTERMODEL = "a most plausible world of the evidence (a model of the active cut) where the query fails"
MAP_COUNTERMODEL = "a MAP world of the evidence where the query fails"


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
    consistency_steps: Level  # con(T, E) in int steps (:attr:`consistency_level` in weight units)
    rules: tuple[PossibilisticFormula, ...]
    countermodel: tuple[int, ...] | None
    drowned: tuple[PossibilisticFormula, ...]
    conflicting: tuple[PossibilisticFormula, ...]
    would_decide: tuple[tuple[PossibilisticFormula, bool], ...]
    theory: PossibilisticTheory = field(repr=False, compare=False)

    @property
    def consistency_level(self) -> float:
        """``con(T, E)`` in the model's weight units (``inf``: certain)."""
        return self.theory.in_units(self.consistency_steps)

    def text(self, world: dict[str, bool] | None = None, world_kind: str | None = None) -> str:
        """The explanation as ``explain`` prints it; ``world`` (atom name -> value) is the
        world shown when the query is not entailed (default: the countermodel)."""
        theory = self.theory
        evidence = [e if isinstance(e, str) else theory.format(literal(e) if isinstance(e, int) else e)
                    for e in self.evidence]
        lines = [
            f"query: {theory.format(self.query)}",
            f"evidence: {', '.join(evidence) or 'none'}",
            f"entailed: {'yes' if self.entailed else 'no'}, at consistency level "
            f"{theory.steps_name(self.consistency_steps)}",
        ]
        if self.entailed:
            lines.append(f"because of these {len(self.rules)} rule(s), each needed:")
            lines.extend(f"  {formula_line(pf, theory)}" for pf in self.rules)
        lines.append(f"drowned: {len(self.drowned)} rule(s) below the consistency level")
        lines.extend(f"  conflicts with the evidence: {formula_line(pf, theory)}" for pf in self.conflicting)
        for pf, value in self.would_decide:
            verdict = "the query" if value else "its negation"
            lines.append(f"  would have made {verdict} follow: {formula_line(pf, theory)}")
        rest = len(self.drowned) - len(self.conflicting) - len(self.would_decide)
        if rest > 0:
            decide = "" if self.entailed else " nor would have decided the query"
            other = " other" if self.conflicting or self.would_decide else ""
            lines.append(f"  ({rest:,}{other} rule(s) not shown: they neither conflict with the evidence{decide})")
        if world is None and (world := self.countermodel_world()) is not None:
            world_kind = COUNTERMODEL
        if world is not None:
            lines.append(f"{world_kind}:")
            lines.append("  " + ", ".join(n if v else "!" + n for n, v in world.items()))
        return "\n".join(lines) + "\n"

    def countermodel_world(self) -> dict[str, bool] | None:
        """The countermodel by atom name (None when the query is entailed)."""
        if self.countermodel is None:
            return None
        true = set(self.countermodel)
        return {self.theory.name(a): a in true for a in range(1, self.theory.n_atoms + 1)}

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        return "<pre>" + html.escape(self.text()) + "</pre>"


def formula_line(pf: PossibilisticFormula, theory: PossibilisticTheory) -> str:
    """``LEVEL: FORMULA  [ORIGIN]``, one rule of a theory on a line (the rules of the
    empty evidence set said to be the model's defaults: what holds with no evidence)."""
    origin = "  [a default: what holds with no evidence]" if pf.origin == "{}" else \
        f"  [{pf.origin}]" if pf.origin else ""
    return f"{theory.steps_name(pf.steps)}: {theory.format(pf.formula)}{origin}"


class Explainer(Closable):
    """Explanations of questions to one theory (ground or lifted); a context manager.

    The theory is clausified (a lifted one ground as clauses) once, for all questions.
    Each question's rules or countermodel come from a solver of its own over those
    clauses, so that its explanation is the one it gets asked alone; its consistency
    level and drowned formulas, which any solver gives alike, from the reasoner's.

    :ivar source: the theory explained (a ground one as :meth:`~.Theory.ground` gives it).
    :ivar reasoner: the reasoner over it.
    :ivar theory: the ground theory explanations name their atoms and formulas by.
    :raises ModelError: for a lifted theory above
        :data:`~pracmln_poss.possibilistic.lifted_theory.MAX_GROUNDINGS` groundings,
        unless ``force``.
    """

    def __init__(self, theory: Theory, force: bool = False, guard: Guard | None = None) -> None:
        arguments.instance("theory", theory, PossibilisticTheory | LiftedTheory,
                           "a PossibilisticTheory or a LiftedTheory")
        self.source: PossibilisticTheory | LiftedTheory = theory if isinstance(theory, LiftedTheory) else theory.ground()
        self.reasoner = Reasoner(self.source, force=force, guard=guard)
        self.theory = self.reasoner.theory

    def close(self) -> None:
        """Release the SAT solver."""
        self.reasoner.close()

    def explain(self, evidence: Evidence, query: str | Formula) -> Explanation:
        """:func:`explain` one question."""
        theory, ground = self.source, self.theory
        evidence = tuple(evidence)
        q = ground.formula(query)
        result = self.reasoner.query(evidence, q)
        level = result.consistency_steps
        candidates = theory.formulas
        with collection_paused():  # (a clause list per rule: no cycle among them)
            made = SelectorSolver(ground.n_atoms, self.reasoner.contents, run_guard=self.reasoner.guard)
        with made as sat:
            ev = _evidence_guards(sat, ground, evidence)
            active = [s for s, pf in zip(sat.selectors, candidates) if pf.steps >= level]
            # (the query's guard too, unused here: the solver numbered as before, so its cores
            # and the explanations of a ground theory stay those of earlier versions)
            sat.guard(q)
            no = sat.guard(negate(q))
            rules: tuple[PossibilisticFormula, ...] = ()
            countermodel = None
            if result.entailed:
                if isinstance(theory, LiftedTheory):
                    named, types = [split_atom(ground.name(a)) for a in atoms_of(q)], dict(theory.types)
                    ranked = NodeMemo(lambda head: _head_rank(head, named, types))
                    rank = {s: 0 if pf.blocking else ranked(_head(pf.formula)) for s, pf in zip(sat.selectors, candidates)}
                else:
                    rank = {s: _reading_rank(pf, atoms_of(q)) for s, pf in zip(sat.selectors, candidates)}
                chosen = _minimal(sat, active, ev + [no], rank.__getitem__)
                picked = tuple(pf for s, pf in zip(sat.selectors, candidates) if s in chosen)
                # (a lifted theory's minimal rules, then a minimal set of their groundings)
                rules = _minimal_groundings(theory, picked, ground, evidence, q, self.reasoner.guard) \
                    if isinstance(theory, LiftedTheory) else picked
            else:
                sat.satisfiable(active + ev + [no])
                countermodel = tuple(lit for lit in sat.model() if abs(lit) <= ground.n_atoms)
        conflicting, would_decide = self._drowned(evidence, q, result.entailed, level, result.drowned)
        return Explanation(
            q, evidence, result.entailed, level, rules, countermodel, result.drowned,
            tuple(conflicting), tuple(would_decide), ground,
        )

    def _drowned(self, evidence: tuple[EvidenceItem, ...], q: Formula, entailed: bool, level: Level,
                 drowned: tuple[PossibilisticFormula, ...]
                 ) -> tuple[list[PossibilisticFormula], list[tuple[PossibilisticFormula, bool]]]:
        """The drowned formulas that conflict with the cut at ``level`` and the evidence,
        and (when the query is not entailed) those that would have decided it, asked on
        the reasoner's solver (a cut is a few assumptions there).  The worlds its calls
        find are models of the cut and the evidence: one where a formula holds shows it
        consistent (and which way the query can go) without a call of its own."""
        solver = self.reasoner.solver
        n = self.theory.n_atoms
        ev, guards = self.reasoner.evidence_assumptions(evidence)
        yes, no = solver.guard(q), solver.guard(negate(q))
        cut = self.reasoner.cut_at(level) + ev
        worlds: list[list[bool]] = []

        def found(assumptions: list[int]) -> bool:
            if not solver.satisfiable(assumptions):
                return False
            world = [False] * (n + 1)
            for lit in solver.model():
                if abs(lit) <= n:
                    world[abs(lit)] = lit > 0
            worlds.append(world)
            del worlds[:-_WORLDS]
            return True

        conflicting, would_decide = [], []
        seen: set[tuple[Level, object]] = set()
        try:
            for pf in drowned:
                if _alike(pf) in seen:
                    continue  # (a formula that differs from one shown only in its order says nothing new)
                seen.add(_alike(pf))
                holds = [evaluate(q, w) for w in reversed(worlds) if evaluate(pf.formula, w)]
                if entailed and holds:
                    continue
                g = solver.guard(pf.formula)
                try:
                    if not holds:
                        if not found(cut + [g]):
                            conflicting.append(pf)
                            continue
                        holds = [evaluate(q, worlds[-1])]
                    if entailed:
                        continue
                    # (a world of the formula where the query fails, or holds, answers a call)
                    if False not in holds and not found(cut + [g, no]):
                        would_decide.append((pf, True))
                    elif True not in holds and not found(cut + [g, yes]):
                        would_decide.append((pf, False))
                finally:
                    solver.retire(g)
        finally:
            solver.retire(yes, no, *guards)
        return conflicting, would_decide


_WORLDS = 64
"""How many of the last worlds found :meth:`Explainer._drowned` tries on a formula
before a solver call."""


def explain(theory: Theory, evidence: Evidence, query: str | Formula, force: bool = False,
            guard: Guard | None = None) -> Explanation:
    """Explain the answer to ``(T, E) |-poss query`` (many questions: :class:`Explainer`).

    The rules given when the query is entailed are a minimal set, and among the minimal
    sets one a person reads: rules that conclude the query (its atoms in their
    conclusion) are kept over the others (a contrapositive), and blocking rules, which
    conclude nothing themselves, are the first to go.

    A lifted theory is asked on its rules' ground clauses, not grounded as formulas: a
    minimal set of its rules is found first, then a minimal set of their groundings
    (minimal whatever it was found among: no smaller part of it entails the query); its
    drowned formulas are those of its grounding.

    :param force: explain on a lifted theory above
        :data:`~pracmln_poss.possibilistic.lifted_theory.MAX_GROUNDINGS` groundings.
    :param guard: the run's guard, which the SAT calls go through (None: their own).
    :raises InconsistentEvidenceError: when the evidence contradicts the certain part.
    """
    with Explainer(theory, force, guard) as explainer:
        return explainer.explain(evidence, query)


def _evidence_guards(sat: SelectorSolver, ground: PossibilisticTheory, evidence: tuple[EvidenceItem, ...]) -> list[int]:
    """The evidence added to ``sat``, each item under a guard of its own."""
    return [sat.guard(literal(e) if isinstance(e, int) else e) for e in ground.evidence(evidence)]


def _minimal_groundings(theory: LiftedTheory, chosen: tuple[PossibilisticFormula, ...], ground: PossibilisticTheory,
                        evidence: tuple[EvidenceItem, ...], q: Formula, guard: Guard
                        ) -> tuple[PossibilisticFormula, ...]:
    """A minimal set of the groundings of ``chosen`` (rules whose groundings entail
    ``q`` with the evidence), in the order :meth:`.LiftedTheory.ground` lists them."""
    formulas = theory.with_formulas(chosen).ground(force=True).formulas
    with SelectorSolver(ground.n_atoms, [pf.formula for pf in formulas], run_guard=guard) as sat:
        ev = _evidence_guards(sat, ground, evidence)
        rank = {s: _reading_rank(pf, atoms_of(q)) for s, pf in zip(sat.selectors, formulas)}
        kept = _minimal(sat, list(sat.selectors), ev + [sat.guard(negate(q))], rank.__getitem__)
        renamable = frozenset(c for _, constants in theory.types for c in constants)
        return tuple(replace(pf, origin=_renamed_origin(pf, ground, renamable))
                     for s, pf in zip(sat.selectors, formulas) if s in kept)


def _renamed_origin(pf: PossibilisticFormula, ground: PossibilisticTheory, renamable: frozenset[str]) -> str | None:
    """A grounding's origin in its own constants: a lifted rule keeps the evidence set of
    its class's representative (``{s(Person1)}``), which its grounding ``s(Bob) => c(Bob)``
    renames; the renaming is found by matching the origin's literals with the grounding's
    premise (a blocking rule's: the negations of its clause).  The origin as it is when
    none matches."""
    origin = pf.origin or ""
    prefix = BLOCKING_ORIGIN if origin.startswith(BLOCKING_ORIGIN) else ""
    literals = origin_literals(origin[len(prefix):])
    if not literals:
        return pf.origin
    f = pf.formula
    parts = (f.left.args if isinstance(f.left, And) else (f.left,)) if isinstance(f, Implies) and not prefix else \
        tuple(negate(p) for p in (f.args if isinstance(f, Or) else (f,))) if prefix else ()
    premise = [ground.format(p) for p in parts if isinstance(p.arg if isinstance(p, Not) else p, Atom)]
    found = _match(list(literals), premise, {}, renamable)
    if found is None:
        return pf.origin
    return prefix + "{" + ", ".join(_renamed(lit, found) for lit in literals) + "}"


def _match(literals: list[str], premise: list[str], renaming: dict[str, str], renamable: frozenset[str]
           ) -> dict[str, str] | None:
    """A one-to-one renaming of the renamable constants of ``literals`` onto the
    premise's literals, each used once (None: none)."""
    if not literals:
        return renaming if not premise else None
    first, rest = literals[0], literals[1:]
    sign, (pred, args) = first.startswith("!"), split_atom(first.removeprefix("!"))
    for i, candidate in enumerate(premise):
        their_sign, (their_pred, theirs) = candidate.startswith("!"), split_atom(candidate.removeprefix("!"))
        if (sign, pred, len(args)) != (their_sign, their_pred, len(theirs)):
            continue
        tried = dict(renaming)
        if all(_bind(a, b, tried, renamable) for a, b in zip(args, theirs)):
            found = _match(rest, premise[:i] + premise[i + 1:], tried, renamable)
            if found is not None:
                return found
    return None


def _bind(a: str, b: str, renaming: dict[str, str], renamable: frozenset[str]) -> bool:
    if a not in renamable:
        return a == b
    if a in renaming:
        return renaming[a] == b
    if b in renaming.values():
        return False
    renaming[a] = b
    return True


def _renamed(literal_text: str, renaming: dict[str, str]) -> str:
    sign = "!" if literal_text.startswith("!") else ""
    pred, args = split_atom(literal_text.removeprefix("!"))
    return sign + atom_name(pred, tuple(renaming.get(a, a) for a in args))


def map_countermodel(mln: GroundMLN | MapInference, evidence: Evidence, query: str | Formula) -> dict[str, bool] | None:
    """A MAP world of the evidence where the query fails, by atom name (what the MLN
    itself says when the theory does not entail the query); None when the MLN entails it.
    ``mln`` may be MAP inference on a model with a database and a closed world
    (:func:`~pracmln_poss.bridge.query.map_inference`), which it then applies."""
    with (MapInference(open_engine(mln)) if isinstance(mln, GroundMLN) else nullcontext(mln)) as inference:
        ground = inference.mln
        engine, ev = inference.engine_for([ground.literal_or_formula(e) if isinstance(e, str) else e for e in evidence])
        found = engine.optimum(ev + [negate(ground.formula(query))])
        best = engine.optimum(ev)
    if found.cost != best.cost:
        return None
    return ground.named(found.world)


def _reading_rank(pf: PossibilisticFormula, query_atoms: frozenset[int]) -> int:
    """How much a person gains from reading ``pf`` as a reason for a query over
    ``query_atoms``: 0 a blocking rule (it concludes nothing itself), 1 a rule concluding
    about other atoms (such as the contrapositive of a rule concluding the query), 2 one
    whose conclusion is about the query's atoms."""
    if pf.blocking:
        return 0
    return 2 if atoms_of(_head(pf.formula)) & query_atoms else 1


def _head(f: Formula) -> Formula:
    """What a rule concludes: the right side of its ``=>``, else the whole of it."""
    return f.right if isinstance(f, Implies) else f


def _head_rank(head: Formula, named: list[tuple[str, tuple[str, ...]]], types: dict[str, tuple[str, ...]]) -> int:
    """:func:`_reading_rank` of a lifted rule that is not blocking, by what it concludes:
    2 when that may name one of the query's atoms (``named``: predicate and arguments;
    the same predicate, each argument the constant or a variable of a type holding it),
    else 1."""
    for leaf in walk(head):
        if isinstance(leaf, PredAtom) and any(
                pred == leaf.pred and len(args) == len(leaf.args) and all(
                    arg in types.get(t.domain or "", ()) if isinstance(t, Variable) else t.name == arg
                    for t, arg in zip(leaf.args, args)) for pred, args in named):
            return 2
    return 1


def _minimal(sat: SelectorSolver, selectors: list[int], background: list[int],
             rank: Callable[[int], int] = lambda _s: 0) -> set[int]:
    """A minimal subset of ``selectors`` unsatisfiable with ``background``: deletion-based,
    each unsatisfiable call shrinking the candidates to its core.  Candidates of lower
    ``rank`` are tried for deletion first, so that the set keeps those of higher rank
    where a choice is left (first within the rank-maximal candidates alone, when they
    suffice)."""
    best = max(map(rank, selectors), default=0)
    preferred = [s for s in selectors if rank(s) == best]
    if len(preferred) < len(selectors) and not sat.satisfiable(preferred + background):
        selectors = preferred  # (the core read below is this call's)
    elif sat.satisfiable(selectors + background):
        raise BackendError("SAT solver disagrees with itself: the entailed query has a countermodel")
    current = sorted((s for s in selectors if s in sat.core()), key=rank)
    i = 0
    while i < len(current):
        trial = current[:i] + current[i + 1 :]
        if not sat.satisfiable(trial + background):
            core = sat.core()
            current = [s for s in trial if s in core]
        else:
            i += 1
    return set(current)


def _alike(pf: PossibilisticFormula) -> tuple[Level, object]:
    """The formula and level up to the order of a disjunction's or a conjunction's members."""
    f = pf.formula
    return pf.steps, (type(f), frozenset(f.args)) if isinstance(f, (Or, And)) else f
