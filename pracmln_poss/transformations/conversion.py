"""The front doors of the transformations: :func:`transform` by method name, with its
checks and bounds, and :func:`convert` (transform, then filter redundant rules)."""

from __future__ import annotations

__all__ = ["METHODS", "transform", "convert", "Conversion", "default_method", "evidence_family",
           "count_evidence_sets", "MAX_EVIDENCE_SETS", "MAX_LIFTED_EVIDENCE_SETS"]

import os
from collections.abc import Iterable
from dataclasses import dataclass
from math import comb
from typing import Any, cast

from .. import arguments
from ..errors import ArgumentTypeError, ModelError, UnknownNameError
from ..ground_mln import GroundMLN
from ..grounding import ground
from ..map.instance import fixed_atoms
from ..model import FirstOrderMLN
from ..possibilistic.filtering import filter_redundant
from ..possibilistic.lifted import LiftedTheory
from ..possibilistic.theory import PossibilisticTheory
from ..search.evidence import EvidenceSet, literal_sets
from ..search.focus import Focus
from ..search.progress import Progress
from .defaults import defaults
from .exhaustive import exhaustive
from .lifted import lifted
from .options import DefaultsOptions, LiftedOptions, SelectiveOptions, method_options
from .selective import selective

METHODS = ("exhaustive", "selective", "defaults", "lifted")
"""The transformations by name, in the paper's order."""


MAX_EVIDENCE_SETS = 10_000_000
"""Above this many evidence sets, Transformations 2 and 3 are refused unless forced."""
MAX_LIFTED_EVIDENCE_SETS = 1_000_000_000
"""The same for Transformation 4, counted before symmetry (its classes are far fewer:
CORA over 4 papers and 4 persons has 16 million sets of at most 4 literals in 339,308
classes)."""


def count_evidence_sets(n_atoms: int, k: int) -> int:
    """The consistent sets of at most ``k`` literals over ``n_atoms`` atoms."""
    return sum(comb(n_atoms, s) * 2**s for s in range(min(k, n_atoms) + 1))


def default_method(model: FirstOrderMLN | GroundMLN) -> str:
    """``lifted`` for a first-order model with a predicate that takes arguments, else ``defaults``."""
    if isinstance(model, FirstOrderMLN) and any(p.domains for p in model.predicates):
        return "lifted"
    return "defaults"


def transform(
    mln: FirstOrderMLN | GroundMLN,
    method: str | None = None,
    *,
    k: int = 1,
    evidence_preds: Iterable[str] | None = None,
    query_preds: Iterable[str] | None = None,
    family: str | Iterable[EvidenceSet] = "all",
    grounded: GroundMLN | None = None,
    force: bool = False,
    progress: Progress = None,
    **options: Any,
) -> PossibilisticTheory | LiftedTheory:
    """Convert ``mln`` with the named transformation (None: :func:`default_method`).

    :param k: the largest evidence set (defaults, lifted, and selective with a family
        by name); the exhaustive transformation ignores it.
    :param evidence_preds: evidence only over atoms of these predicates (None: all).
    :param query_preds: rules conclude only about atoms of these predicates (None: all).
        Transformations 3 and 4 then answer exactly the questions with evidence over
        the first and conclusions over the second (docs/focus.md); the selective one
        takes its family over the evidence predicates; the exhaustive one is exact
        for every question anyway.
    :param family: selective: ``all`` or ``positive`` (sets of at most ``k`` literals
        over the evidence atoms) or the evidence sets themselves.
    :param grounded: ``ground(mln)`` when the caller has it already.
    :param force: go ahead above the size limits: of the grounding
        (:func:`~pracmln_poss.grounding.ground`), of the evidence sets
        (:data:`MAX_EVIDENCE_SETS`, :data:`MAX_LIFTED_EVIDENCE_SETS`) and of the
        exhaustive transformation.
    :param progress: called with what is being done and how far (a long conversion's report).
    :param options: the method's own (:class:`ExhaustiveOptions`, :class:`SelectiveOptions`,
        :class:`DefaultsOptions`, :class:`LiftedOptions`): ``backend`` for all of them,
        ``long_blocking`` for ``lifted``, ...
    :raises UnknownNameError: for a method not in :data:`METHODS`, an option the method
        does not have, or an unknown predicate.
    :raises ModelError: above a size limit, saying how large, unless ``force``.
    """
    mln = _model(mln)
    method = method or default_method(mln)
    if not isinstance(method, str) or method not in METHODS:
        raise UnknownNameError(f"unknown method {method!r}; valid: {', '.join(METHODS)}")
    opts = method_options(method, options)
    k = arguments.integer("k", k)
    evidence_preds = arguments.names("evidence_preds", evidence_preds)
    query_preds = arguments.names("query_preds", query_preds)
    if not isinstance(family, str) and not isinstance(family, Iterable):
        raise ArgumentTypeError(f"family takes 'all', 'positive' or a list of evidence sets, not {family!r}")
    if method != "selective" and not (isinstance(family, str) and family == "all"):
        raise UnknownNameError(f"the {method} transformation has no option 'family' (the selective one has)")
    if grounded is not None and not isinstance(grounded, GroundMLN):
        raise ArgumentTypeError(f"grounded takes the model's GroundMLN or None, not {type(grounded).__name__}")
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress takes a function or None, not {type(progress).__name__}")
    if method == "lifted" and not isinstance(mln, FirstOrderMLN):
        raise ModelError("the lifted transformation needs the first-order model (its domains), not a ground MLN")
    ground_mln = mln if isinstance(mln, GroundMLN) else grounded if grounded is not None else ground(mln, force=force)
    focus = Focus.of_predicates(ground_mln, evidence_preds, query_preds)
    if method in ("defaults", "lifted", "selective") and not force:
        _check_evidence_sets(ground_mln, method, k, focus, family)
    if isinstance(opts, LiftedOptions):
        return lifted(cast(FirstOrderMLN, mln), k, focus=focus, grounded=ground_mln, backend=opts.backend,
                      long_blocking=opts.long_blocking, progress=progress, jobs=opts.jobs, executor=opts.executor,
                      checkpoint=opts.checkpoint)
    if isinstance(opts, DefaultsOptions):
        return defaults(ground_mln, k, focus=focus, backend=opts.backend, progress=progress, stats=opts.stats,
                        omit_redundant_blocking=opts.omit_redundant_blocking, prune_heads=opts.prune_heads,
                        jobs=opts.jobs, executor=opts.executor, checkpoint=opts.checkpoint)
    if isinstance(opts, SelectiveOptions):
        if isinstance(family, str):
            family = evidence_family(ground_mln, family, k, focus)
        return selective(ground_mln, family, backend=opts.backend, progress=progress)
    return exhaustive(ground_mln, force=force, backend=opts.backend, max_formulas=opts.max_formulas,
                      progress=progress)


