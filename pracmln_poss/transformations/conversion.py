"""The front doors of the transformations: :func:`transform` by method name, with its
checks and bounds, and :func:`convert` (transform, then filter redundant rules)."""

from __future__ import annotations

__all__ = ["METHODS", "Method", "Request", "has_option", "method_options", "transform", "convert", "Conversion", "default_method",
           "count_evidence_sets", "MAX_EVIDENCE_SETS", "MAX_LIFTED_EVIDENCE_SETS"]

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from math import comb
from types import MappingProxyType
from typing import Any, cast

from .. import arguments
from ..errors import ArgumentTypeError, ModelError, UnknownNameError
from ..first_order import FirstOrderMLN
from ..ground_mln import GroundMLN
from ..grounding import ground
from ..map.instance import fixed_atoms
from ..possibilistic.filtering import filter_redundant
from ..possibilistic.lifted_theory import LiftedTheory
from ..possibilistic.theory import PossibilisticTheory
from ..search.focus import Focus
from .defaults import defaults
from .exhaustive import exhaustive
from .lifted import lifted
from .options import (
    DefaultsOptions,
    ExhaustiveOptions,
    LiftedOptions,
    MethodOptions,
    SelectiveOptions,
    make_options,
    option_names,
)
from .selective import selective

MAX_EVIDENCE_SETS = 10_000_000
"""Above this many evidence sets, Transformations 2 and 3 are refused unless forced."""
MAX_LIFTED_EVIDENCE_SETS = 1_000_000_000
"""The same for Transformation 4, counted before symmetry (its classes are far fewer:
CORA over 4 papers and 4 persons has 16 million sets of at most 4 literals in 339,308
classes)."""


@dataclass(frozen=True)
class Request:
    """One conversion as :func:`transform` hands it to a method: the model (first-order
    when the caller gave one), its grounding, the focus, the method's checked options."""

    model: FirstOrderMLN | GroundMLN
    ground: GroundMLN
    focus: Focus
    options: MethodOptions
    force: bool


@dataclass(frozen=True)
class Method:
    """A transformation as :func:`transform` runs it.

    :ivar options: its options class (what it takes, checked when made).
    :ivar run: the transformation on a request.
    :ivar first_order: it needs the first-order model (its domains), not a ground MLN.
    :ivar max_evidence_sets: refused above this many evidence sets unless forced (None:
        it enumerates none).
    :ivar evidence_atoms: how many atoms its evidence sets range over (None: a family
        the caller gave, already in memory).
    """

    options: type[MethodOptions]
    run: Callable[[Request], PossibilisticTheory | LiftedTheory]
    first_order: bool = False
    max_evidence_sets: int | None = None
    evidence_atoms: Callable[[Request, list[int]], int | None] | None = None

    @property
    def option_names(self) -> tuple[str, ...]:
        """The options it takes, in order."""
        return option_names(self.options)


def _focused_atoms(request: Request, free: list[int]) -> int:
    return len(request.focus.enumerated(free))


def _family_atoms(request: Request, free: list[int]) -> int | None:
    options = cast(SelectiveOptions, request.options)
    if not isinstance(options.family, str):
        return None
    return len(free) if request.focus.evidence is None else len(request.focus.evidence)


METHODS: Mapping[str, Method] = MappingProxyType({
    "exhaustive": Method(ExhaustiveOptions, lambda r: exhaustive(r.ground, cast(ExhaustiveOptions, r.options),
                                                                 force=r.force)),
    "selective": Method(SelectiveOptions, lambda r: selective(r.ground, cast(SelectiveOptions, r.options),
                                                              focus=r.focus),
                        max_evidence_sets=MAX_EVIDENCE_SETS, evidence_atoms=_family_atoms),
    "defaults": Method(DefaultsOptions, lambda r: defaults(r.ground, cast(DefaultsOptions, r.options), focus=r.focus),
                       max_evidence_sets=MAX_EVIDENCE_SETS, evidence_atoms=_focused_atoms),
    "lifted": Method(LiftedOptions, lambda r: lifted(cast(FirstOrderMLN, r.model), cast(LiftedOptions, r.options),
                                                     focus=r.focus, grounded=r.ground),
                     first_order=True, max_evidence_sets=MAX_LIFTED_EVIDENCE_SETS, evidence_atoms=_focused_atoms),
})
"""The transformations by name, in the paper's order: what each takes and how it runs."""


def has_option(method: str, name: str) -> bool:
    """Whether the transformation ``method`` takes the option ``name``."""
    return name in METHODS[method].option_names


