"""Transformation 4 (lifted): the search over evidence sets up to renaming.

Rules are computed for one evidence set per renaming class of interchangeable
constants (:mod:`.symmetry`) and kept as *schemas*: a representative evidence set with
one concluded literal, or a blocking rule (short ``not AND E`` by default, as the paper
recommends; long ``not (AND E ^ AND X(E))`` with ``long_blocking``).
:func:`ground_schemas` expands them over every renaming (with ``long_blocking`` exactly
the rules of Transformation 3, one conclusion per rule); :mod:`.variabilize` writes
them first-order.  :func:`lifted` does both.

The rules themselves come from the rule core shared with Transformation 3
(:mod:`.rules`), with the symmetry mapping each evidence set onto its representative.
"""

from __future__ import annotations

__all__ = ["lifted", "lifted_reduced", "lifted_schemas", "iter_schemas", "ground_schemas", "check_size", "LiftedOptions"]

from collections.abc import Generator, Iterable
from contextlib import ExitStack, closing
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from ..logic.formula import Implies, literal
from ..logic.syntax import split_atom
from ..map import open_engine
from ..map.instance import fixed_atoms
from ..model.first_order import FirstOrderMLN
from ..model.ground_mln import GroundMLN
from ..model.grounding import ground
from ..model.reduction import NotReduced, Reduction, reduction
from ..possibilistic.lifted_theory import LiftedTheory
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory
from ..search.evidence import describe
from ..search.focus import Focus
from ..search.representatives import examined
from ..search.rule import BlockingRule, Schema
from ..search.rule_search import RuleSearch
from ..search.rules import default_rules
from ..search.symmetry import Symmetry, rename, renamings
from ..search.workers import equipped
from .formulas import clause_against, conjunction_of, hard_part
from .options import (
    MAX_LIFTED_EVIDENCE_SETS,
    RUNTIME_NAMES,
    TOO_MANY,
    Flag,
    Request,
    Runtime,
    SearchOptions,
    check_switch,
    option,
)


@dataclass(frozen=True)
class LiftedOptions(SearchOptions):
    """Transformation 4 (the rule search's options: :class:`~pracmln_poss.search.rule_search.RuleOptions`).

    :ivar long_blocking: blocking rules ``not (AND E ^ AND X(E))`` instead of ``not AND E``.
    """

    method: ClassVar[str] = "lifted"
    first_order: ClassVar[bool] = True
    max_evidence_sets: ClassVar[int | None] = MAX_LIFTED_EVIDENCE_SETS
    runtime: ClassVar[tuple[str, ...]] = RUNTIME_NAMES
    omit_redundant_blocking: ClassVar[bool] = True
    prune_heads: ClassVar[bool] = True

    long_blocking: bool = option(False, Flag(
        ("--blocking",), "blocking rules not AND E (short, default) or not (AND E ^ AND X(E)) (long)", str, None,
        ("short", "long"), lambda text: text == "long"), check=check_switch)

    def run(self, request: Request, runtime: Runtime) -> LiftedTheory:
        if not isinstance(request.model, FirstOrderMLN):
            raise ModelError("the lifted transformation needs the first-order model (its domains), not a ground MLN")
        reduced = reduction(request.model, self.k) if request.grounded is None else None
        if isinstance(reduced, Reduction) and self.long_blocking:  # (a long blocking rule holds all of X(E))
            reduced = NotReduced(tuple((d, size) for d, size, *_ in reduced.domains),
                                 "long blocking rules write every literal of every MAP world's backbone")
        if isinstance(reduced, Reduction):
            return lifted_reduced(reduced, self, evidence_preds=request.evidence_preds,
                                  query_preds=request.query_preds, runtime=runtime, force=request.force)
        return lifted(request.model, self, focus=request.focus, grounded=request.ground, runtime=runtime,
                      force=request.force, note=reduced.describe() if reduced is not None else None)


def lifted_schemas(mln: GroundMLN, symmetry: Symmetry, options: LiftedOptions = LiftedOptions(), *,
                   focus: Focus = Focus(), runtime: Runtime = Runtime()) -> list[Schema]:
    """The rules of Transformation 3 for one evidence set per renaming class, one
    conclusion per schema (:mod:`pracmln_poss.search.rules` computes them)."""
    return list(iter_schemas(mln, symmetry, options, focus=focus, runtime=runtime))


def iter_schemas(mln: GroundMLN, symmetry: Symmetry, options: LiftedOptions = LiftedOptions(), *,
                 focus: Focus = Focus(), runtime: Runtime = Runtime(), note: str | None = None
                 ) -> Generator[Schema, None, None]:
    """:func:`lifted_schemas` as they are found (``note``: said once to the run's progress,
    as the search starts)."""
    with open_engine(mln, options.backend, runtime.guard) as engine, ExitStack() as stack:
        search = RuleSearch(mln=mln, options=options, symmetry=symmetry, focus=focus, backend=options.backend,
                            one_per_class=True)
        equipped(engine, search)
        run = stack.enter_context(runtime.search_run("evidence classes", None))
        if note is not None and run.optima is not None:
            run.optima.note(note)
        # sets=None: one representative per class, found by the rule core (in chunks)
        # (closed here, not when the interpreter ends, if an interrupt arrives between two
        # rules: the search then saves its checkpoint while its engine and workers are open)
        rules = stack.enter_context(closing(default_rules(engine, search, None, run)))
        for rule in rules:
            if isinstance(rule, BlockingRule):
                yield Schema(rule.evidence, None, rule.body, rule.level)
                continue
            # one conclusion per class of those a renaming fixing E maps onto each other
            for lit in rule.head:
                yield Schema(rule.evidence, lit, rule.evidence, rule.level)


