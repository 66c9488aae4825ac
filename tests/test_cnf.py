import itertools

from hypothesis import given

from pracmln_poss.logic.cnf import VarPool, clausify
from pracmln_poss.logic.formula import evaluate

from .strategies import formulas

N = 4


@given(formulas(N))
def test_clauses_are_equisatisfiable_projections(f):
    """Every model of f extends to a model of the clauses, and every model of the clauses satisfies f."""
    pool = VarPool(N)
    clauses = clausify(f, pool)
    aux = range(N + 1, pool.top + 1)
    for bits in itertools.product((False, True), repeat=N):
        base = (False, *bits)
        extended = [
            base + extra for extra in itertools.product((False, True), repeat=len(aux))
        ]
        sat = [w for w in extended if all(any(w[abs(l)] == (l > 0) for l in c) for c in clauses)]
        assert bool(sat) == evaluate(f, base)
