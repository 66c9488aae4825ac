"""Brute-force references over all worlds, shared by the tests.

They implement the definitions directly and share no code with the MAP engines
(:mod:`pracmln_poss.map`): no cost function, no evidence splitting, no solver.
"""

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
    return models_of([pf.formula for pf in theory.formulas if pf.steps >= level], evidence, theory.n_atoms)


def assert_same_cuts(a, b):
    """Every cut of ``a`` and ``b`` (at the levels of either, and the certain one) has the same models."""
    for level in sorted({pf.steps for pf in a.formulas} | {pf.steps for pf in b.formulas} | {INF}):
        assert cut_models(a, level) == cut_models(b, level), level


def assert_same_cuts_sat(a, b, solver="g3"):
    """As :func:`assert_same_cuts` for theories too big to enumerate: at every level, each
    cut entails every formula of the other's cut (one SAT call per formula, PySAT directly)."""
    from pysat.solvers import Solver

    from pracmln_poss.logic.cnf import VarPool, clausify
    from pracmln_poss.logic.formula import negate

    assert a.atoms == b.atoms
    for level in sorted({pf.steps for pf in a.formulas} | {pf.steps for pf in b.formulas} | {INF}):
        for x, y in ((a, b), (b, a)):
            pool = VarPool(x.n_atoms)
            with Solver(name=solver) as sat:
                for pf in x.formulas:
                    if pf.steps >= level:
                        for clause in clausify(pf.formula, pool):
                            sat.add_clause(list(clause))
                for pf in y.formulas:
                    if pf.steps >= level:
                        guard = pool.new()
                        for clause in clausify(negate(pf.formula), pool):
                            sat.add_clause([*clause, -guard])
                        assert not sat.solve(assumptions=[guard]), (level, pf)


class MapReference:
    """MAP inference by definition: every world, its penalty, the most probable ones.

    Evidence items are DIMACS literals, literal or formula text, or formula trees.
    """

    def __init__(self, mln):
        self.mln = mln
        self.worlds = []  # (world, cost) for every world satisfying the hard formulas
        for w in worlds(mln.n_atoms):
            if all(evaluate(wf.formula, w) for wf in mln.hard):
                self.worlds.append((w, sum(wf.weight for wf in mln.soft if not evaluate(wf.formula, w))))
        self.consistent = bool(self.worlds)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def _holds(self, item, w):
        if isinstance(item, str):
            item = self.mln.formula(item)
        if isinstance(item, int):
            return w[abs(item)] == (item > 0)
        return evaluate(item, w)

    def map_worlds(self, evidence=()):
        """The most probable worlds satisfying the evidence (as value tuples)."""
        matching = [(w, c) for w, c in self.worlds if all(self._holds(e, w) for e in evidence)]
        if not matching:
            return []
        best = min(c for _, c in matching)
        return [w for w, c in matching if c == best]

    def optimum_cost(self, evidence=()):
        costs = [c for w, c in self.worlds if all(self._holds(e, w) for e in evidence)]
        return min(costs) if costs else INF

    def penalty(self, evidence=()):
        assert self.consistent, "penalties need a consistent model"
        best = self.optimum_cost(evidence)
        return INF if best == INF else best - self.optimum_cost()

    def consequences(self, evidence=()):
        """X(E): the literals true in every MAP world of the evidence."""
        found = self.map_worlds(evidence)
        assert found, "the evidence is impossible"
        return frozenset(a if found[0][a] else -a for a in range(1, self.mln.n_atoms + 1)
                         if all(w[a] == found[0][a] for w in found))

    def entails(self, evidence, query):
        q = self.mln.formula(query) if isinstance(query, str) else query
        found = self.map_worlds(evidence)
        assert found, "the evidence is impossible"
        return all(evaluate(q, w) for w in found)


def greedy_keep_flags(n_atoms, levels, lengths, contents, tests, mode, solver="g3"):
    """Redundancy filtering as first written, the reference for the fast one: items tried
    lowest level first, longest first; each against every other item still kept at its
    level or above (in conservative mode, no longer than it), as assumptions."""
    from pracmln_poss.logic.formula import negate
    from pracmln_poss.possibilistic.selectors import SelectorSolver

    kept = [True] * len(contents)
    if mode == "none":
        return kept
    order = sorted(range(len(contents)), key=lambda i: (levels[i], -lengths[i], i))
    with SelectorSolver(n_atoms, list(contents), solver) as sat:
        for i in order:
            support = [sat.selectors[j] for j in range(len(contents))
                       if j != i and kept[j] and levels[j] >= levels[i]
                       and (mode == "aggressive" or lengths[j] <= lengths[i])]
            guard = sat.guard(negate(tests[i]))
            if not sat.satisfiable(support + [guard]):
                kept[i] = False
            sat.retire(guard)
    return kept
