"""Exact MAP inference: the algorithms (:mod:`.engine`) on a backend chosen by name.

Backends: ``oll`` (our incremental core-guided MaxSAT on a PySAT solver, evidence as
assumptions: :mod:`.core_guided`), ``rc2`` (PySAT's RC2 core-guided MaxSAT, a fresh
solver per call), ``toulbar2`` (pytoulbar2's incremental weighted-CSP branch and bound
on multi-valued variables), ``cpsat`` (OR-Tools CP-SAT, exact integer optimisation),
``bruteforce`` (enumerates all worlds, for tiny models) and ``wcsp`` (pracmln's own
``WCSPInference`` to find worlds, our exact arithmetic for their costs; needs pracmln).
``auto``, the default, picks ``oll``, ``toulbar2`` or ``cpsat`` per instance
(:func:`~.choice.choose_backend`).
"""

from __future__ import annotations

__all__ = [
    "BACKENDS", "MANY_DISTINCT_WEIGHTS", "SOFT_PER_WEIGHT", "MapEngine", "World", "Optimum", "open_engine",
    "choose_backend", "make_backend", "DEFAULT_BACKEND", "backend_name",
]

from .choice import (
    BACKENDS,
    DEFAULT_BACKEND,
    SOFT_PER_WEIGHT,
    backend_name,
    choose_backend,
    make_backend,
    open_engine,
)
from .engine import MapEngine
from .instance import MANY_DISTINCT_WEIGHTS
from .world import Optimum, World
