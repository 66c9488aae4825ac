"""The front doors of the transformations: :func:`transform_mln` by method name, with its
checks and bounds, and :func:`convert_mln` (transform, then filter redundant rules)."""

from __future__ import annotations

__all__ = ["METHODS", "has_option", "method_options", "method_flags", "transform_mln", "transform_given", "convert_mln", "Conversion",
           "default_method", "count_evidence_sets", "MAX_EVIDENCE_SETS", "MAX_LIFTED_EVIDENCE_SETS"]

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from math import comb
from types import MappingProxyType

from .. import arguments
from ..errors import ArgumentError, ArgumentTypeError, ModelError, UnknownNameError
from ..map.instance import fixed_atoms
from ..model.first_order import FirstOrderMLN
from ..model.ground_mln import GroundMLN
from ..possibilistic.filtering import filter_redundant
from ..possibilistic.lifted_theory import LiftedTheory
from ..possibilistic.theory import PossibilisticTheory
from ..search.checkpoint import discard
from .defaults import DefaultsOptions
from .exhaustive import ExhaustiveOptions
from .lifted import LiftedOptions
from .options import (
    MAX_EVIDENCE_SETS,
    MAX_LIFTED_EVIDENCE_SETS,
    RUNTIME_NAMES,
    TOO_MANY,
    Flag,
    MethodOptions,
    Request,
    Runtime,
    SearchOptions,
    make_options,
    make_runtime,
)
from .selective import SelectiveOptions

METHODS: Mapping[str, type[MethodOptions]] = MappingProxyType({
    options.method: options for options in (ExhaustiveOptions, SelectiveOptions, DefaultsOptions, LiftedOptions)
})
"""The transformations by name, in the paper's order: each its options class, which runs it."""


def has_option(method: str, name: str) -> bool:
    """Whether the transformation ``method`` takes the option ``name`` (its own or a runtime one)."""
    return name in METHODS[method].names()


def method_options(method: str, given: Mapping[str, object]) -> MethodOptions:
    """The checked options of the transformation ``method`` from keyword arguments.

    :raises UnknownNameError: for an option the method does not have, naming those it has.
    """
    return make_options(METHODS[method], given)


def method_flags() -> dict[str, tuple[Flag, tuple[str, ...]]]:
    """Every option the command line has a flag for (the methods' and the runtime's), by
    field name: its :class:`~.options.Flag` and the methods that take it, in the paper's order."""
    out: dict[str, tuple[Flag, tuple[str, ...]]] = {}
    for cls in (*METHODS.values(), Runtime):
        for f in fields(cls):
            flag = f.metadata.get("flag")
            if flag is not None and f.name not in out:
                out[f.name] = (flag, tuple(m for m, options in METHODS.items() if f.name in options.names()))
    return out


def count_evidence_sets(n_atoms: int, k: int) -> int:
    """The consistent sets of at most ``k`` literals over ``n_atoms`` atoms."""
    return sum(comb(n_atoms, s) * 2**s for s in range(min(k, n_atoms) + 1))


def default_method(model: FirstOrderMLN | GroundMLN) -> str:
    """``lifted`` for a first-order model with a predicate that takes arguments, else ``defaults``."""
    if isinstance(model, FirstOrderMLN) and any(p.domains for p in model.predicates):
        return "lifted"
    return "defaults"


