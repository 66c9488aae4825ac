"""A lifted rule's groundings made straight as clauses (``possibilistic.ground_clauses``):
the same models as the conjunction of the groundings made as formulas, and, for a rule
of an evidence class, the first grounding's clauses those of the first grounding made as
a formula.  (A certain rule such as ``f(p1,p2) => f(p2,p1)`` grounds at ``p1 = p2`` to
``!f(A,A) v f(A,A)``, a tautology the formula keeps and the clauses drop; certain rules
are asked with all their groundings, so filtering never asks its first one.)"""

from __future__ import annotations

import random

import pytest

from pracmln_poss.formats import load_theory
from pracmln_poss.logic.formula import conjunction, evaluate
from pracmln_poss.possibilistic.ground_clauses import ClauseGrounder, _cnf
from pracmln_poss.weights import INF

from .support import PAPER, ROOT, run_cli


def _holds(clauses, world) -> bool:
    return all(any(world[abs(lit)] == (lit > 0) for lit in clause) for clause in clauses)


@pytest.fixture(scope="module")
def theories(tmp_path_factory):
    made = [load_theory(ROOT / "tests" / "golden" / "cora-k2-conservative.theory", ground=False)]
    path = tmp_path_factory.mktemp("ground") / "smokers.theory"
    assert run_cli("convert", PAPER / "smokers.mln", "--domain", "person=Ann,Bob,Cy", "-k", "2", "-o", path)[0] == 0
    made.append(load_theory(path, ground=False))
    return made


def test_the_clauses_have_the_models_of_the_groundings(theories):
    rng = random.Random(0)
    checked = 0
    for theory in theories:
        grounder = ClauseGrounder(dict(theory.types), theory.atom_numbers)
        worlds = [[False] + [rng.random() < 0.5 for _ in theory.atoms] for _ in range(60)]
        for pf, variables in zip(theory.formulas, theory.rule_variables):
            made = grounder.clauses(pf.formula, variables)
            assert made is not None or pf.steps == INF or _cnf(pf.formula, True) is None
            if made is None:
                continue
            clauses, first = made
            groundings = theory.groundings(pf)
            whole = conjunction(groundings)
            for world in worlds:
                assert _holds(clauses, world) == evaluate(whole, world), pf.formula
                # (a rule of an evidence class: its variables pairwise distinct, so that the
                # first grounding is no tautology the formula's simplification leaves)
                if groundings and pf.steps != INF:
                    assert _holds(first, world) == evaluate(groundings[0], world), pf.formula
            assert pf.steps == INF or bool(first) == bool(groundings)
            checked += 1
    assert checked > 200


def test_a_rule_outside_the_cnf_shape_is_left_to_the_formulas():
    from pracmln_poss.logic.formula import Atom, Iff

    assert _cnf(Iff(Atom(1), Atom(2)), True) is None


def test_a_test_s_clauses_are_negated_exactly():
    """The negation of a test given as clauses (``filtering._negated``) holds in a world,
    for some values of its new variables, exactly when the clauses do not all hold."""
    import itertools

    from pysat.solvers import Solver

    from pracmln_poss.logic.cnf import VarPool
    from pracmln_poss.possibilistic.filtering import _negated

    rng = random.Random(1)
    for _ in range(300):
        test = [tuple(rng.choice((1, -1)) * a for a in rng.sample(range(1, 5), rng.randint(0, 3)))
                for _ in range(rng.randint(0, 3))]
        negation = _negated(test, VarPool(4))
        for bits in itertools.product((False, True), repeat=4):
            world = [False, *bits]
            with Solver(name="m22", bootstrap_with=negation) as sat:
                found = sat.solve(assumptions=[a if world[a] else -a for a in range(1, 5)])
            assert found == (not _holds(test, world)), (test, bits)


def test_a_premise_and_its_conclusion_ground_as_the_general_way_grounds_them():
    """The ``premise => conclusion`` way (``ClauseGrounder._implication``) on the
    corners of that shape: a conclusion repeating or contradicting a premise literal, a
    conjunction concluded, equalities either way, named constants, a premise shared by
    rules over other variables; the same clauses in the same order and the same first
    grounding as the general way."""
    from pracmln_poss.formats import loads

    text = "\n".join([
        "#atoms s(A) s(B) s(C) f(A,A) f(A,B) f(A,C) f(B,A) f(B,B) f(B,C) f(C,A) f(C,B) f(C,C)",
        "#type p p = A, B, C",
        "1  s(p1) => s(p1)",
        "1  s(p1) => !s(p1)",
        "1  (s(p1) ^ f(p1,p2)) => (s(p2) ^ f(p2,p1) ^ s(p1))",
        "1  (s(p1) ^ p1 != p2) => f(p1,p2)",
        "1  (s(p1) ^ p1 != p2) => f(p2,p3)",
        "1  (s(p1) ^ p1 = p2) => f(p1,p2)",
        "1  (s(p1) ^ !s(p2)) => f(p1,p2)",
        "1  s(p1) => p1 = p2",
        "1  s(p1) => p1 != A",
        "1  (f(p1,A) ^ !s(B)) => (!f(A,p1) ^ s(p1))",
        "inf  !(s(A) ^ s(B))",
    ])
    theory = loads(text, ground=False)
    fast, general = (ClauseGrounder(dict(theory.types), theory.atom_numbers) for _ in range(2))
    general._implication = lambda f, variables: None
    for pf, variables in zip(theory.formulas, theory.rule_variables):
        assert fast._implication(pf.formula, variables) is not None or "!(" in theory.format(pf.formula)
        assert fast.clauses(pf.formula, variables) == general.clauses(pf.formula, variables), pf.formula
