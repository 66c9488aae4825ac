"""Every MAP backend against brute-force enumeration of all worlds (tests/reference.py)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import InconsistentEvidenceError, InconsistentModelError
from pracmln_poss.ground_mln import GroundMLN
from pracmln_poss.map import open_engine
from pracmln_poss.map.engine import Optimum, World
from pracmln_poss.weights import INF

from .reference import MapReference
from .strategies import formulas, ground_mlns, literal_sets


@pytest.mark.parametrize("backend", ["rc2", "cpsat", "bruteforce", "auto"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_backends_agree_with_brute_force(backend, data):
    mln = data.draw(ground_mlns())
    evidence = data.draw(literal_sets(mln.n_atoms))
    query = data.draw(formulas(mln.n_atoms))
    ref = MapReference(mln)
    with open_engine(mln, backend) as engine:
        if not ref.consistent:
            with pytest.raises(InconsistentModelError):
                engine.penalty(evidence)
            return
        assert engine.penalty(evidence) == ref.penalty(evidence)
        if ref.penalty(evidence) == INF:
            with pytest.raises(InconsistentEvidenceError):
                engine.consequences(evidence)
            with pytest.raises(InconsistentEvidenceError):
                engine.map_world(evidence)
            return
        worlds = ref.map_worlds(evidence)
        assert engine.map_world(evidence).values in worlds
        assert engine.optimum(evidence).cost == ref.optimum_cost(evidence)
        assert engine.consequences(evidence) == ref.consequences(evidence)
        assert engine.entails(evidence, query) == ref.entails(evidence, query)
        # with the caller's hints: any MAP world to start from, part of X(E) already known
        known = Optimum(ref.optimum_cost(evidence), World(data.draw(st.sampled_from(worlds))))
        entailed = data.draw(st.sets(st.sampled_from(sorted(ref.consequences(evidence) | {0})))) - {0}
        assert engine.consequences(evidence, known=known, entailed=entailed) == ref.consequences(evidence)


@settings(max_examples=100, deadline=None)
@given(ground_mlns(max_atoms=4))
def test_penalty_of_empty_evidence_is_zero(mln):
    assume(MapReference(mln).consistent)
    with open_engine(mln) as engine:
        assert engine.penalty([]) == 0


@pytest.mark.parametrize("backend", ["rc2", "cpsat"])
def test_many_distinct_weights(backend):
    """Learned models have a distinct weight per formula: CP-SAT's home ground, where
    RC2 stratifies; both exact."""
    pairs = [(f"a{i} => b{(i * 5) % 6}", 1 + i * 37 % 101) for i in range(6)]
    pairs += [(f"b{i}", -(3 + i * 13 % 29)) for i in range(6)] + [(f"a{i} v a{(i + 3) % 6}", 11 + i) for i in range(6)]
    mln = GroundMLN.from_pairs(pairs)
    ref = MapReference(mln)
    with open_engine(mln, backend) as engine:
        assert ref.consistent and len({w for _, w in pairs}) >= 12
        for evidence in ([], ["b1"], ["!a2", "b3"], ["a0", "a5", "!b4"]):
            assert engine.penalty(evidence) == ref.penalty(evidence)
            assert engine.consequences(evidence) == ref.consequences(evidence)


def test_auto_picks_cpsat_for_many_distinct_weights_and_rc2_for_few():
    from pracmln_poss.map import CPSAT_MIN_DISTINCT_WEIGHTS

    few = GroundMLN.from_pairs([("a", 1), ("b", 2), ("a => b", 1)])
    many = GroundMLN.from_pairs([(f"a{i}", i + 1) for i in range(CPSAT_MIN_DISTINCT_WEIGHTS)])
    with open_engine(few) as e1, open_engine(many) as e2:
        assert (e1.name, e2.name) == ("rc2", "cpsat")


def test_brute_force_reference_on_hand_checked_example():
    # paper Example 3: a => x (5), a => y (5), a ^ b => !y (10)
    mln = GroundMLN.from_pairs([("a => x", 5), ("a => y", 5), ("a ^ b => !y", 10)])
    with MapReference(mln) as ref:
        assert ref.penalty(["a"]) == 0
        assert ref.penalty(["a", "b"]) == 5_000_000
        assert ref.penalty(["a", "b", "y"]) == 10_000_000
        assert ref.entails(["a"], "x ^ y")
        assert ref.entails(["a", "b"], "x ^ !y")
        assert not ref.entails([], "x")


def test_ties_are_not_entailed():
    # x and !x cost the same: neither is true in all MAP worlds
    mln = GroundMLN.from_pairs([("x", 2), ("!x", 2), ("y", 1)])
    with open_engine(mln) as eng:
        assert eng.consequences([]) == {mln.literal("y")}
        assert not eng.entails([], "x") and not eng.entails([], "!x")
        assert eng.entails([], "x v !x")


def test_contradicting_evidence_is_an_error_but_infinite_penalty():
    mln = GroundMLN.from_pairs([("a => b", None), ("b", -1)])
    with open_engine(mln) as eng:
        assert eng.penalty(["a", "!b"]) == INF
        with pytest.raises(InconsistentEvidenceError, match=r"\{a, !b\}"):
            eng.map_world(["a", "!b"])


def test_unsatisfiable_hard_part_is_reported():
    mln = GroundMLN.from_pairs([("a", None), ("!a v b", None), ("!b", None)])
    with pytest.raises(InconsistentModelError):
        with open_engine(mln) as eng:
            eng.penalty([])


def test_formula_evidence():
    mln = GroundMLN.from_pairs([("a", 1), ("b", 1), ("c", 3)])
    with open_engine(mln) as eng:
        # evidence "!a v !b" forces giving up a or b: penalty 1, c still true
        assert eng.penalty(["!a v !b"]) == 1_000_000
        assert eng.consequences(["!a v !b"]) == {mln.literal("c")}
