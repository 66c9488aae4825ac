"""Exact MAP inference: the algorithms (:mod:`.engine`) on a backend chosen by name.

Backends: ``rc2`` (PySAT's RC2 core-guided MaxSAT), ``toulbar2`` (pytoulbar2's
incremental weighted-CSP branch and bound), ``cpsat`` (OR-Tools CP-SAT, exact integer
optimisation), ``bruteforce`` (enumerates all worlds, for tiny models) and ``wcsp``
(pracmln's own ``WCSPInference`` to find worlds, our exact arithmetic for their costs;
needs pracmln).  ``auto``, the default, picks ``rc2``, ``toulbar2`` or ``cpsat`` per
instance (:func:`choose_backend`).
"""

from __future__ import annotations

__all__ = [
    "BACKENDS", "MANY_DISTINCT_WEIGHTS", "TOULBAR2_MAX_CLAUSES", "MapEngine", "World", "Optimum", "open_engine",
    "choose_backend", "make_backend",
]

from ..errors import UnknownNameError
from ..ground_mln import GroundMLN
from .backend import Backend, Optimum, World
from .engine import MapEngine
from .instance import MaxSatInstance, build_instance

BACKENDS = ("auto", "rc2", "toulbar2", "cpsat", "bruteforce", "wcsp")

MANY_DISTINCT_WEIGHTS = 32
"""From this many distinct soft weights on, ``auto`` leaves RC2 (see
:func:`choose_backend` and ``benchmarks/backends.py``)."""

TOULBAR2_MAX_CLAUSES = 4000
"""Up to this many clauses (hard and soft), ``auto`` prefers toulbar2 to CP-SAT.
Measured on pracmln's object-recognition: one cluster (2,067 clauses) 3 ms per call
of a conversion against CP-SAT's 15; two clusters (5,500) and the test database
(11,649) about as fast or slower than CP-SAT's 0.2 s, which a toulbar2 attempt over
its budget would only add to."""


def choose_backend(instance: MaxSatInstance) -> str:
    """``rc2`` for instances with few distinct weights, else ``toulbar2`` for small
    instances and ``cpsat`` for large ones (or weights too large for toulbar2's exact
    costs).

    Core-guided MaxSAT (RC2) shines when weights are few (hand-written and paper
    models: one stratum, many small cores); with many distinct weights (learned
    models) its stratification makes many rounds, and branch and bound wins by
    orders of magnitude: toulbar2 keeps one preprocessed problem for all calls,
    CP-SAT copies and presolves its model each time, so toulbar2 is about 5x faster
    per call on the conversions of a learned model and as fast on a single MAP
    (measured in ``benchmarks/backends.py``).
    """
    if instance.distinct_weights < MANY_DISTINCT_WEIGHTS:
        return "rc2"
    from .toulbar2 import MAX_TOTAL_WEIGHT

    small = len(instance.hard) + len(instance.soft) <= TOULBAR2_MAX_CLAUSES
    return "toulbar2" if small and instance.total_weight <= MAX_TOTAL_WEIGHT else "cpsat"


def open_engine(mln: GroundMLN, backend: str = "auto") -> MapEngine:
    """A MAP engine for ``mln``; use it as a context manager.

    :raises UnknownNameError: for a backend name not in :data:`BACKENDS`.
    """
    return MapEngine(mln, make_backend(mln, backend))


def make_backend(mln: GroundMLN, backend: str = "auto") -> Backend:
    """The named backend for ``mln`` (``auto``: :func:`choose_backend`)."""
    if backend not in BACKENDS:
        raise UnknownNameError(f"unknown MAP backend {backend!r}; valid: {', '.join(BACKENDS)}")
    if backend in ("auto", "rc2", "toulbar2", "cpsat"):
        instance = build_instance(mln)
        name = choose_backend(instance) if backend == "auto" else backend
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
