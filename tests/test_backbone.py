"""The backbone's calls (``map/backbone.py``): the literals true in every model under the
assumptions, as brute force over all assignments finds them, whatever the fan-out of the
clauses that ask for a flipped candidate; and no clause it adds is longer than that
fan-out (one clause over every candidate costs MiniSat the square of their number)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from pracmln_poss.map import backbone as backbone_module
from pracmln_poss.map.backbone import backbone

from .support import examples

_VARIABLES = 7


class _Recording:
    """A PySAT solver that keeps the clauses added to it."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.added: list[list[int]] = []

    def add_clause(self, clause: list[int]) -> None:
        self.added.append(list(clause))
        self.solver.add_clause(clause)

    def __getattr__(self, name: str) -> object:
        return getattr(self.solver, name)


def _models(clauses: list[list[int]], assumptions: list[int]) -> list[tuple[int, ...]]:
    out = []
    for values in itertools.product((False, True), repeat=_VARIABLES):
        model = tuple(v if values[v - 1] else -v for v in range(1, _VARIABLES + 1))
        if all(model[abs(a) - 1] == a for a in assumptions) and all(
                any(model[abs(l) - 1] == l for l in clause) for clause in clauses):
            out.append(model)
    return out


literals = st.integers(1, _VARIABLES).flatmap(lambda v: st.sampled_from((v, -v)))


@settings(max_examples=examples(300), deadline=None)
@given(clauses=st.lists(st.lists(literals, min_size=1, max_size=3), max_size=10),
       assumptions=st.lists(literals, max_size=2, unique_by=abs), fan_out=st.sampled_from((2, 3, 64)))
def test_the_backbone_is_what_every_model_makes_true(clauses, assumptions, fan_out):
    models = _models(clauses, assumptions)
    if not models:
        return
    expected = set(models[0]).intersection(*models)
    with Solver(name="m22", bootstrap_with=clauses) as solver:
        oracle = _Recording(solver)
        top = [_VARIABLES]

        def fresh() -> int:
            top[0] += 1
            return top[0]

        old, backbone_module.FAN_OUT = backbone_module.FAN_OUT, fan_out
        try:
            found, _ = backbone(oracle, assumptions, models[0], list(models[0]), fresh)  # type: ignore[arg-type]
        finally:
            backbone_module.FAN_OUT = old
    assert found == expected
    assert all(len(clause) <= fan_out + 1 for clause in oracle.added)  # (+1: the switch)
