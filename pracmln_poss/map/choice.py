"""Backends by name: the names (:data:`BACKENDS`), the ``auto`` choice per instance
(:func:`choose_backend`), and the front door :func:`open_engine`."""

from __future__ import annotations

__all__ = ["BACKENDS", "CNF_BACKENDS", "DEFAULT_BACKEND", "backend_name", "SOFT_PER_WEIGHT", "choose_backend", "make_backend", "open_engine"]

from collections.abc import Callable, Mapping
from types import MappingProxyType

from ..errors import UnknownNameError, closest
from ..model.ground_mln import GroundMLN
from ..stopping import Guard
from .backend import Backend
from .engine import MapEngine
from .instance import MANY_DISTINCT_WEIGHTS, MaxSatInstance, build_instance

DEFAULT_BACKEND = "auto"
"""The backend when none is named: one picked per model (:func:`choose_backend`)."""


def _oll(mln: GroundMLN, instance: MaxSatInstance, guard: Guard | None) -> Backend:
    from .oll import OLLBackend

    return OLLBackend(mln, instance, guard=guard)


def _rc2(mln: GroundMLN, instance: MaxSatInstance, guard: Guard | None) -> Backend:
    from .rc2 import RC2Backend

    return RC2Backend(mln, instance, guard=guard)


def _toulbar2(mln: GroundMLN, instance: MaxSatInstance, guard: Guard | None) -> Backend:
    from .toulbar2 import Toulbar2Backend

    return Toulbar2Backend(mln, instance, guard=guard)


def _cpsat(mln: GroundMLN, instance: MaxSatInstance, guard: Guard | None) -> Backend:
    from .cpsat import CPSATBackend

    return CPSATBackend(mln, instance, guard=guard)


def _bruteforce(mln: GroundMLN, instance: MaxSatInstance | None, guard: Guard | None) -> Backend:
    from .bruteforce import BruteForceBackend

    return BruteForceBackend(mln, guard=guard)


def _wcsp(mln: GroundMLN, instance: MaxSatInstance | None, guard: Guard | None) -> Backend:
    from .wcsp import WCSPBackend

    return WCSPBackend(mln, guard=guard)


_ON_WEIGHTED_CNF: Mapping[str, Callable[[GroundMLN, MaxSatInstance, Guard | None], Backend]] = MappingProxyType({
    "oll": _oll, "rc2": _rc2, "toulbar2": _toulbar2, "cpsat": _cpsat,
})
"""The backends that solve the model's weighted CNF (built once, shared with ``auto``'s choice)."""

_ON_FORMULAS: Mapping[str, Callable[[GroundMLN, MaxSatInstance | None, Guard | None], Backend]] = MappingProxyType({
    "bruteforce": _bruteforce, "wcsp": _wcsp,
})
"""The backends that read the ground formulas themselves."""

BACKENDS = (DEFAULT_BACKEND, *_ON_WEIGHTED_CNF, *_ON_FORMULAS)
"""The MAP backends, by name (``auto`` picks one per model: :func:`choose_backend`)."""

CNF_BACKENDS = tuple(_ON_WEIGHTED_CNF)
"""The backends that solve the model's weighted CNF (the solvers ``auto`` chooses among,
and ``rc2``): the tests check every one against brute force."""


def backend_name(value: object, option: str = "backend") -> str:
    """``value`` as a backend name, the one check of it (the CLI's choices are the same).

    :raises UnknownNameError: for anything not in :data:`BACKENDS`, naming ``option``.
    """
    if not isinstance(value, str) or value not in BACKENDS:
        shown = f"{value!r}" if isinstance(value, str) else f"{type(value).__name__} {value!r}"
        raise UnknownNameError(f"unknown MAP backend {shown} for {option}; "
                               f"{closest(str(value), BACKENDS, 'valid')}")
    return value


SOFT_PER_WEIGHT = 100
"""... unless each distinct weight has this many soft clauses on average (a large
model whose weights repeat, such as pracmln's meals: 126 weights, 19,388 clauses)."""


def choose_backend(instance: MaxSatInstance) -> str:
    """``oll`` unless the weights are many and diverse, else ``toulbar2`` (or ``cpsat``
    for weights too large for toulbar2's exact costs, and in a thread where toulbar2
    cannot run: :func:`.toulbar2.runs_here`).

    Where the weights are many and each repeats often (pracmln's meals), ``oll`` hands a
    question whose cores are too many to toulbar2 (:attr:`.OLLBackend.FALLBACK_CORES`).

    Core-guided MaxSAT shines when weights are few or repeat (hand-written and paper
    models, large grounded models: few strata, many small cores), and ours keeps its
    cores across the calls of a conversion.  With weights that are many and diverse (a
    learned model: pracmln's object-recognition has 1,719 distinct weights on 9,288
    clauses) every stratum and core costs a SAT call and searches take minutes, where
    branch and bound on toulbar2's network of multi-valued variables takes milliseconds
    a call, and CP-SAT, which copies and presolves its model each time, tenths of a
    second to seconds (``benchmarks/backends.py``).
    """
    weights = instance.distinct_weights
    if weights < MANY_DISTINCT_WEIGHTS or weights * SOFT_PER_WEIGHT <= len(instance.soft):
        return "oll"
    from .cost_network import MAX_TOTAL_WEIGHT
    from .toulbar2 import runs_here

    return "toulbar2" if instance.total_weight <= MAX_TOTAL_WEIGHT and runs_here() else "cpsat"


def open_engine(mln: GroundMLN, backend: str = DEFAULT_BACKEND, guard: Guard | None = None) -> MapEngine:
    """A MAP engine for ``mln``; use it as a context manager.  It works on ints: atoms
    ``1..n`` in ``mln.atoms`` order, DIMACS literals, penalties in resolution steps (by
    name and in weight units: :func:`~pracmln_poss.bridge.query.map_inference`).

    :raises UnknownNameError: for a backend name not in :data:`BACKENDS`.

    >>> from pracmln_poss import GroundMLN, open_engine
    >>> mln = GroundMLN.from_pairs([("bird => flies", 2), ("penguin => !flies", 5), ("penguin => bird", "inf")])
    >>> mln.atoms
    ('bird', 'flies', 'penguin')
    >>> with open_engine(mln) as engine:
    ...     engine.penalty(["penguin"]), sorted(engine.consequences(["penguin"]))
    (2000000, [-2, 1, 3])
    """
    return MapEngine(mln, make_backend(mln, backend, guard))


def make_backend(mln: GroundMLN, backend: str = DEFAULT_BACKEND, guard: Guard | None = None) -> Backend:
    """The named backend for ``mln`` (``auto``: :func:`choose_backend`).

    :raises UnknownNameError: for a backend name not in :data:`BACKENDS`.
    """
    name = backend_name(backend)
    if name in _ON_FORMULAS:
        return _ON_FORMULAS[name](mln, None, guard)
    instance = build_instance(mln)
    chosen = choose_backend(instance) if name == DEFAULT_BACKEND else name
    return _ON_WEIGHTED_CNF[chosen](mln, instance, guard)