def transform_mln(
    mln: FirstOrderMLN | GroundMLN,
    method: str | MethodOptions | None = None,
    *,
    evidence_preds: Iterable[str] | None = None,
    query_preds: Iterable[str] | None = None,
    grounded: GroundMLN | None = None,
    force: bool = False,
    runtime: Runtime | None = None,
    **options: object,
) -> PossibilisticTheory | LiftedTheory:
    """Convert ``mln`` with a transformation: its options object (``DefaultsOptions(k=2)``),
    or its name with its options as keywords (None: :func:`default_method`).

    :param evidence_preds: evidence only over atoms of these predicates (None: all).
    :param query_preds: rules conclude only about atoms of these predicates (None: all).
        Transformations 3 and 4 then answer exactly the questions with evidence over
        the first and conclusions over the second (docs/focus.md); the selective one
        takes its family over the evidence predicates; the exhaustive one is exact
        for every question anyway.
    :param grounded: ``ground(mln)`` when the caller has it already (the lifted search then
        runs over it, its large domains not reduced: docs/domains.md).
    :param force: go ahead above the size limits: of the grounding
        (:func:`~pracmln_poss.model.grounding.ground`), of the evidence sets
        (:data:`~.options.MAX_EVIDENCE_SETS`, :data:`~.options.MAX_LIFTED_EVIDENCE_SETS`) and of the
        exhaustive transformation.
    :param runtime: how it runs (:class:`~.options.Runtime`); or its fields as keywords:
        ``progress`` (all), ``stats``, ``jobs``, ``executor``, ``checkpoint`` (defaults, lifted).
    :param options: with a method's name, its own options, checked once by its options class
        (:class:`~.exhaustive.ExhaustiveOptions`, :class:`~.selective.SelectiveOptions`,
        :class:`~.defaults.DefaultsOptions`, :class:`~.lifted.LiftedOptions`): ``k``
        (all but the exhaustive one), ``backend`` (all), ``family`` (selective),
        ``long_blocking`` (lifted), ...
    :raises UnknownNameError: for a method not in :data:`METHODS`, an option the method
        does not have (naming those it has), or an unknown predicate.
    :raises ArgumentError: for options given both as an object and as keywords.
    :raises ModelError: above a size limit, saying how large, unless ``force``.

    >>> from pracmln_poss import GroundMLN, possibilistic_inference
    >>> from pracmln_poss.transformations import DefaultsOptions, transform_mln
    >>> mln = GroundMLN.from_pairs([("bird => flies", 2), ("penguin => !flies", 5), ("penguin => bird", "inf")])
    >>> theory = transform_mln(mln, DefaultsOptions(k=1))
    >>> [f"{theory.level_name(pf.level)}: {theory.format(pf.formula)}" for pf in theory.formulas if pf.level == 2]
    ['lambda_2: penguin => (bird ^ !flies)']
    >>> transform_mln(mln, "defaults", k=1) == theory
    True
    >>> with possibilistic_inference(theory) as ask:
    ...     ask.entails(["bird"], "flies"), ask.entails(["penguin"], "!flies")
    (True, True)
    """
    return transform_given(mln, method, {"evidence_preds": evidence_preds, "query_preds": query_preds,
                                         "grounded": grounded, "force": force, "runtime": runtime, **options})


def transform_given(mln: object, method: object, given: Mapping[str, object]) -> PossibilisticTheory | LiftedTheory:
    """:func:`transform_mln` with its keyword arguments as a mapping (what a front door that
    takes keywords of its own hands on), each checked here.

    :raises PossError: as :func:`transform_mln` does, and ``ArgumentTypeError`` for a
        keyword argument of the wrong kind.
    """
    theory, runtime = _transformed(mln, method, given)
    if runtime.checkpoint is not None:  # (the theory made: what the checkpoint kept is safe)
        discard(runtime.checkpoint)
    return theory


