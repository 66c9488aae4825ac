"""Ctrl-C during a SAT call.

PySAT's C solvers catch SIGINT themselves while they solve (so that a long call can be
stopped) and raise their own error for it, not ``KeyboardInterrupt``.  Code that stops
cleanly on an interrupt (a conversion saving its checkpoint, the command line's exit
status 130) catches :data:`INTERRUPTS` and asks :func:`interrupted`.
"""

from __future__ import annotations

__all__ = ["INTERRUPTS", "interrupted"]

from pysolvers import error as _SolverError

INTERRUPTS: tuple[type[BaseException], ...] = (KeyboardInterrupt, _SolverError)
"""What an interrupt may arrive as: Python's, or PySAT's (among its other errors)."""


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C: ``KeyboardInterrupt``, or PySAT's error for a SIGINT
    caught during a solve."""
    return isinstance(exc, KeyboardInterrupt) or (
        isinstance(exc, _SolverError) and "keyboard interrupt" in str(exc).lower())