def ground_schemas(mln: GroundMLN, symmetry: Symmetry, schemas: list[Schema]) -> PossibilisticTheory:
    """Every renaming of every schema, with the hard part: a ground theory."""
    out = hard_part(mln)
    seen: set[tuple[object, ...]] = set()
    for s in schemas:
        lits = s.body + ((s.conclusion,) if s.conclusion is not None else ())
        for mapping in renamings(lits, symmetry):
            body = tuple(sorted((rename(l, mapping, symmetry) for l in s.body), key=abs))
            key: tuple[object, ...]
            if s.conclusion is None:
                key = ("block", body, s.level)
                formula = clause_against(body)
            else:
                head = rename(s.conclusion, mapping, symmetry)
                key = ("rule", body, head, s.level)
                formula = Implies(conjunction_of(body), literal(head)) if body else literal(head)
            if key not in seen:
                seen.add(key)
                out.append(PossibilisticFormula(formula, s.level, describe(body, mln), mln.resolution))
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)


def check_size(mln: GroundMLN, symmetry: Symmetry, k: int, focus: Focus = Focus(),
               limit: int = MAX_LIFTED_EVIDENCE_SETS) -> None:
    """Refuse a search that would examine more than ``limit`` evidence sets
    (:func:`~pracmln_poss.search.representatives.examined`: one per renaming class and the
    repeats met growing them, not the sets before symmetry).

    :raises ModelError: saying how many (or a bound on it, when that is enough to tell).
    """
    fixed, _ = fixed_atoms(mln)
    atoms = focus.enumerated([a for a in range(1, mln.n_atoms + 1) if a not in fixed])
    count, exact = examined(symmetry, k, atoms, limit)
    if count > limit:
        raise ModelError(
            f"k = {k} over {len(atoms)} atoms: the lifted search {'would' if exact else 'may'} examine "
            f"{'' if exact else 'up to '}{count:,} evidence sets (one per class of sets alike up to a renaming of "
            f"interchangeable constants, and the repeats met finding them), more than {limit:,}: {TOO_MANY}")


def lifted(model: FirstOrderMLN, options: LiftedOptions = LiftedOptions(), *, focus: Focus = Focus(),
           grounded: GroundMLN | None = None, runtime: Runtime = Runtime(), force: bool = False,
           note: str | None = None) -> LiftedTheory:
    """Transformation 4: a :class:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory` of the first-order ``model``
    for evidence sets of at most ``options.k`` literals, one per renaming class of
    interchangeable constants.

    :param runtime: how the search runs (workers, checkpoint, progress, statistics); the
        output is the same whatever runs it.
    :param focus: evidence over its evidence atoms, conclusions about its query atoms
        (atoms of ``grounded``, or of ``ground(model)``).
    :param grounded: ``ground(model)``, when the caller has it already.
    :param force: search even when it would examine more than
        :data:`~.options.MAX_LIFTED_EVIDENCE_SETS` evidence sets.
    :param note: how the domains are searched, said to the progress and written in the
        theory's header (why a large domain is ground whole).
    :raises ModelError: above that limit, saying how many, unless ``force``.
    """
    from ..search.interchangeability import find_symmetry
    from .variabilize import lift

    if not isinstance(model, FirstOrderMLN):
        raise ModelError("the lifted transformation needs the first-order model (its domains), not a ground MLN")
    mln = grounded if grounded is not None else ground(model)
    symmetry = find_symmetry(mln, model.domain_map, model.named, model.swap_invariant)
    if not force and options.max_evidence_sets is not None:
        check_size(mln, symmetry, options.k, focus, options.max_evidence_sets)
    with closing(iter_schemas(mln, symmetry, options, focus=focus, runtime=runtime, note=note)) as schemas:
        return lift(mln, symmetry, schemas, model, note=note)


def lifted_reduced(reduced: Reduction, options: LiftedOptions = LiftedOptions(), *,
                   evidence_preds: Iterable[str] | None = None, query_preds: Iterable[str] | None = None,
                   runtime: Runtime = Runtime(), force: bool = False) -> LiftedTheory:
    """:func:`lifted` of ``reduced.full``, searched over its reduced model: the same
    theory (docs/domains.md), at the cost of the kept constants and one representative
    per reduced domain.  Evidence and conclusions range over the atoms of the kept
    constants (the representatives stand for constants no question names).

    :raises UnknownNameError: for a focus predicate the model does not have.
    :raises ModelError: as :func:`lifted`.
    """
    from ..search.interchangeability import find_symmetry
    from .variabilize import lift

    small = reduced.model
    mln = ground(small, multiplicity=reduced.multiplicity)
    reps = reduced.representatives
    given = Focus.of_predicates(mln, evidence_preds, query_preds)
    kept = frozenset(a for a, name in enumerate(mln.atoms, 1) if not reps.intersection(split_atom(name)[1]))
    focus = Focus(kept if given.evidence is None else given.evidence & kept,
                  kept if given.query is None else given.query & kept)
    # (named constants interchangeable as the first-order model shows it; each representative alone)
    symmetry = find_symmetry(mln, small.domain_map, small.named | reps,
                             lambda c, d: c not in reps and d not in reps and small.swap_invariant(c, d),
                             ground_tests=False)
    if not force and options.max_evidence_sets is not None:
        check_size(mln, symmetry, options.k, focus, options.max_evidence_sets)
    note = reduced.describe()
    with closing(iter_schemas(mln, symmetry, options, focus=focus, runtime=runtime, note=note)) as schemas:
        return lift(mln, symmetry, schemas, reduction=reduced, note=note)