def _transformed(mln: object, method: object, given: Mapping[str, object]
                 ) -> tuple[PossibilisticTheory | LiftedTheory, Runtime]:
    """The theory of :func:`transform_given` and the runtime it ran with, its checkpoint
    left in place."""
    model = _model(mln)
    options = dict(given)
    evidence_preds = arguments.names("evidence_preds", options.pop("evidence_preds", None))
    query_preds = arguments.names("query_preds", options.pop("query_preds", None))
    grounded = options.pop("grounded", None)
    if grounded is not None and not isinstance(grounded, GroundMLN):
        raise ArgumentTypeError(f"grounded takes the model's GroundMLN or None, not {type(grounded).__name__}")
    force = arguments.flag("force", options.pop("force", False))
    runtime = options.pop("runtime", None)
    given_runtime = {name: options.pop(name) for name in RUNTIME_NAMES if name in options}
    if isinstance(method, MethodOptions):
        opts = method
        if options:
            raise ArgumentError(f"options given both in {type(method).__name__} and as keywords "
                                f"({', '.join(sorted(options))}): pass them one way")
    else:
        name = method or default_method(model)
        if not isinstance(name, str) or name not in METHODS:
            raise UnknownNameError(f"unknown method {name!r}; valid: {', '.join(METHODS)}")
        opts = make_options(METHODS[name], options)
    kind = type(opts)
    if runtime is not None and (given_runtime or not isinstance(runtime, Runtime)):
        raise ArgumentTypeError("runtime takes a Runtime (or give its fields as keywords, not both)")
    checked = make_runtime(kind, runtime if isinstance(runtime, Runtime) else given_runtime)
    if kind.first_order and not isinstance(model, FirstOrderMLN):
        raise ModelError(f"the {kind.method} transformation needs the first-order model (its domains), "
                         "not a ground MLN")
    request = Request(model, grounded, None if evidence_preds is None else tuple(evidence_preds),
                      None if query_preds is None else tuple(query_preds), force, checked.keep)
    if not kind.first_order:  # (its focus checked now: a lifted method may not ground the model at all)
        request.focus  # noqa: B018
    if not force:
        _check_evidence_sets(opts, request)
    return opts.run(request, checked), checked


def _model(mln: object) -> FirstOrderMLN | GroundMLN:
    """The model a caller passed: a first-order or a ground MLN."""
    if isinstance(mln, (FirstOrderMLN, GroundMLN)):
        return mln
    hint = " (load a file with pracmln_poss.load_first_order(path))" if isinstance(mln, (str, os.PathLike)) else ""
    raise ArgumentTypeError(f"mln takes a FirstOrderMLN or a GroundMLN, not {type(mln).__name__}{hint}")


def _check_evidence_sets(options: MethodOptions, request: Request) -> None:
    limit = options.max_evidence_sets
    if limit is None or not isinstance(options, SearchOptions) or options.first_order:
        return  # (Transformation 4 counts its classes once it knows them: lifted.check_size)
    mln = request.ground
    fixed, _ = fixed_atoms(mln)
    n = options.evidence_atoms(request, [a for a in range(1, mln.n_atoms + 1) if a not in fixed])
    if n is None:
        return
    k = options.k
    count = count_evidence_sets(n, k)
    if count > limit:
        raise ModelError(f"k = {k} over {n} atoms makes {count:,} evidence sets, more than {limit:,}: {TOO_MANY}")


@dataclass(frozen=True)
class Conversion:
    """A converted theory (filtered) and how many formulas the filtering removed."""

    theory: PossibilisticTheory | LiftedTheory
    removed: int


def convert_mln(
    mln: FirstOrderMLN | GroundMLN,
    method: str | MethodOptions | None = None,
    *,
    filter: str = "none",
    keep_checkpoint: object = False,
    **options: object,
) -> Conversion:
    """:func:`transform_mln`, then redundancy filtering (``none``, ``conservative`` or
    ``aggressive``; first-order rules for a lifted theory): the one pipeline behind
    ``pracmln-poss convert`` and ``MLN.to_possibilistic``.

    :param keep_checkpoint: leave the checkpoint (a runtime option) when done, for the
        caller to remove once the theory is safe (the command line: once it is written);
        by default it is removed once the theory is filtered.
    :param options: those of :func:`transform_mln`.

    >>> from pracmln_poss import GroundMLN
    >>> from pracmln_poss.transformations import convert_mln
    >>> mln = GroundMLN.from_pairs([("bird => flies", 2), ("penguin => !flies", 5), ("penguin => bird", "inf")])
    >>> done = convert_mln(mln, "defaults", k=1, filter="aggressive")
    >>> len(done.theory), done.removed
    (3, 2)
    """
    keep = arguments.flag("keep_checkpoint", keep_checkpoint)
    theory, runtime = _transformed(mln, method, options)
    result = filter_redundant(theory, filter, guard=runtime.guard)
    if runtime.checkpoint is not None and not keep:
        discard(runtime.checkpoint)
    return Conversion(result.theory, len(result.removed))
