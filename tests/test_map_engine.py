"""RC2 MAP inference against brute-force enumeration of all worlds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import InconsistentEvidenceError, InconsistentModelError
from pracmln_poss.ground_mln import GroundMLN
from pracmln_poss.map import open_engine
from pracmln_poss.map.bruteforce import BruteForceEngine
from pracmln_poss.map.engine import Optimum
from pracmln_poss.map.rc2 import RC2Engine
from pracmln_poss.weights import INF

from .strategies import formulas, ground_mlns, literal_sets


def _consistent(mln: GroundMLN) -> bool:
    with BruteForceEngine(mln) as ref:
        return bool(ref._worlds)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_rc2_agrees_with_brute_force(data):
    mln = data.draw(ground_mlns())
    evidence = data.draw(literal_sets(mln.n_atoms))
    query = data.draw(formulas(mln.n_atoms))
    with BruteForceEngine(mln) as ref, RC2Engine(mln) as rc2:
        if not ref._worlds:
            with pytest.raises(InconsistentModelError):
                rc2.penalty(evidence)
            return
        assert rc2.penalty(evidence) == ref.penalty(evidence)
        if ref.penalty(evidence) == INF:
            with pytest.raises(InconsistentEvidenceError):
                rc2.consequences(evidence)
            with pytest.raises(InconsistentEvidenceError):
                rc2.map_world(evidence)
            return
        worlds = ref.map_worlds(evidence)
        assert rc2.map_world(evidence) in worlds
        assert rc2.optimum(evidence).cost == ref.optimum(evidence).cost
        assert rc2.consequences(evidence) == ref.consequences(evidence)
        assert rc2.entails(evidence, query) == ref.entails(evidence, query)
        # with the caller's hints: any MAP world to start from, part of X(E) already known
        known = Optimum(rc2.optimum(evidence).cost, data.draw(st.sampled_from(worlds)))
        entailed = data.draw(st.sets(st.sampled_from(sorted(ref.consequences(evidence) | {0})))) - {0}
        assert rc2.consequences(evidence, known=known, entailed=entailed) == ref.consequences(evidence)


@settings(max_examples=100, deadline=None)
@given(ground_mlns(max_atoms=4))
def test_penalty_of_empty_evidence_is_zero(mln):
    if not _consistent(mln):
        return
    with RC2Engine(mln) as rc2:
        assert rc2.penalty([]) == 0


def test_brute_force_reference_on_hand_checked_example():
    # paper Example 3: a => x (5), a => y (5), a ^ b => !y (10)
    mln = GroundMLN.from_pairs([("a => x", 5), ("a => y", 5), ("a ^ b => !y", 10)])
    with BruteForceEngine(mln) as ref:
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
