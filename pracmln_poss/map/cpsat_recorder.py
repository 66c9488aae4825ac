"""The solutions CP-SAT finds as it searches, kept (imports OR-Tools: :mod:`.cpsat` imports
this module only when a solve runs under a time limit)."""

from __future__ import annotations

__all__ = ["Recorder"]

from ortools.sat.python import cp_model


class Recorder(cp_model.CpSolverSolutionCallback):
    """Keeps the last solution found (CP-SAT finds better ones as it goes), copied:
    ``response_proto.solution`` is a view into CP-SAT's own memory, which dangles once
    ``solve()`` is left by an exception (CI read a garbage length from it and failed with
    MemoryError; it could as well have read a wrong world)."""

    def __init__(self) -> None:
        super().__init__()
        self.solution: list[int] | None = None

    def on_solution_callback(self) -> None:
        self.solution = list(self.response_proto.solution)
