"""Transformation 3 (defaults): MAP inference as default rules, for evidence of size <= k.

Every consistent set ``E`` of at most ``k`` literals over the atoms not fixed by hard
unit formulas (and, with a :class:`~.rules.Focus`, over its evidence and query atoms)
gets the rule ``(AND E => AND X, pen(E))`` and a blocking rule
``(not (AND E ^ AND X), lambda'_E)``, pruned as :mod:`.rules` describes (the rule core
this transformation shares with the lifted one).

Prop. 2: for literal sets ``E``, ``C`` with ``|E| + |C| <= k + 1``,
``(M, E) |-MAP OR C`` iff ``(T, E) |-poss OR C``; with a focus, for ``E`` over the
evidence atoms and ``C`` over the query atoms (docs/focus.md).
"""

from __future__ import annotations

__all__ = ["defaults", "DefaultsStats"]

import os
from concurrent.futures import Executor

from ..ground_mln import GroundMLN
from ..logic.formula import Implies
from ..map import open_engine
from ..possibilistic.theory import BLOCKING_ORIGIN, PossibilisticFormula, PossibilisticTheory
from ..search.evidence import describe, literal_sets
from ..search.focus import Focus
from ..search.progress import LATER_RULES, Progress, Reporter
from ..search.rules import BlockingRule, RuleStats, default_rules
from ..search.workers import executor_for
from .common import clause_against, conjunction_of, hard_part

DefaultsStats = RuleStats  # what a run did (filled in when passed to :func:`defaults`)


def defaults(
    mln: GroundMLN,
    k: int = 1,
    *,
    backend: str = "auto",
    focus: Focus = Focus(),
    omit_redundant_blocking: bool = True,
    prune_heads: bool = True,
    progress: Progress = None,
    stats: RuleStats | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> PossibilisticTheory:
    """Transformation 3 with evidence sets of at most ``k`` literals.

    :param focus: evidence over its evidence atoms, conclusions about its query atoms
        (:class:`~.rules.Focus`).
    :param omit_redundant_blocking: drop blocking rules that rules for ``E - {y}`` entail.
    :param prune_heads: remove from rule heads what rational monotonicity gives (Prop. 3).
    :param jobs: worker processes (1: this process; 0: one per core); ``executor``: any
        ``concurrent.futures.Executor`` instead; ``checkpoint``: a file to resume from
        (:class:`~.options.DefaultsOptions`).  The output is the same whatever runs it.
    """
    out = hard_part(mln)
    with open_engine(mln, backend) as engine, executor_for(jobs, executor) as runner:
        free = [a for a in range(1, mln.n_atoms + 1) if a not in engine.fixed]
        sets = list(literal_sets(focus.enumerated(free), k))
        rules = default_rules(
            engine, sets, k, focus=focus, long_blocking=True,
            omit_redundant_blocking=omit_redundant_blocking, prune_heads=prune_heads,
            report_optima=Reporter(progress, "penalties of evidence sets", len(sets), later=LATER_RULES),
            report_rules=Reporter(progress, "rules of evidence sets", len(sets)), stats=stats,
            executor=runner, checkpoint=checkpoint,
        )
        for rule in rules:
            origin = describe(rule.evidence, mln)
            if isinstance(rule, BlockingRule):
                out.append(PossibilisticFormula(clause_against(rule.body), rule.level, BLOCKING_ORIGIN + origin))
                continue
            formula = conjunction_of(rule.head)
            if rule.evidence:
                formula = Implies(conjunction_of(rule.evidence), formula)
            out.append(PossibilisticFormula(formula, rule.level, origin))
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)
