"""Brute-force references over all worlds, shared by the tests."""

from __future__ import annotations

import itertools

from pracmln_poss.logic.formula import evaluate
from pracmln_poss.weights import INF


def worlds(n):
    """Every world over atoms 1..n, as a tuple indexed by atom (index 0 unused)."""
    for bits in itertools.product((False, True), repeat=n):
        yield (False, *bits)


def models_of(formulas, evidence, n):
    """The worlds satisfying all ``formulas`` and the evidence literals."""
    return [
        w for w in worlds(n)
        if all(w[abs(l)] == (l > 0) for l in evidence) and all(evaluate(f, w) for f in formulas)
    ]


def cut_models(theory, level, evidence=()):
    """The models of the cut of ``theory`` at ``level`` (plus evidence)."""
    return models_of([pf.formula for pf in theory.formulas if pf.level >= level], evidence, theory.n_atoms)


def assert_same_cuts(a, b):
    """Every cut of ``a`` and ``b`` (at the levels of either, and the certain one) has the same models."""
    for level in sorted({pf.level for pf in a.formulas} | {pf.level for pf in b.formulas} | {INF}):
        assert cut_models(a, level) == cut_models(b, level), level


def assert_same_cuts_sat(a, b, solver="g3"):
    """As :func:`assert_same_cuts` for theories too big to enumerate: at every level, each
    cut entails every formula of the other's cut (one SAT call per formula, PySAT directly)."""
    from pysat.solvers import Solver

    from pracmln_poss.logic.cnf import VarPool, clausify
    from pracmln_poss.logic.formula import negate

    assert a.atoms == b.atoms
    for level in sorted({pf.level for pf in a.formulas} | {pf.level for pf in b.formulas} | {INF}):
        for x, y in ((a, b), (b, a)):
            pool = VarPool(x.n_atoms)
            with Solver(name=solver) as sat:
                for pf in x.formulas:
                    if pf.level >= level:
                        for clause in clausify(pf.formula, pool):
                            sat.add_clause(list(clause))
                for pf in y.formulas:
                    if pf.level >= level:
                        guard = pool.new()
                        for clause in clausify(negate(pf.formula), pool):
                            sat.add_clause([*clause, -guard])
                        assert not sat.solve(assumptions=[guard]), (level, pf)
