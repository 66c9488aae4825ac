"""toulbar2's core and leaves (:mod:`pracmln_poss.map.decomposition`) and its lex-leader
chains over interchangeable constants (:mod:`pracmln_poss.map.interchangeable`), against
brute-force enumeration of all worlds, in every way the backend may answer: the core as
one table or searched, with leaves or without, with chains or without."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pracmln_poss.map import open_engine
from pracmln_poss.map.cost_network import build_network
from pracmln_poss.map.decomposition import decompose
from pracmln_poss.map.interchangeable import Interchangeable
from pracmln_poss.model.first_order import FirstOrderMLN
from pracmln_poss.model.grounding import ground
from pracmln_poss.search.interchangeability import find_symmetry
from pracmln_poss.transformations import transform_mln
from pracmln_poss.weights import INF

from .reference import MapReference, assert_same_cuts
from .strategies import ground_mlns, literal_sets, mlns_with_groups
from .support import WAYS, examples, toulbar2_way


def scene(clusters: int, values: int, colours: int, weights: list[int | None], seed_formulas: list[int]
          ) -> FirstOrderMLN:
    """A small scene as pracmln's object-recognition model has it: per cluster one object
    of ``values`` (functional), colours seen on it, and a scene atom rewarding or
    penalising pairs of objects in distinct clusters; weights from ``weights`` (None:
    hard), ties and negative weights among them."""
    from pracmln_poss.logic.syntax import parse_formula
    from pracmln_poss.model.first_order import FormulaTemplate, Predicate
    from pracmln_poss.weights import Resolution

    resolution = Resolution()
    objects = [f"O{i}" for i in range(values)]
    colour_names = [f"K{i}" for i in range(colours)]
    formulas = []
    w = iter(itertools.cycle(weights))
    for o, k in itertools.product(objects, colour_names):
        formulas.append((f"col(c, {k}) ^ obj(c, {o})", next(w)))
    for i in seed_formulas:
        o1, o2 = objects[i % values], objects[(i // values) % values]
        # (never hard: it is false where c = d)
        formulas.append((f"scn(S) ^ obj(c, {o1}) ^ obj(d, {o2}) ^ c != d", next(w) or 1))
    formulas.append(("scn(S)", next(w)))
    domains = {"cl": [f"C{i}" for i in range(1, clusters + 1)], "ob": objects, "co": colour_names, "sc": ["S"]}
    return FirstOrderMLN(
        predicates=(Predicate("obj", ("cl", "ob"), functional=1), Predicate("col", ("cl", "co")),
                    Predicate("scn", ("sc",))),
        domains=tuple((k, tuple(v)) for k, v in domains.items()),
        formulas=tuple(FormulaTemplate(parse_formula(t), INF if x is None else resolution.to_int(x), t)
                       for t, x in formulas),
        evidence=(), resolution=resolution)


@st.composite
def scenes(draw) -> FirstOrderMLN:
    clusters = draw(st.integers(2, 3))
    values = draw(st.integers(2, 3))
    colours = draw(st.integers(1, 2 if clusters * (values + 2) <= 12 else 1))
    weights = draw(st.lists(st.sampled_from([1, 1, 2, 3, -1, -2, 5, None]), min_size=1, max_size=6))
    assume(any(x is not None for x in weights))
    pairs = draw(st.lists(st.integers(0, values * values - 1), min_size=1, max_size=4))
    return scene(clusters, values, colours, weights, pairs)


@pytest.mark.slow
@pytest.mark.parametrize("way", list(WAYS))
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_toulbar2_answers_as_brute_force_every_way(way, data, monkeypatch):
    """Penalties, MAP worlds and backbones over all atoms or a part of them, one engine
    asked several questions, on random models with and without functional blocks."""
    toulbar2_way(way, monkeypatch)
    mln = data.draw(st.one_of(ground_mlns(max_atoms=6, max_formulas=8), mlns_with_groups()))
    ref = MapReference(mln)
    assume(ref.consistent)
    with open_engine(mln, "toulbar2") as engine:
        for _ in range(3):
            evidence = data.draw(literal_sets(mln.n_atoms, max_size=3))
            assert engine.penalty(evidence) == ref.penalty(evidence)
            if ref.penalty(evidence) == INF:
                continue
            assert engine.map_world(evidence).values in ref.map_worlds(evidence)
            atoms = data.draw(st.none() | st.sets(st.integers(1, mln.n_atoms)))
            expected = ref.consequences(evidence)
            if atoms is not None:
                kept = atoms | {abs(l) for l in evidence} | set(engine.fixed)
                expected = frozenset(l for l in expected if abs(l) in kept)
            assert engine.consequences(evidence, atoms=atoms) == expected


@pytest.mark.slow
@pytest.mark.parametrize("way", [w for w in WAYS if w != "default"])
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(m=scenes(), data=st.data())
def test_lex_leader_chains_keep_every_answer(way, m, data, monkeypatch):
    """With the chains of the scene's interchangeable clusters (their objects ascending
    where no evidence or read atom names them), every penalty, MAP world and backbone
    over any set of atoms is brute force's (the objects are in the core every way but
    the backend's own, which makes a small model one leaf)."""
    toulbar2_way(way, monkeypatch)
    g = ground(m)
    ref = MapReference(g)
    assume(ref.consistent)
    symmetry = find_symmetry(g, m.domain_map, m.named, m.swap_invariant)
    found = Interchangeable.of(g, symmetry.classes)
    assert found.sizes, "the scene's clusters are interchangeable"
    with open_engine(g, "toulbar2") as engine:
        engine.use_interchangeable(lambda: found)
        assert engine.backend._chains is not None and any(engine.backend._chains.variables)
        for _ in range(3):
            evidence = data.draw(literal_sets(g.n_atoms, max_size=2))
            assert engine.penalty(evidence) == ref.penalty(evidence)
            if ref.penalty(evidence) == INF:
                continue
            assert engine.map_world(evidence).values in ref.map_worlds(evidence)
            atoms = data.draw(st.sets(st.integers(1, g.n_atoms), min_size=1))
            kept = atoms | {abs(l) for l in evidence} | set(engine.fixed)
            assert engine.consequences(evidence, atoms=atoms) == frozenset(
                l for l in ref.consequences(evidence) if abs(l) in kept)


