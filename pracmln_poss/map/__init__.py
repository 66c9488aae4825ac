"""Exact MAP inference backends, selectable by name.

``rc2`` (default, PySAT's RC2 MaxSAT), ``bruteforce`` (enumerates all worlds: the
reference, for small MLNs) and ``wcsp`` (pracmln's ``WCSPInference``/toulbar2 to
find worlds, our exact arithmetic for their costs; needs pracmln).
"""

from __future__ import annotations

__all__ = ["BACKENDS", "MapEngine", "World", "Optimum", "open_engine"]

from ..errors import UnknownNameError
from ..ground_mln import GroundMLN
from .engine import MapEngine, Optimum, World

BACKENDS = ("rc2", "bruteforce", "wcsp")


def open_engine(mln: GroundMLN, backend: str = "rc2") -> MapEngine:
    """A MAP engine for ``mln``; use it as a context manager.

    :raises UnknownNameError: for a backend name not in :data:`BACKENDS`.
    """
    if backend == "rc2":
        from .rc2 import RC2Engine

        return RC2Engine(mln)
    if backend == "bruteforce":
        from .bruteforce import BruteForceEngine

        return BruteForceEngine(mln)
    if backend == "wcsp":
        from ..bridge.wcsp import WCSPEngine

        return WCSPEngine(mln)
    raise UnknownNameError(f"unknown MAP backend {backend!r}; valid: {', '.join(BACKENDS)}")
