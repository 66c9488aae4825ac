"""Transformations 1-3 against brute-force MAP inference, and the paper's examples."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import ModelError, UnknownNameError
from pracmln_poss.ground_mln import GroundMLN
from pracmln_poss.logic.formula import evaluate
from pracmln_poss.possibilistic.filtering import filter_redundant
from pracmln_poss.transformations import transform
from pracmln_poss.transformations.evidence import literal_sets
from pracmln_poss.weights import INF

from .reference import MapReference
from .strategies import formulas, ground_mlns


def poss_entails(reasoner, evidence, query):
    return reasoner.entails(list(evidence), query)


def clause(lits):
    from pracmln_poss.transformations.common import clause_against

    return clause_against([-l for l in lits])


small_mlns = ground_mlns(max_atoms=4, max_formulas=5)


@settings(max_examples=60)
@given(small_mlns, st.sampled_from(["none", "aggressive", "conservative"]), st.data())
def test_exhaustive_is_exact(mln, filtering, data):
    ref = MapReference(mln)
    assume(ref.consistent)
    theory = filter_redundant(transform(mln, "exhaustive"), filtering).theory
    costs = dict(ref.worlds)
    with theory.reasoner() as r:
        best = ref.optimum_cost()
        for bits in itertools.product((False, True), repeat=mln.n_atoms):
            w = ref_world((False, *bits))
            cost = costs.get(w.values, INF)
            violates_soft = any(not evaluate(wf.formula, w) for wf in mln.soft)
            got = theory.violated_level(w)
            if filtering != "none":
                continue  # filtering keeps the cuts, not the formulas pi is read from
            # pi = 1 - phi: the highest violated level is the world's penalty (level 0 is
            # real: an optimal world violating some soft formula sits at level 0)
            if cost == INF:
                assert got == INF
            elif not violates_soft:
                assert got is None
            else:
                assert got == cost - best
        for evidence in literal_sets(mln.n_atoms, 2):
            query = data.draw(formulas(mln.n_atoms))
            if ref.penalty(list(evidence)) == INF:
                continue
            assert poss_entails(r, evidence, query) == ref.entails(list(evidence), query)


def ref_world(values):
    from pracmln_poss.map.engine import World

    return World(tuple(values))


@settings(max_examples=60)
@given(small_mlns, st.sampled_from(["all", "positive"]), st.integers(0, 2), st.sampled_from(["none", "aggressive"]), st.data())
def test_selective_is_exact_on_its_family(mln, family_kind, k, filtering, data):
    ref = MapReference(mln)
    assume(ref.consistent)
    family = list(literal_sets(mln.n_atoms, k, positive_only=family_kind == "positive"))
    theory = filter_redundant(transform(mln, "selective", family=family), filtering).theory
    with theory.reasoner() as r:
        for evidence in family:
            if ref.penalty(list(evidence)) == INF:
                continue
            for _ in range(3):
                query = data.draw(formulas(mln.n_atoms))
                assert poss_entails(r, evidence, query) == ref.entails(list(evidence), query), (evidence, query)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
@settings(max_examples=40)
@given(mln=small_mlns, filtering=st.sampled_from(["none", "aggressive", "conservative"]))
def test_defaults_satisfies_proposition_2(k, mln, filtering):
    ref = MapReference(mln)
    assume(ref.consistent)
    theory = filter_redundant(transform(mln, "defaults", k=k), filtering).theory
    with theory.reasoner() as r:
        for evidence in literal_sets(mln.n_atoms, k):
            if ref.penalty(list(evidence)) == INF:
                continue
            for conclusion in literal_sets(mln.n_atoms, k + 1 - len(evidence)):
                if not conclusion:
                    continue
                query = clause(conclusion)
                assert poss_entails(r, evidence, query) == ref.entails(list(evidence), query), (
                    evidence, conclusion
                )


def test_unknown_method():
    with pytest.raises(UnknownNameError, match="defaults"):
        transform(GroundMLN.from_pairs([("a", 1)]), "magic")


def test_exhaustive_refuses_large_models_unless_forced():
    mln = GroundMLN.from_pairs([(f"a{i}", 1) for i in range(17)])
    with pytest.raises(ModelError, match="2\\*\\*17"):
        transform(mln, "exhaustive")
    small = GroundMLN.from_pairs([(f"a{i}", 1) for i in range(3)])
    with pytest.raises(ModelError):
        transform(small, "exhaustive", max_formulas=2)
    assert len(transform(small, "exhaustive", max_formulas=2, force=True)) == 7
