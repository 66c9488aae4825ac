"""Transformation 3 (defaults): MAP inference as default rules, for evidence of size <= k.

Every consistent set ``E`` of at most ``k`` literals over the atoms not fixed by hard
unit formulas (and, with a :class:`~pracmln_poss.search.focus.Focus`, over its evidence and query atoms)
gets the rule ``(AND E => AND X, pen(E))`` and a blocking rule
``(not (AND E ^ AND X), lambda'_E)``, pruned as :mod:`pracmln_poss.search.rules` describes (the rule core
this transformation shares with the lifted one).

Prop. 2: for literal sets ``E``, ``C`` with ``|E| + |C| <= k + 1``,
``(M, E) |-MAP OR C`` iff ``(T, E) |-poss OR C``; with a focus, for ``E`` over the
evidence atoms and ``C`` over the query atoms (docs/focus.md).
"""

from __future__ import annotations

__all__ = ["defaults", "DefaultsOptions"]

from contextlib import ExitStack, closing
from dataclasses import dataclass
from typing import ClassVar

from ..logic.formula import Implies
from ..map import open_engine
from ..model.ground_mln import GroundMLN
from ..possibilistic.theory import BLOCKING_ORIGIN, PossibilisticFormula, PossibilisticTheory
from ..search.evidence import describe, literal_sets
from ..search.focus import Focus
from ..search.rule import BlockingRule
from ..search.rule_search import RuleSearch
from ..search.rules import default_rules
from .formulas import clause_against, conjunction_of, hard_part
from .options import MAX_EVIDENCE_SETS, RUNTIME_NAMES, Request, Runtime, SearchOptions, check_switch, option


@dataclass(frozen=True)
class DefaultsOptions(SearchOptions):
    """Transformation 3 (the rule search's options: :class:`~pracmln_poss.search.rule_search.RuleOptions`).

    :ivar omit_redundant_blocking: drop blocking rules that the rules for ``E - {y}`` entail.
    :ivar prune_heads: remove from rule heads what rational monotonicity gives (Prop. 3).
    """

    method: ClassVar[str] = "defaults"
    max_evidence_sets: ClassVar[int | None] = MAX_EVIDENCE_SETS
    runtime: ClassVar[tuple[str, ...]] = RUNTIME_NAMES
    long_blocking: ClassVar[bool] = True  # (Prop. 2 is proved for the long form)

    omit_redundant_blocking: bool = option(True, check=check_switch)
    prune_heads: bool = option(True, check=check_switch)

    def run(self, request: Request, runtime: Runtime) -> PossibilisticTheory:
        return defaults(request.ground, self, focus=request.focus, runtime=runtime)


def defaults(mln: GroundMLN, options: DefaultsOptions = DefaultsOptions(), *, focus: Focus = Focus(),
             runtime: Runtime = Runtime()) -> PossibilisticTheory:
    """Transformation 3 with evidence sets of at most ``options.k`` literals.

    :param focus: evidence over its evidence atoms, conclusions about its query atoms
        (:class:`~pracmln_poss.search.focus.Focus`).
    :param runtime: how the search runs (workers, checkpoint, progress, statistics); the
        output is the same whatever runs it.
    """
    out = hard_part(mln)
    with open_engine(mln, options.backend, runtime.guard) as engine, ExitStack() as stack:
        search = RuleSearch(mln=mln, options=options, focus=focus, backend=options.backend)
        sets = list(literal_sets(search.enumerated, options.k))
        run = stack.enter_context(runtime.search_run("evidence sets", len(sets)))
        # (closed here, not when the interpreter ends, if an interrupt arrives between two
        # rules: the search then saves its checkpoint while its engine and workers are open)
        rules = stack.enter_context(closing(default_rules(engine, search, sets, run)))
        for rule in rules:
            origin = describe(rule.evidence, mln)
            if isinstance(rule, BlockingRule):
                out.append(PossibilisticFormula(clause_against(rule.body), rule.level, BLOCKING_ORIGIN + origin,
                                                mln.resolution))
                continue
            formula = conjunction_of(rule.head)
            if rule.evidence:
                formula = Implies(conjunction_of(rule.evidence), formula)
            out.append(PossibilisticFormula(formula, rule.level, origin, mln.resolution))
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)
