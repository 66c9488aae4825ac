"""Exact MAP inference: the algorithms (:mod:`.engine`) on a backend chosen by name.

Backends: ``rc2`` (PySAT's RC2 core-guided MaxSAT), ``cpsat`` (OR-Tools CP-SAT,
exact integer optimisation), ``bruteforce`` (enumerates all worlds, for tiny models)
and ``wcsp`` (pracmln's ``WCSPInference``/toulbar2 to find worlds, our exact
arithmetic for their costs; needs pracmln).  ``auto``, the default, picks ``rc2`` or
``cpsat`` per instance (:func:`choose_backend`).
"""

from __future__ import annotations

__all__ = ["BACKENDS", "MapEngine", "World", "Optimum", "open_engine", "choose_backend"]

from ..errors import UnknownNameError
from ..ground_mln import GroundMLN
from .backend import Backend, Optimum, World
from .engine import MapEngine
from .instance import MaxSatInstance, build_instance

BACKENDS = ("auto", "rc2", "cpsat", "bruteforce", "wcsp")

CPSAT_MIN_DISTINCT_WEIGHTS = 32
"""From this many distinct soft weights on, ``auto`` picks CP-SAT (see
:func:`choose_backend` and ``benchmarks/backends.py``)."""


def choose_backend(instance: MaxSatInstance) -> str:
    """``cpsat`` for instances with many distinct weights, else ``rc2``.

    Core-guided MaxSAT (RC2) shines when weights are few (hand-written and paper
    models: one stratum, many small cores); with many distinct weights (learned
    models) its stratification makes many rounds, and CP-SAT's integer search wins by
    orders of magnitude (measured in ``benchmarks/backends.py``).
    """
    return "cpsat" if instance.distinct_weights >= CPSAT_MIN_DISTINCT_WEIGHTS else "rc2"


def open_engine(mln: GroundMLN, backend: str = "auto") -> MapEngine:
    """A MAP engine for ``mln``; use it as a context manager.

    :raises UnknownNameError: for a backend name not in :data:`BACKENDS`.
    """
    return MapEngine(mln, make_backend(mln, backend))


def make_backend(mln: GroundMLN, backend: str = "auto") -> Backend:
    """The named backend for ``mln`` (``auto``: :func:`choose_backend`)."""
    if backend not in BACKENDS:
        raise UnknownNameError(f"unknown MAP backend {backend!r}; valid: {', '.join(BACKENDS)}")
    if backend in ("auto", "rc2", "cpsat"):
        instance = build_instance(mln)
        name = choose_backend(instance) if backend == "auto" else backend
        if name == "cpsat":
            from .cpsat import CPSATBackend

            return CPSATBackend(mln, instance)
        from .rc2 import RC2Backend

        return RC2Backend(mln, instance)
    if backend == "bruteforce":
        from .bruteforce import BruteForceBackend

        return BruteForceBackend(mln)
    from ..bridge.wcsp import WCSPBackend

    return WCSPBackend(mln)
