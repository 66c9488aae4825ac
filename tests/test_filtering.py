"""Redundancy filtering keeps every cut equivalent; conservative mode only uses shorter rules."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings

from pracmln_poss.errors import UnknownNameError
from pracmln_poss.logic.formula import evaluate
from pracmln_poss.possibilistic import PossibilisticTheory
from pracmln_poss.possibilistic.filtering import filter_redundant, formula_length

from .reference import assert_same_cuts
from .strategies import theories
from .support import examples


@pytest.mark.slow
@settings(max_examples=examples(150))
@given(theories(max_atoms=4, max_formulas=8))
def test_filtering_keeps_every_cut(theory):
    for mode in ("aggressive", "conservative"):
        result = filter_redundant(theory, mode)
        assert_same_cuts(theory, result.theory)
        assert len(result.theory) + len(result.removed) == len(theory)


@pytest.mark.slow
@settings(max_examples=examples(150))
@given(theories(max_atoms=4, max_formulas=8))
def test_conservative_never_removes_a_rule_by_longer_ones(theory):
    result = filter_redundant(theory, "conservative")
    kept = list(result.theory.formulas)
    # replay: each removed rule follows from the rules still there when it went (the kept
    # ones and those removed after it) at its level or above, and no longer than it
    for index, pf in enumerate(result.removed):
        length = formula_length(pf.formula)
        support = [q for q in kept + list(result.removed[index + 1 :]) if q.steps >= pf.steps]
        shorter = [q.formula for q in support if formula_length(q.formula) <= length]
        for bits in itertools.product((False, True), repeat=theory.n_atoms):
            w = (False, *bits)
            if all(evaluate(f, w) for f in shorter):
                assert evaluate(pf.formula, w)
    # aggressive: no formula left follows from the others left at its level or above
    kept = filter_redundant(theory, "aggressive").theory.formulas
    for i, pf in enumerate(kept):
        others = [q.formula for j, q in enumerate(kept) if j != i and q.steps >= pf.steps]
        models = [(False, *bits) for bits in itertools.product((False, True), repeat=theory.n_atoms)]
        assert any(all(evaluate(f, w) for f in others) and not evaluate(pf.formula, w) for w in models)


def test_unknown_mode():
    with pytest.raises(UnknownNameError, match="aggressive"):
        filter_redundant(PossibilisticTheory.from_pairs([("a", 1)]), "eager")


# The bird listing of the paper's Section 5 (Transformation 4, k = 3), ground over one bird.
BIRD_LISTING = [
    ("!antarctic(T) v !flies(T)", 0),
    ("!bird(T) v flies(T)", 0),
    ("!heavy(T) v !flies(T)", 0),
    ("flies(T) v !hasJetPack(T)", 0),
    ("!bird(T) v flies(T) v hasJetPack(T)", 1),
    ("!heavy(T) v antarctic(T) v !flies(T)", 1),
    ("!bird(T) v !heavy(T)", 1),
    ("!antarctic(T) v !heavy(T) v !flies(T)", 10),
    ("flies(T) v !hasJetPack(T) v bird(T)", 11),
    ("!bird(T) v flies(T) v !hasJetPack(T)", 100),
]


def test_paper_bird_listing_keeps_six_of_ten_rules_under_aggressive_filtering():
    theory = PossibilisticTheory.from_pairs(BIRD_LISTING)
    result = filter_redundant(theory, "aggressive")
    assert len(result.theory) == 6
    assert_same_cuts(theory, result.theory)
    # each removed rule follows from longer rules at a higher level, e.g. !bird v flies (0)
    # from !bird v flies v hasJetPack (1) and !bird v flies v !hasJetPack (100)
    assert [(theory.format(pf.formula), pf.steps) for pf in result.removed] == [
        ("!bird(T) v flies(T)", 0),
        ("!heavy(T) v !flies(T)", 0),
        ("flies(T) v !hasJetPack(T)", 0),
        ("!bird(T) v !heavy(T)", 1_000_000),
    ]
    # conservative filtering may only use rules no longer than the one removed: none here
    assert filter_redundant(theory, "conservative").removed == ()


@settings(max_examples=examples(300), deadline=None)
@given(theories(max_atoms=5, max_formulas=12))
def test_worked_from_the_top_level_down_it_keeps_what_the_first_greedy_pass_kept(theory):
    """The fast filter (levels from the highest down, what it keeps added for good as soon
    as it is decided, the rest of a level switched on by one assumption, a test that a
    switched-on clause subsumes dropped without the solver, a new solver with only what
    is kept every so often) decides every item as the first one did (lowest level first,
    every other item an assumption): the same theory, byte for byte, in both modes, with
    items given as formulas or as their clauses, with a new solver at every level or
    rarely."""
    from pracmln_poss.logic.cnf import VarPool, clausify
    from pracmln_poss.possibilistic import filtering
    from pracmln_poss.possibilistic.filtering import keep_flags

    from .reference import greedy_keep_flags

    formulas = [pf.formula for pf in theory.formulas]
    levels = [pf.steps for pf in theory.formulas]
    lengths = [formula_length(f) for f in formulas]
    n = theory.n_atoms
    # (a formula whose clauses name no variable of their own, as those clauses)
    clauses = [c if all(abs(lit) <= n for clause in c for lit in clause) else f
               for f, c in ((f, [list(cl) for cl in clausify(f, VarPool(n))]) for f in formulas)]
    clauses = [[tuple(cl) for cl in c] if isinstance(c, list) else c for c in clauses]
    fresh = filtering.FRESH
    try:
        for filtering.FRESH in (fresh, 0):
            for mode in ("aggressive", "conservative"):
                args = (n, levels, lengths, formulas, formulas, mode)
                expected = greedy_keep_flags(*args)
                assert keep_flags(*args) == expected, mode
                assert keep_flags(n, levels, lengths, clauses, clauses, mode) == expected, (mode, "clauses")
    finally:
        filtering.FRESH = fresh


@pytest.mark.parametrize("mode", ["aggressive", "conservative"])
@pytest.mark.parametrize("padded", [False, True])
def test_a_rule_one_resolution_step_gives_goes_without_the_solver(monkeypatch, mode, padded):
    """``!a v o1`` and the certain ``!o1 v !o2`` (an "exactly one" rule) give ``!a v !o2``
    by one resolution step: it goes without a solver call, as the reference decides, in
    both modes; in conservative mode only while the rule holding ``!a v o1`` is no longer
    than it (``padded``: that rule also holds a four-literal clause, and ``!a v !o2``
    stays).  The rules are given as their clauses, as a lifted theory's are."""
    from pracmln_poss.logic.cnf import VarPool, clausify
    from pracmln_poss.possibilistic.filtering import keep_flags
    from pracmln_poss.stopping import Guard

    from .reference import greedy_keep_flags

    first = "(!a(T) v o1(T)) ^ (d(T) v e(T) v f(T) v g(T))" if padded else "!a(T) v o1(T)"
    theory = PossibilisticTheory.from_pairs([("!o1(T) v !o2(T)", "inf"), (first, 2), ("!a(T) v !o2(T)", 1)])
    formulas = [pf.formula for pf in theory.formulas]
    levels = [pf.steps for pf in theory.formulas]
    lengths = [formula_length(f) for f in formulas]
    clauses = [clausify(f, VarPool(theory.n_atoms)) for f in formulas]
    calls = []
    sat = Guard.sat
    monkeypatch.setattr(Guard, "sat", lambda guard, oracle, assumed: calls.append(assumed) or sat(guard, oracle, assumed))
    expected = greedy_keep_flags(theory.n_atoms, levels, lengths, formulas, formulas, mode)
    assert expected == [True, True, padded and mode == "conservative"]
    calls.clear()
    assert keep_flags(theory.n_atoms, levels, lengths, clauses, clauses, mode) == expected
    # (the certain rule and the first are asked, the third goes by the step unless padded)
    assert len(calls) == 2 + (padded and mode == "conservative")
