"""The single-flip test (``map/flips.py``): every literal it drops is false in some MAP
world (brute force over all worlds, on small random MLNs with ties, hard formulas and
negative weights), it drops every literal whose flip changes no formula when it runs
whole, and the engine stays exact with it on every question."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pracmln_poss.logic.formula import atoms_of, compile_ground
from pracmln_poss.map import backbone, flips, open_engine
from pracmln_poss.map.flips import SingleFlips
from pracmln_poss.map.world import World
from pracmln_poss.model.ground_mln import GroundMLN
from pracmln_poss.weights import INF

from .reference import MapReference
from .strategies import ground_mlns, literal_sets, mlns_with_groups
from .support import examples

_FIXTURES = [HealthCheck.function_scoped_fixture]


def _flipped(world: World, atom: int) -> tuple[bool, ...]:
    values = list(world.values)
    values[atom] = not values[atom]
    return tuple(values)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=_FIXTURES)
@given(data=st.data())
def test_a_dropped_literal_is_false_in_a_map_world_and_a_kept_one_changes_a_formula(data, monkeypatch):
    monkeypatch.setattr(flips, "SMALL", 0)  # (every question tested, however few its candidates)
    monkeypatch.setattr(flips, "WIDE", data.draw(st.sampled_from((1, 2, 64))))
    mln = data.draw(st.one_of(ground_mlns(max_atoms=6, max_formulas=8), mlns_with_groups()))
    ref = MapReference(mln)
    assume(ref.consistent)
    evidence = data.draw(literal_sets(mln.n_atoms))
    assume(ref.penalty(evidence) != INF)
    world = World(data.draw(st.sampled_from(sorted(ref.map_worlds(evidence)))))
    settled = {abs(u) for u in evidence}
    candidates = {a if world.values[a] else -a for a in range(1, mln.n_atoms + 1) if a not in settled}
    before = set(candidates)
    whole = SingleFlips(mln).drop(world, candidates)
    for lit in before - candidates:  # a world of the same cost, every hard formula true
        assert _flipped(world, abs(lit)) in ref.map_worlds(evidence)
    assert not (before - candidates) & ref.consequences(evidence)
    if whole:  # (a literal kept changes a formula, or is in one of more than WIDE atoms)
        formulas = [wf.formula for wf in mln.soft + mln.hard]
        checks = [compile_ground(f) for f in formulas]
        for lit in candidates:
            flipped = list(_flipped(world, abs(lit)))
            assert any(check(list(world.values)) != check(flipped) for check in checks) or any(
                abs(lit) in atoms_of(f) and len(atoms_of(f)) > flips.WIDE for f in formulas)


def test_literals_flipped_at_no_cost_are_dropped_and_the_backbone_kept(monkeypatch):
    """``a`` weighs alone; ``b v c`` holds with either: only ``a`` is in every MAP world."""
    monkeypatch.setattr(flips, "SMALL", 0)
    mln = GroundMLN.from_pairs([("a", 1), ("b v c", 1)])
    world = World((False, True, True, True))
    candidates = {1, 2, 3}
    assert SingleFlips(mln).drop(world, candidates) is True
    assert candidates == {1}


def test_the_atoms_of_a_wide_formula_are_left_to_the_solver(monkeypatch):
    """Forty ``b v c`` and a disjunction of 70 atoms, every atom true: a flip of any one
    changes nothing, but the test would evaluate the wide formula once per atom of it
    (the square of its size): its atoms are left to the backbone's calls, the others
    dropped."""
    monkeypatch.setattr(flips, "SMALL", 0)
    pairs = [(f"b{i} v c{i}", 1.0) for i in range(40)]
    mln = GroundMLN.from_pairs([*pairs, (" v ".join(f"p{i}" for i in range(70)), 1.0)])
    world = World((False,) + (True,) * 150)
    candidates = set(range(1, 151))
    assert SingleFlips(mln).drop(world, candidates) is True
    assert candidates == {mln.atom(f"p{i}") for i in range(70)}


def test_the_test_stops_where_its_sample_shows_it_does_not_pay():
    """70 atoms each in its own unit formula: no flip is free, and after the sample of
    16 the rest is not tested (nothing dropped, not whole)."""
    mln = GroundMLN.from_pairs([(f"p{i}", 1) for i in range(70)])
    world = World((False,) + (True,) * 70)
    candidates = set(range(1, 71))
    assert SingleFlips(mln).drop(world, candidates) is False
    assert candidates == set(range(1, 71))


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["oll", "toulbar2", "cpsat"])
@settings(max_examples=examples(100), deadline=None, suppress_health_check=_FIXTURES)
@given(data=st.data())
def test_the_engine_is_exact_with_the_test_on_every_question(backend, data, monkeypatch):
    monkeypatch.setattr(flips, "SMALL", 0)
    monkeypatch.setattr(flips, "WIDE", data.draw(st.sampled_from((1, 2, 64))))
    monkeypatch.setattr(backbone, "FAN_OUT", data.draw(st.sampled_from((2, 3, 64))))
    mln = data.draw(st.one_of(ground_mlns(max_atoms=6, max_formulas=8), mlns_with_groups()))
    ref = MapReference(mln)
    assume(ref.consistent)
    with open_engine(mln, backend) as engine:
        for _ in range(3):
            evidence = data.draw(literal_sets(mln.n_atoms))
            if ref.penalty(evidence) != INF:
                assert engine.consequences(evidence) == ref.consequences(evidence)
