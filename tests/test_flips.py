"""The single-flip test (``map/flips.py``): every literal it drops is false in some MAP
world (brute force over all worlds, on small random MLNs with ties, hard formulas and
negative weights), it drops every literal whose flip changes no formula when it runs
whole, and the engine stays exact with it on every question."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pracmln_poss.logic.formula import Atom, Formula, Not, Or, atoms_of, compile_ground
from pracmln_poss.logic.leaves import map_leaves
from pracmln_poss.map import backbone, flips, open_engine
from pracmln_poss.map.choice import CNF_BACKENDS
from pracmln_poss.map.flips import SingleFlips
from pracmln_poss.map.world import World
from pracmln_poss.model.ground_mln import GroundMLN, WeightedFormula
from pracmln_poss.weights import INF

from .reference import MapReference
from .strategies import formulas, ground_mlns, literal_sets, mlns_with_groups
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


def _shifted(offset: int) -> Callable[[Formula], Formula]:
    """A formula's atoms moved up by ``offset`` (a component placed in a larger model)."""
    return lambda f: map_leaves(f, lambda a: Atom(a.index + offset))


@pytest.mark.parametrize("backend", CNF_BACKENDS)
def test_the_worlds_the_flip_test_reads_keep_the_atoms_hard_units_fix(backend, monkeypatch):
    """Atoms a hard unit fixes leave the solver's instance, so a SAT model of the
    optimal worlds says nothing of them: the worlds the flip test reads put them back.
    Here ``held`` holds in every MAP world (``fixed => held`` at weight 2, ``fixed``
    hard); read with ``fixed`` false, as the solver leaves it, a flip of ``held`` would
    look free in the second world the backbone's calls find (``xa``/``xb``: one of two,
    flipped together), and ``held`` would go.  Free atoms make the first test pay, so
    the second one runs."""
    monkeypatch.setattr(flips, "SMALL", 0)
    names = ("fixed", "held", "xa", "xb", "free1", "free2", "free3")
    fixed, held, xa, xb = (Atom(i) for i in range(1, 5))
    mln = GroundMLN.create(names, (
        WeightedFormula(fixed, INF), WeightedFormula(Or((Not(fixed), held)), 2),
        WeightedFormula(Or((xa, xb)), 1), WeightedFormula(Or((Not(xa), Not(xb))), 1)))
    expected = MapReference(mln).consequences([])
    assert expected == {1, 2}
    with open_engine(mln, backend) as engine:
        assert engine.consequences([]) == expected


@st.composite
def _large_questions(draw):
    """A model of 24 to 30 independent components of 4 or 5 atoms (over 64 atoms: the
    flip test runs at its own size, :data:`flips.SMALL`, past the evidence), each a small random MLN with ties,
    hard and negative weights, or a block of ties (``b v c``: many free flips, so that
    the sample's gate lets the whole test run); and evidence of literals and of formulas,
    each inside one component.  The reference answers each component alone by brute force
    (MAP decomposes over independent components): independent of the engine and its
    shortcuts, at a size brute force cannot take whole."""
    components, evidence = [], []
    for _ in range(draw(st.integers(24, 30))):
        component = draw(ground_mlns(min_atoms=4, max_atoms=5, max_formulas=6)) if draw(st.integers(0, 2)) else None
        ref = MapReference(component) if component is not None else None
        if component is None or ref is None or not ref.consistent:  # (free flips: two ties, in no other formula)
            component = GroundMLN.create(tuple(f"p{i}" for i in range(1, 5)), (
                WeightedFormula(Or((Atom(1), Atom(2))), 1), WeightedFormula(Or((Atom(3), Atom(4))), 1)))
            ref = MapReference(component)
        units = draw(literal_sets(component.n_atoms, max_size=1))
        formula = draw(st.one_of(st.none(), formulas(component.n_atoms)))
        if ref.penalty([*units, *([formula] if formula is not None else [])]) == INF:
            units, formula = (), None  # (impossible evidence: none for this component)
        components.append(component)
        evidence += [units, formula]
    return components, evidence


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["oll", "toulbar2", "cpsat"])
@settings(max_examples=examples(30), deadline=None)
@given(question=_large_questions())
def test_large_questions_with_formula_evidence_are_answered_exactly(backend, question):
    """The engine's large-question path (64 candidates and more, the flip test's sampled
    gate, evidence formulas whose atoms no flip may touch) against the reference."""
    components, parts = question
    names, formulas_, evidence, expected = [], [], [], set()
    offset = 0
    for i, component in enumerate(components):
        names += [f"c{i}_{name}" for name in component.atoms]
        shift = _shifted(offset)
        formulas_ += [WeightedFormula(shift(wf.formula), wf.weight) for wf in component.soft + component.hard]
        ref = MapReference(component)
        units, formula = parts[2 * i], parts[2 * i + 1]
        local = [*units, *([formula] if formula is not None else [])]
        expected |= {lit + offset if lit > 0 else lit - offset for lit in ref.consequences(local)}
        evidence += [u + offset if u > 0 else u - offset for u in units]
        evidence += [shift(formula)] if formula is not None else []
        offset += component.n_atoms
    mln = GroundMLN.create(tuple(names), formulas_)
    assert mln.n_atoms >= flips.SMALL
    with open_engine(mln, backend) as engine:
        assert engine.consequences(evidence) == expected