def _model(mln: object) -> FirstOrderMLN | GroundMLN:
    """The model a caller passed: a first-order or a ground MLN."""
    if isinstance(mln, (FirstOrderMLN, GroundMLN)):
        return mln
    hint = " (load a file with pracmln_poss.load_first_order(path))" if isinstance(mln, (str, os.PathLike)) else ""
    raise ArgumentTypeError(f"mln takes a FirstOrderMLN or a GroundMLN, not {type(mln).__name__}{hint}")


def _check_evidence_sets(mln: GroundMLN, method: str, k: int, focus: Focus, family: object) -> None:
    fixed, _ = fixed_atoms(mln)
    free = [a for a in range(1, mln.n_atoms + 1) if a not in fixed]
    if method == "selective":
        if not isinstance(family, str):
            return  # the caller's own sets, already in memory
        n = len(free) if focus.evidence is None else len(focus.evidence)
    else:
        n = len(focus.enumerated(free))
    count = count_evidence_sets(n, k)
    limit = MAX_LIFTED_EVIDENCE_SETS if method == "lifted" else MAX_EVIDENCE_SETS
    if count > limit:
        raise ModelError(
            f"k = {k} over {n} atoms makes {count:,} evidence sets, more than {limit:,}: "
            "use a smaller k, focus the conversion (--evidence-preds, --query-preds; from Python evidence_preds=, "
            "query_preds=) or force it (--force; force=True)"
        )


@dataclass(frozen=True)
class Conversion:
    """A converted theory (filtered) and how many formulas the filtering removed."""

    theory: PossibilisticTheory | LiftedTheory
    removed: int


def convert(
    mln: FirstOrderMLN | GroundMLN,
    method: str | None = None,
    *,
    filter: str = "none",
    **options: Any,
) -> Conversion:
    """:func:`transform`, then redundancy filtering (``none``, ``conservative`` or
    ``aggressive``; first-order rules for a lifted theory): the one pipeline behind
    ``pracmln-poss convert`` and ``MLN.to_possibilistic``.

    :param options: those of :func:`transform`.
    """
    theory = transform(mln, method, **options)
    result = filter_redundant(theory, filter)
    return Conversion(result.theory, len(result.removed))


def evidence_family(mln: GroundMLN, kind: str, k: int, focus: Focus = Focus()) -> list[EvidenceSet]:
    """The evidence sets of at most ``k`` literals over the focus's evidence atoms:
    ``all`` of them, or only the ``positive`` ones."""
    if kind not in ("all", "positive"):
        raise UnknownNameError(f"unknown evidence family {kind!r}; valid: all, positive, or a list of sets")
    atoms = list(range(1, mln.n_atoms + 1)) if focus.evidence is None else sorted(focus.evidence)
    return list(literal_sets(atoms, k, positive_only=kind == "positive"))