@pytest.mark.slow
@pytest.mark.parametrize("way", ["leaves, table", "leaves, search", "leaves, search, touched tables"])
@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(m=scenes(), k=st.integers(1, 2), focused=st.booleans())
def test_lifted_scene_on_toulbar2_is_transformation_3(way, m, k, focused, monkeypatch):
    """The whole lifted search on toulbar2 (chains, frames, backbones read off the core)
    grounds to Transformation 3 computed by brute force."""
    toulbar2_way(way, monkeypatch)
    g = ground(m)
    assume(MapReference(g).consistent)
    focus = {"evidence_preds": ["col", "scn"], "query_preds": ["obj"]} if focused else {}
    lifted = transform_mln(m, "lifted", k=k, long_blocking=True, backend="toulbar2", **focus).ground()
    assert_same_cuts(lifted, transform_mln(g, "defaults", k=k, backend="bruteforce", **focus))


def test_a_scene_has_a_core_of_objects_and_a_leaf_per_cluster():
    """The objects are the hubs (the colours touch one each), so each colour atom is a
    leaf cut off by its cluster's object, and the scene atom one cut off by all objects."""
    g = ground(scene(3, 3, 2, [1, 2, -1], [0, 4]))
    network = build_network(g)
    split = decompose(network, network.total_weight + 1, hub_degree=4)
    names = {v: g.atoms[network.variables[v].atoms[0] - 1] for v in range(len(network.variables))
             if network.variables[v].atoms}
    assert sorted(names[v].split(",")[0] for v in split.core) == [f"obj(C{i}" for i in (1, 2, 3)]
    leaves = {tuple(names[v] for v in leaf.variables): [names[v].split(",")[0] for v in leaf.boundary]
              for leaf in split.leaves}
    assert leaves.pop(("scn(S)",)) == [f"obj(C{i}" for i in (1, 2, 3)]
    assert leaves == {(f"col(C{c},K{k})",): [f"obj(C{c}"] for c in (1, 2, 3) for k in (0, 1)}


