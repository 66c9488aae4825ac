"""Backends by name: the names (:data:`BACKENDS`), the ``auto`` choice per instance
(:func:`choose_backend`), and the front door :func:`open_engine`."""

from __future__ import annotations

__all__ = ["BACKENDS", "MANY_DISTINCT_WEIGHTS", "SOFT_PER_WEIGHT", "choose_backend", "make_backend", "open_engine"]

from ..errors import UnknownNameError
from ..ground_mln import GroundMLN
from .backend import Backend
from .engine import MapEngine
from .instance import MaxSatInstance, build_instance

BACKENDS = ("auto", "oll", "rc2", "toulbar2", "cpsat", "bruteforce", "wcsp")
"""The MAP backends, by name (``auto`` picks one per model: :func:`choose_backend`)."""

MANY_DISTINCT_WEIGHTS = 32
"""From this many distinct soft weights on, ``auto`` may leave the core-guided solver
(see :func:`choose_backend` and ``benchmarks/backends.py``)."""

SOFT_PER_WEIGHT = 100
"""... unless each distinct weight has this many soft clauses on average (a large
model whose weights repeat, such as pracmln's meals: 126 weights, 19,388 clauses)."""


def choose_backend(instance: MaxSatInstance) -> str:
    """``oll`` unless the weights are many and diverse, else ``toulbar2`` (or ``cpsat``
    for weights too large for toulbar2's exact costs).

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
    from .toulbar2 import MAX_TOTAL_WEIGHT

    return "toulbar2" if instance.total_weight <= MAX_TOTAL_WEIGHT else "cpsat"


def open_engine(mln: GroundMLN, backend: str = "auto") -> MapEngine:
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
    return MapEngine(mln, make_backend(mln, backend))


def make_backend(mln: GroundMLN, backend: str = "auto") -> Backend:
    """The named backend for ``mln`` (``auto``: :func:`choose_backend`)."""
    if backend not in BACKENDS:
        raise UnknownNameError(f"unknown MAP backend {backend!r}; valid: {', '.join(BACKENDS)}")
    if backend in ("auto", "oll", "rc2", "toulbar2", "cpsat"):
        instance = build_instance(mln)
        name = choose_backend(instance) if backend == "auto" else backend
        if name == "oll":
            from .oll import OLLBackend

            return OLLBackend(mln, instance)
        if name == "toulbar2":
            from .toulbar2 import Toulbar2Backend

            return Toulbar2Backend(mln, instance)
        if name == "cpsat":
            from .cpsat import CPSATBackend

            return CPSATBackend(mln, instance)
        from .rc2 import RC2Backend

        return RC2Backend(mln, instance)
    if backend == "bruteforce":
        from .bruteforce import BruteForceBackend

        return BruteForceBackend(mln)
    from .wcsp import WCSPBackend

    return WCSPBackend(mln)