def method_options(method: str, given: dict[str, Any]) -> MethodOptions:
    """The checked options of the transformation ``method`` from keyword arguments.

    :raises UnknownNameError: for an option the method does not have, naming those it has.
    """
    return make_options(method, METHODS[method].options, given)


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
    evidence_preds: Iterable[str] | None = None,
    query_preds: Iterable[str] | None = None,
    grounded: GroundMLN | None = None,
    force: bool = False,
    **options: Any,
) -> PossibilisticTheory | LiftedTheory:
    """Convert ``mln`` with the named transformation (None: :func:`default_method`).

    :param evidence_preds: evidence only over atoms of these predicates (None: all).
    :param query_preds: rules conclude only about atoms of these predicates (None: all).
        Transformations 3 and 4 then answer exactly the questions with evidence over
        the first and conclusions over the second (docs/focus.md); the selective one
        takes its family over the evidence predicates; the exhaustive one is exact
        for every question anyway.
    :param grounded: ``ground(mln)`` when the caller has it already.
    :param force: go ahead above the size limits: of the grounding
        (:func:`~pracmln_poss.grounding.ground`), of the evidence sets
        (:data:`MAX_EVIDENCE_SETS`, :data:`MAX_LIFTED_EVIDENCE_SETS`) and of the
        exhaustive transformation.
    :param options: the method's own, checked once by its options class and passed down
        whole (:class:`~.options.ExhaustiveOptions`, :class:`~.options.SelectiveOptions`,
        :class:`~.options.DefaultsOptions`, :class:`~.options.LiftedOptions`): ``k``
        (all but the exhaustive one), ``backend`` and ``progress`` (all), ``family``
        (selective), ``jobs``, ``executor``, ``checkpoint`` (defaults, lifted),
        ``long_blocking`` (lifted), ...
    :raises UnknownNameError: for a method not in :data:`METHODS`, an option the method
        does not have (naming those it has), or an unknown predicate.
    :raises ModelError: above a size limit, saying how large, unless ``force``.

    >>> from pracmln_poss import GroundMLN, possibilistic_inference, transform
    >>> mln = GroundMLN.from_pairs([("bird => flies", 2), ("penguin => !flies", 5), ("penguin => bird", "inf")])
    >>> theory = transform(mln, "defaults", k=1)
    >>> [f"{theory.level_name(pf.level)}: {theory.format(pf.formula)}" for pf in theory.formulas if pf.level == 2]
    ['lambda_2: penguin => (bird ^ !flies)']
    >>> with possibilistic_inference(theory) as ask:
    ...     ask.entails(["bird"], "flies"), ask.entails(["penguin"], "!flies")
    (True, True)
    """
    mln = _model(mln)
    method = method or default_method(mln)
    if not isinstance(method, str) or method not in METHODS:
        raise UnknownNameError(f"unknown method {method!r}; valid: {', '.join(METHODS)}")
    spec = METHODS[method]
    opts = method_options(method, options)
    evidence_preds = arguments.names("evidence_preds", evidence_preds)
    query_preds = arguments.names("query_preds", query_preds)
    if grounded is not None and not isinstance(grounded, GroundMLN):
        raise ArgumentTypeError(f"grounded takes the model's GroundMLN or None, not {type(grounded).__name__}")
    if spec.first_order and not isinstance(mln, FirstOrderMLN):
        raise ModelError(f"the {method} transformation needs the first-order model (its domains), not a ground MLN")
    ground_mln = mln if isinstance(mln, GroundMLN) else grounded if grounded is not None else ground(mln, force=force)
    request = Request(mln, ground_mln, Focus.of_predicates(ground_mln, evidence_preds, query_preds), opts, force)
    if not force:
        _check_evidence_sets(method, spec, request)
    return spec.run(request)


def _model(mln: object) -> FirstOrderMLN | GroundMLN:
    """The model a caller passed: a first-order or a ground MLN."""
    if isinstance(mln, (FirstOrderMLN, GroundMLN)):
        return mln
    hint = " (load a file with pracmln_poss.load_first_order(path))" if isinstance(mln, (str, os.PathLike)) else ""
    raise ArgumentTypeError(f"mln takes a FirstOrderMLN or a GroundMLN, not {type(mln).__name__}{hint}")


def _check_evidence_sets(method: str, spec: Method, request: Request) -> None:
    if spec.max_evidence_sets is None or spec.evidence_atoms is None:
        return
    mln = request.ground
    fixed, _ = fixed_atoms(mln)
    n = spec.evidence_atoms(request, [a for a in range(1, mln.n_atoms + 1) if a not in fixed])
    if n is None:
        return
    k = cast(SelectiveOptions | DefaultsOptions | LiftedOptions, request.options).k
    count = count_evidence_sets(n, k)
    if count > spec.max_evidence_sets:
        raise ModelError(
            f"k = {k} over {n} atoms makes {count:,} evidence sets, more than {spec.max_evidence_sets:,}: "
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

    >>> from pracmln_poss import GroundMLN, convert
    >>> mln = GroundMLN.from_pairs([("bird => flies", 2), ("penguin => !flies", 5), ("penguin => bird", "inf")])
    >>> done = convert(mln, "defaults", k=1, filter="aggressive")
    >>> len(done.theory), done.removed
    (3, 2)
    """
    theory = transform(mln, method, **options)
    result = filter_redundant(theory, filter)
    return Conversion(result.theory, len(result.removed))
