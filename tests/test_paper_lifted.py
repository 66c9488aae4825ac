"""Golden tests of Transformation 4 on the paper's Section 5 and appendix models.

The listings are in ``tests/data/paper/*-listing.theory`` and ``cora-table2.theory`` (the models in ``examples/paper``);
``python benchmarks/paper_lifted.py`` prints the same comparisons as a report.
"""

from __future__ import annotations

import pytest

from pracmln_poss.formats import load_theory
from pracmln_poss.formats.lifted_text import read_lifted_text
from pracmln_poss.logic.formula import evaluate
from pracmln_poss.possibilistic.filtering import filter_redundant
from pracmln_poss.possibilistic.inference import possibilistic_inference
from pracmln_poss.possibilistic.lifted_theory import LiftedTheory
from pracmln_poss.transformations import transform_mln
from pracmln_poss.weights import INF

from .reference import assert_same_cuts, assert_same_cuts_sat, models_of
from .support import LISTINGS, PAPER


def lifted_theory(pracmln_module, name: str, k: int) -> LiftedTheory:
    from pracmln_poss.bridge.loader import load_model

    return transform_mln(load_model(PAPER / f"{name}.mln").model, "lifted", k=k)


def test_bird_k3_is_equivalent_to_the_paper_listing(pracmln):
    ours = lifted_theory(pracmln, "birds-jetpack", 3)
    listing = load_theory(LISTINGS / "birds-jetpack-listing.theory")
    assert ours.atoms == listing.atoms
    assert_same_cuts(ours.ground(), listing)


def test_bird_k3_aggressive_filtering_leaves_no_redundant_rule(pracmln):
    """Order of removal: lowest level first, longest first, then theory order.  The full
    output (48 rules) keeps 6 rules, as the paper's 10-rule listing does
    (tests/test_filtering.py); the count depends on the order of removal."""
    ours = lifted_theory(pracmln, "birds-jetpack", 3)
    filtered = filter_redundant(ours, "aggressive").theory
    assert (len(ours), len(filtered)) == (48, 6)
    ground = filtered.ground()
    assert_same_cuts(ground, ours.ground())
    n = ground.n_atoms
    for i, pf in enumerate(ground.formulas):
        others = [g.formula for j, g in enumerate(ground.formulas) if j != i and g.steps >= pf.steps]
        # some model of the others at this level falsifies the rule: it is not entailed
        assert any(not evaluate(pf.formula, w) for w in models_of(others, (), n)), pf


@pytest.mark.slow
def test_smokers_k4_is_equivalent_to_the_paper_listing(pracmln):
    ours = lifted_theory(pracmln, "smokers", 4)
    listing = read_lifted_text((LISTINGS / "smokers-listing.theory").read_text())
    assert ours.types == listing.types
    hard = sorted(ours.format(pf.formula) for pf in ours.formulas if pf.steps == INF)
    assert hard == ["!f(p1,p1)", "!f(p1,p2) v f(p2,p1)"]  # written first-order, as in the paper
    assert_same_cuts_sat(ours.ground(), listing.ground())


@pytest.fixture(scope="module")
def cora(pracmln):
    return filter_redundant(lifted_theory(pracmln, "cora", 2), "conservative").theory


def table2_levels(theory: LiftedTheory) -> dict[str, tuple[int, int | None]]:
    """Rule name -> (the paper's level index, the index of the highest level of ``theory``
    whose cut entails the rule; None if none does)."""
    table = read_lifted_text((LISTINGS / "cora-table2.theory").read_text())
    finite = [level for level in theory.level_steps() if level != INF]
    out = {}
    with possibilistic_inference(theory) as ask:
        for pf in table.formulas:
            level = ask.necessity_steps(pf.formula)
            out[pf.origin] = (pf.steps, None if level is None else finite.index(level))
    return out


@pytest.mark.slow
def test_cora_k2_table2_rules_hold_at_the_paper_level_indices(cora):
    levels = table2_levels(cora)
    assert len(levels) == 14
    assert all(paper == ours for paper, ours in levels.values()), levels


@pytest.mark.slow
def test_cora_k2_differs_from_the_paper_only_where_net_matters(cora):
    """The paper's code ignores the -3 weight of category(a, Net) in penalties (docs/corrections.md
    item 6): there, evidence category(P, Net) costs 0.39 - 0.06 = 0.33, tied with
    Hci, and !category(V, Net) sits at lambda_3 with !category(V, Hci).  Here it costs
    3.33, so every level from 3.33 up comes from evidence with category(., Net), and the
    blocking rule !category(V, Net) sits just below 3.33, at the top of the other levels."""
    step = cora.resolution.to_int
    finite = [level for level in cora.level_steps() if level != INF]
    high = [pf for pf in cora.formulas if pf.steps != INF and pf.steps >= step(3)]
    assert high and all("Net" in pf.origin for pf in high)
    assert min(pf.steps for pf in high) == step("3.33")
    low = [pf for pf in cora.formulas if pf.steps < step(3)]
    assert [pf.origin for pf in low if "Net" in pf.origin] == ["blocking {category(PossPaper,Net)}"]
    with possibilistic_inference(cora) as ask:
        net = ask.necessity_steps("!category(pa1,Net)")
        hci = ask.necessity_steps("!category(pa1,Hci)")
    assert finite.index(hci) == 3 and net == max(l for l in finite if l < step(3))
