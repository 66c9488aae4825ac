"""Golden tests: Examples 3, 4 and 5 of the paper, and the regression of docs/corrections.md item 2."""

from __future__ import annotations

import itertools

from pracmln_poss.logic.formula import evaluate
from pracmln_poss.map import open_engine
from pracmln_poss.model.ground_mln import GroundMLN
from pracmln_poss.possibilistic import PossibilisticTheory, Reasoner
from pracmln_poss.transformations import transform_mln


def equivalent(f, g, n):
    return all(
        evaluate(f, (False, *bits)) == evaluate(g, (False, *bits))
        for bits in itertools.product((False, True), repeat=n)
    )


def tautology(f, n):
    return all(evaluate(f, (False, *bits)) for bits in itertools.product((False, True), repeat=n))


def assert_same_theory(ours: PossibilisticTheory, listing: list[tuple[str, object]]):
    """Per level, every formula of each side is equivalent to one of the other side.
    Tautologies carry no information and are ignored on both sides."""
    expected = PossibilisticTheory.from_pairs(listing, atoms=ours.atoms)
    assert expected.atoms == ours.atoms
    n = ours.n_atoms

    def by_level(t):
        out = {}
        for pf in t.formulas:
            if not tautology(pf.formula, n):
                out.setdefault(pf.steps, []).append(pf.formula)
        return out

    a, b = by_level(ours), by_level(expected)
    assert sorted(a) == sorted(b), (sorted(a), sorted(b))
    for level in a:
        for f in a[level]:
            assert any(equivalent(f, g, n) for g in b[level]), (level, ours.format(f))
        for g in b[level]:
            assert any(equivalent(f, g, n) for f in a[level]), (level, expected.format(g))


EXAMPLE3 = [("a => x", 5), ("a => y", 5), ("a ^ b => !y", 10)]


def test_example_3_exhaustive():
    mln = GroundMLN.from_pairs(EXAMPLE3)
    theory = transform_mln(mln, "exhaustive")
    assert_same_theory(theory, [
        ("a => x", 5), ("a => y", 5),
        ("a ^ b => !y", 10), ("a => x v y", 10),
        ("a ^ b => x v !y", 15),
    ])
    with Reasoner(theory) as r:
        assert r.entails(["a"], "x ^ y")
        assert r.entails(["a", "b"], "x ^ !y")


# atoms with an argument: a bare "v" would be pracmln's "or"
EXAMPLE4 = [("u(T)", 3), ("a(T)", 2), ("(a(T) v b(T)) ^ (u(T) v v(T)) => !x(T)", 10), ("b(T)", 2), ("v(T)", 1)]


def test_example_4_selective_with_the_corrected_levels():
    mln = GroundMLN.from_pairs(EXAMPLE4)
    x = mln.atom("x(T)")
    theory = transform_mln(mln, "selective", family=[(x,)])
    assert_same_theory(theory, EXAMPLE4 + [
        ("a(T) v u(T) v !x(T)", 6), ("b(T) v u(T) v !x(T)", 6),
        ("a(T) v v(T) v !x(T)", 5), ("b(T) v v(T) v !x(T)", 5),
        ("!x(T)", 4),
    ])
    with Reasoner(theory) as r, open_engine(mln) as m:
        assert not r.entails(["x(T)"], "u(T)") and not m.entails(["x(T)"], "u(T)")


EXAMPLE5 = [("!a v b", 2), ("a v b", 2), ("a v !b", 1)]
EXAMPLE5_LISTING = [
    ("a ^ b", 0), ("!a => b", 1),  # (T -> a ^ b, l0), (!a -> b, l1); (!b -> T, l2) is a tautology
    ("b", 1), ("a v !b", 0),       # Psi: the blocking rules
]


def test_example_5_defaults_as_listed():
    mln = GroundMLN.from_pairs(EXAMPLE5)
    # the listing keeps (a v !b, l0), which the omission rule drops (the rule for {} entails it)
    theory = transform_mln(mln, "defaults", k=1, omit_redundant_blocking=False)
    assert_same_theory(theory, EXAMPLE5_LISTING)
    with Reasoner(theory) as r:
        assert not r.entails(["!b"], "a")  # Psi blocks what Theta alone would derive


def test_example_5_defaults_with_the_omission_rule_keeps_the_cuts():
    mln = GroundMLN.from_pairs(EXAMPLE5)
    theory = transform_mln(mln, "defaults", k=1)
    assert_same_theory(theory, [("a ^ b", 0), ("!a => b", 1), ("b", 1)])


def test_design_regression_selective_uses_less_or_equal():
    # docs/corrections.md item 2: M = {1: g, 1: !e}, E = {e}: MAP entails g
    mln = GroundMLN.from_pairs([("g", 1), ("!e", 1)])
    e = mln.atom("e")
    theory = transform_mln(mln, "selective", family=[(e,)])
    with open_engine(mln) as m:
        assert m.entails(["e"], "g")
    with Reasoner(theory) as r:
        assert r.entails(["e"], "g")