def test_keys_are_the_functional_predicate_one_variable_per_cluster():
    from pracmln_poss.map.toulbar2 import Chains

    g = ground(scene(3, 3, 1, [1, 2], [0]))
    found = Interchangeable.of(g, find_symmetry(g, *_symmetry_args(scene(3, 3, 1, [1, 2], [0]))).classes)
    network = build_network(g)
    chains = Chains.of(found, network, {v: v for v in range(len(network.variables))})
    (variables,) = [c for c in chains.variables if c]
    assert [g.atoms[network.variables[v].atoms[0] - 1] for v in variables] == [f"obj(C{i},O0)" for i in (1, 2, 3)]
    # the evidence names C2: the chain links C1 and C3 only
    c2 = g.atom("col(C2,K0)")
    assert [(a, b) for a, b, _ in chains.links([c2])] == [(variables[0], variables[2])]


def _symmetry_args(m):
    return m.domain_map, m.named, m.swap_invariant


def test_a_table_of_the_touched_variables_is_made_once_they_are_asked_about_enough(monkeypatch):
    """Questions naming cluster 1's colours reach its object only: a table of its values
    is made once they have been asked about ``TABLE_AFTER`` times per value (not before),
    and ``TABLE_LEAST`` times at least (a set asked about once never gets one),
    answers as the search did, and is kept; a set of variables with more entries than
    ``MAX_CELLS`` never gets one."""
    from pracmln_poss.map import conditioning
    from pracmln_poss.map.toulbar2 import Toulbar2Backend

    toulbar2_way("leaves, search", monkeypatch)
    monkeypatch.setattr(Toulbar2Backend, "TABLE_AFTER", 1.0)
    monkeypatch.setattr(Toulbar2Backend, "TABLE_LEAST", 2)
    g = ground(scene(3, 3, 2, [1, 2, -1, 3, -2], [0, 4, 5]))
    ref = MapReference(g)
    questions = [[f"col(C1,K{k})"] for k in (0, 1)] + [[f"!col(C1,K{k})"] for k in (0, 1)]
    with open_engine(g, "toulbar2") as engine:
        backend = engine.backend
        made = backend._conditioning._made
        for i, evidence in enumerate(questions[:3]):  # (3 values: the third asking makes it)
            assert engine.penalty(evidence) == ref.penalty(evidence)
            assert len(made) == (1 if i == 2 else 0)
        ((variables, cells),) = made.items()
        assert cells is not None and cells.dense.table.shape == (3,)
        assert [g.atoms[a - 1].split(",")[0] for a in backend._atoms_of(variables)] == ["obj(C1"] * 3
        for evidence in questions:
            assert engine.penalty(evidence) == ref.penalty(evidence)
            assert engine.consequences(evidence) == ref.consequences(evidence)
        assert backend._conditioning._made == {variables: cells}
    monkeypatch.setattr(Toulbar2Backend, "TABLE_AFTER", 0.0)
    with open_engine(g, "toulbar2") as engine:
        assert engine.penalty(["scn(S)"]) == ref.penalty(["scn(S)"])
        assert not engine.backend._conditioning._made  # (asked once)
    monkeypatch.setattr(conditioning, "MAX_CELLS", 2)
    with open_engine(g, "toulbar2") as engine:
        for evidence in questions * 2:
            assert engine.penalty(evidence) == ref.penalty(evidence)
        assert not engine.backend._conditioning._made
