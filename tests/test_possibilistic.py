"""Possibilistic inference against brute force over all worlds, and the paper's examples."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import InconsistentEvidenceError, UnknownNameError
from pracmln_poss.logic.formula import evaluate
from pracmln_poss.possibilistic import PossibilisticTheory, Reasoner, possibilistic_inference
from pracmln_poss.weights import INF

from .reference import cut_models as models
from .reference import worlds
from .strategies import formulas, literal_sets, theories
from .support import examples


def reference_con(theory, evidence):
    for level in sorted({pf.steps for pf in theory.formulas} | {INF}):
        if models(theory, level, evidence):
            return level
    return None  # evidence contradicts the certain part


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(st.data())
def test_con_entails_drowned_agree_with_brute_force(data):
    theory = data.draw(theories())
    evidence = data.draw(literal_sets(theory.n_atoms))
    query = data.draw(formulas(theory.n_atoms))
    expected = reference_con(theory, evidence)
    with Reasoner(theory) as r:
        if expected is None:
            with pytest.raises(InconsistentEvidenceError):
                r.consistency_steps(evidence)
            return
        result = r.query(evidence, query)
        assert result.consistency_steps == expected
        assert result.entailed == all(evaluate(query, w) for w in models(theory, expected, evidence))
        assert result.drowned == tuple(pf for pf in theory.formulas if pf.steps < expected)
        assert r.entails(evidence, query) == result.entailed


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(st.data())
def test_cut_necessity_possibility_agree_with_brute_force(data):
    theory = data.draw(theories())
    query = data.draw(formulas(theory.n_atoms))
    level = data.draw(st.sampled_from(theory.level_steps() or (0,)))
    cut = theory.cut_steps(level)
    assert all(pf.steps >= level for pf in cut) and len([pf for pf in theory if pf.steps >= level]) == len(cut)
    assert theory.cut(theory.in_units(level)) == cut  # the same cut in weight units
    # N(q) = the lowest violated level over the countermodels of q (least specific model)
    counter = [theory.violated_steps(w) for w in worlds(theory.n_atoms) if not evaluate(query, w)]
    if not counter:
        expected = INF
    elif None in counter:
        expected = None
    else:
        expected = min(counter)
    with Reasoner(theory) as r:
        assert r.necessity_steps(query) == expected
    for w in worlds(theory.n_atoms):
        v = theory.violated_level(w)
        assert theory.possibility(w) == (1 if v is None else 1 - theory.degree(v))
        assert v == theory.in_units(theory.violated_steps(w))


def test_display_degrees_are_in_the_open_unit_interval():
    t = PossibilisticTheory.from_pairs([("a", 0), ("b", 2), ("c", INF)])
    assert 0 < t.degree(0) < t.degree(2) < 1 == t.degree(INF)


PENGUIN = [
    ("penguin(Tweety) => bird(Tweety)", INF),
    ("penguin(Tweety) => !flies(Tweety)", INF),
    ("bird(Tweety) => flies(Tweety)", 0.5),
]


def test_penguin_example_of_the_paper():
    theory = PossibilisticTheory.from_pairs(PENGUIN)
    with Reasoner(theory) as r:
        assert r.entails(["bird(Tweety)"], "flies(Tweety)")
        assert r.entails(["bird(Tweety)", "penguin(Tweety)"], "!flies(Tweety)")
        assert not r.entails(["bird(Tweety)", "penguin(Tweety)"], "flies(Tweety)")
        assert r.consistency_steps(["bird(Tweety)", "penguin(Tweety)"]) == INF
        assert r.consistency_steps(["bird(Tweety)"]) == 500_000


def test_drowning_effect():
    # "birds fly" conflicts with penguin evidence; the unrelated "birds have wings" at the
    # same level drowns with it, although nothing contradicts it
    theory = PossibilisticTheory.from_pairs(PENGUIN + [("bird(Tweety) => wings(Tweety)", 0.5)])
    with Reasoner(theory) as r:
        assert r.entails(["bird(Tweety)"], "wings(Tweety)")
        result = r.query(["penguin(Tweety)"], "wings(Tweety)")
        assert not result.entailed
        assert {theory.format(pf.formula) for pf in result.drowned} == {
            "bird(Tweety) => flies(Tweety)",
            "bird(Tweety) => wings(Tweety)",
        }


def test_evidence_contradicting_the_certain_part_is_an_error():
    theory = PossibilisticTheory.from_pairs(PENGUIN)
    with Reasoner(theory) as r:
        with pytest.raises(InconsistentEvidenceError, match="certain part"):
            r.entails(["penguin(Tweety)", "!bird(Tweety)"], "flies(Tweety)")


def test_formula_evidence_and_queries():
    theory = PossibilisticTheory.from_pairs([("a", 1), ("b", 2), ("a => c", 3)])
    with Reasoner(theory) as r:
        assert r.entails(["!a v !b"], "b ^ !a")  # a (level 1) drowns
        assert r.entails([], "(a ^ b) ^ c")
        assert r.necessity_steps("b v c") == 2_000_000  # b alone: level 2 (c needs a, level 1)
        assert r.necessity_steps("a => c") == 3_000_000
        assert r.necessity_steps("c v !c") == INF
        assert r.necessity_steps("c") == 1_000_000
        assert r.necessity_steps("!c") is None
        with pytest.raises(UnknownNameError):
            r.entails([], "d")


@pytest.mark.parametrize("n_levels", [1, 2, 7, 50])
@pytest.mark.parametrize("start", ["bottom", "middle", "top"])
def test_solver_calls_per_query_are_logarithmic(n_levels, start):
    """The chain a_s => ... => a_n against !a_n drops level s, so con is just above it:
    wherever s is, a binary search asks about log2(#levels) cuts, a scan up to s levels."""
    pairs = [(f"a{i} => a{i + 1}", i) for i in range(n_levels)]  # levels 0 .. n-1
    theory = PossibilisticTheory.from_pairs(pairs)
    s = {"bottom": 0, "middle": n_levels // 2, "top": n_levels - 1}[start]
    with Reasoner(theory) as r:
        before = r.calls
        found = r.query([f"a{s}", f"!a{n_levels}"], f"a{n_levels // 2}")
        assert found.consistency_steps == (theory.level_steps() + (INF,))[s + 1]
        assert r.calls - before <= math.ceil(math.log2(len(theory.levels()))) + 2


def test_inference_owns_one_solver_and_closes_it(monkeypatch):
    """Questions to a theory go through one reasoner: every question on one solver, made
    once, closed on leaving the ``with`` block (a theory holds none: it is data)."""
    from pracmln_poss.possibilistic import selectors

    opened, closed = [], []
    real = selectors.SelectorSolver

    class Counted(real):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            opened.append(self)

        def close(self):
            closed.append(self)
            super().close()

    monkeypatch.setattr("pracmln_poss.possibilistic.reasoner.SelectorSolver", Counted)
    theory = PossibilisticTheory.from_pairs(PENGUIN)
    with possibilistic_inference(theory) as ask:
        assert ask.entails(["bird(Tweety)"], "flies(Tweety)")
        assert ask.consistency_level(["penguin(Tweety)"]) == INF
        assert len(ask.drowned(["penguin(Tweety)"])) == 1
        assert ask.necessity("penguin(Tweety) => !flies(Tweety)") == INF
        assert len(opened) == 1 and not closed
    assert closed == opened and opened[0].sat is None
    assert not any(callable(getattr(theory, name, None)) for name in ("entails", "query", "necessity", "reasoner"))


def test_levels_cross_the_api_in_weight_units_and_ints_stay_inside():
    """Inference at the edge answers in the model's units (lambda_0.74 is 0.74), exact
    int steps only under names that say so; the reasoner keeps the exact int steps."""
    theory = PossibilisticTheory.from_pairs([("a => b", 0.74), ("a => c", 2), ("a", "inf")])
    with possibilistic_inference(theory) as ask:
        assert ask.necessity("b") == 0.74 and ask.necessity_steps("b") == 740_000
        assert ask.necessity("a") == INF and ask.necessity("!b") is None
        assert ask.consistency_level(["!b"]) == 2  # the lowest level whose cut stays consistent
        result = ask.query(["!b"], "c")
        assert result.entailed and result.consistency_level == 2
        assert [str(r) for r in result.drowned] == ["lambda_0.74: a => b"]  # text and weight units, no steps
        assert ask.query(["a", "!b", "!c"], None).consistency_level == INF
    with Reasoner(theory) as r:
        assert r.consistency_steps(["!b"]) == 2_000_000 and r.necessity_steps("c") == 2_000_000
    precise = PossibilisticTheory.from_pairs([("a => b", 1126.532064), ("a", "inf")])
    with possibilistic_inference(precise) as ask:
        assert [str(r) for r in ask.query(["!b"], None).drowned] == ["lambda_1126.532064: a => b"]


def test_lifted_theories_answer_queries_like_ground_ones():
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.transformations import transform_mln

    from .support import PAPER

    lifted = transform_mln(load_model(PAPER / "smokers.mln", domains={"person": ["A", "B"]}).model, k=1)
    ground = lifted.ground()
    with possibilistic_inference(lifted) as first_order, possibilistic_inference(ground) as grounded:
        for evidence, query in ((["s(A)"], "c(A)"), (["s(A)", "f(A,B)"], "s(B)"), ([], "!c(B)")):
            assert first_order.query(evidence, query) == grounded.query(evidence, query)
        # a rule over typed variables stands for all its groundings
        both = "(s(A) => c(A)) ^ (s(B) => c(B))"
        assert first_order.necessity_steps("s(p1) => c(p1)") == grounded.necessity_steps(both) is not None
        assert first_order.necessity("s(p1) => c(p1)") == ground.in_units(grounded.necessity_steps(both))


def test_a_world_or_a_flag_of_the_wrong_kind_is_refused():
    """A string is not a world (``"TTTT"`` was read as four true values), a world of
    another length is refused before any formula is read (``[True]`` raised IndexError),
    and ``force="no"`` is not taken for True."""
    from pracmln_poss.errors import ArgumentError, ArgumentTypeError
    from pracmln_poss.formats import loads

    theory = PossibilisticTheory.from_pairs([("p(A) v p(B)", 1.0), ("!p(A)", 2.0)])
    assert theory.possibility((False, False, True)) == 1
    for world in ("TTT", b"TTT", 7):
        with pytest.raises(ArgumentError, match="a world is a sequence of truth values"):
            theory.possibility(world)
    with pytest.raises(ArgumentError, match="has 3 truth values"):
        theory.possibility([True])
    lifted = loads("#atoms p(A) p(B)\n#type person p = A, B\n\n1  p(p1)\n", ground=False)
    with pytest.raises(ArgumentTypeError, match="force takes True or False"):
        lifted.ground(force="no")
    assert lifted.ground(force=False).n_atoms == 2
