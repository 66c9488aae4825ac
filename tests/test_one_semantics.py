"""One semantics from Python and the command line: levels in weight units at the edge,
exact int steps only under names that say so (issue: one semantics)."""

from __future__ import annotations

import pytest

from pracmln_poss import INF, PossibilisticFormula, PossibilisticTheory, Reasoner, possibilistic_inference
from pracmln_poss.errors import ArgumentError, ArgumentTypeError, WeightError
from pracmln_poss.logic.formula import Atom


@pytest.mark.parametrize("resolution", [None, "0.01", "0.05"])
def test_levels_read_and_passed_in_python_are_in_weight_units(resolution):
    theory = PossibilisticTheory.from_pairs([("a", 0.25), ("b", 0.5), ("c", "inf")], resolution)
    assert theory.levels() == (0.25, 0.5, INF)
    assert [pf.level for pf in theory] == [0.25, 0.5, INF]
    assert [theory.format(pf.formula) for pf in theory.cut(0.5)] == ["b", "c"]
    assert [theory.format(pf.formula) for pf in theory.cut("0.26")] == ["b", "c"]  # exact: 0.25 < 0.26
    assert [theory.format(pf.formula) for pf in theory.cut(0.25)] == ["a", "b", "c"]
    assert [theory.format(pf.formula) for pf in theory.cut("inf")] == ["c"]
    assert theory.level_name(0.5) == "lambda_0.5" and theory.level_name(INF) == "certain (inf)"
    assert theory.violated_level((False, False, True, True)) == 0.25  # (world[0] unused: atoms from 1)
    with possibilistic_inference(theory) as ask:
        assert ask.necessity("b") == 0.5 and ask.consistency_level(["!a"]) == 0.5
    # the exact steps, under names that say so
    step = theory.resolution.to_int
    assert theory.level_steps() == (step("0.25"), step("0.5"), INF)
    assert [pf.steps for pf in theory] == [step("0.25"), step("0.5"), INF]
    assert theory.cut_steps(step("0.5")) == theory.cut(0.5)
    with Reasoner(theory) as r:
        assert r.necessity_steps("b") == step("0.5") and r.consistency_steps(["!a"]) == step("0.5")


def test_a_float_where_steps_are_meant_is_an_error_not_another_answer():
    theory = PossibilisticTheory.from_pairs([("a", 0.25), ("b", 0.5)])
    with pytest.raises(ArgumentTypeError, match=r"cut_steps takes an int .* cut\(0.5\)"):
        theory.cut_steps(0.5)
    with pytest.raises(ArgumentError, match="steps are an int"):
        PossibilisticFormula(Atom(1), 0.5)
    with pytest.raises(WeightError, match="negative"):
        theory.cut(-1)
    from pracmln_poss.errors import PossWarning

    with pytest.warns(PossWarning, match=r"cut\(500000\) is above every finite level .* highest is 0.5"):
        assert len(theory.cut(500_000)) == 0  # steps where weight units are meant: said, not silent
    with pytest.raises(WeightError, match="not a number"):
        theory.cut("high")
    at = PossibilisticFormula.at(Atom(1), 0.5)
    assert at.level == 0.5 and at.steps == 500_000


def test_a_formula_counted_in_another_resolution_is_refused_by_the_theory():
    coarse = PossibilisticFormula.at(Atom(1), 0.5, resolution="0.1")
    assert coarse.steps == 5 and coarse.level == 0.5
    with pytest.raises(ArgumentError, match="resolution 0.1, the theory at 0.000001"):
        PossibilisticTheory(("a",), (coarse,))
    assert PossibilisticTheory(("a",), (coarse,), coarse.resolution).levels() == (0.5,)


def test_lifted_theories_take_levels_in_weight_units_too():
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.transformations import transform_mln

    from .support import PAPER

    lifted = transform_mln(load_model(PAPER / "smokers.mln", domains={"person": ["A", "B"]}).model, k=1)
    finite = [level for level in lifted.levels() if level != INF]
    assert finite and all(isinstance(level, float) for level in finite)
    for level in finite:
        cut = lifted.cut(level)
        assert list(cut) == [pf for pf in lifted if pf.level >= level] and cut.types == lifted.types
        assert cut == lifted.cut_steps(lifted.resolution.to_int(level))
    from pracmln_poss.errors import PossWarning

    with pytest.warns(PossWarning, match="above every finite level"):
        assert len(lifted.cut(finite[-1] + 0.001)) < len(lifted)


# -- the closed world and pracmln's objects: Python answers what the command line answers --

def _projects():
    import glob

    from pracmln_poss.compat import import_pracmln

    try:
        examples = import_pracmln().utils.locs.examples
    except Exception:  # (no pracmln: the fixture says why, or fails under CI)
        return []
    return sorted(glob.glob(f"{examples}/*/*.pracmln"))


@pytest.mark.slow
@pytest.mark.parametrize("project", _projects(), ids=lambda p: p.rsplit("/", 1)[-1])
def test_project_map_from_python_and_the_command_line_give_the_same_answer(pracmln, project):
    import json

    from pracmln_poss import map_inference
    from pracmln_poss.errors import PossError

    from .support import run_cli

    code, out, err = run_cli("map", project, "--json", "--query-preds", "all")
    try:
        with map_inference(project) as m:
            answer = m.answer()
    except PossError as exc:  # (a project we cannot read: the same error, said the same way)
        assert code == 2 and str(exc) in err
        return
    assert code == 0, err
    cli = json.loads(out)
    assert cli["world"] == answer.world and cli["entailed"] == answer.entailed
    assert cli["penalty"] == answer.penalty
    assert project.endswith("taxonomies.pracmln") or len(answer.world) > 0


def test_the_project_closed_world_applies_in_python_as_on_the_command_line(pracmln):
    import json

    from pracmln_poss import load_ground, map_inference

    from .support import run_cli

    project = _projects_named("object-recognition")
    # the project's cw: 1 closes every predicate but its query predicate (object)
    ground = load_ground(project)
    with map_inference(project) as m:
        world = m.map_world()
    assert world["shape(o1,box)"] is False  # the database does not say it: closed
    with map_inference(ground) as m:
        assert m.map_world() == world
    with map_inference(project, cw=False) as m:
        assert m.map_world()["shape(o1,box)"] is True  # open: what the model prefers
    # evidence given to a question is left open, as on the command line
    code, out, _ = run_cli("map", project, "--json", "--query-preds", "all", "-e", "shape(o1,box)")
    with map_inference(project) as m:
        answer = m.answer(["shape(o1,box)"])
    assert code == 0 and json.loads(out)["world"] == answer.world and answer.world["shape(o1,box)"]
    # --cw-preds under the project's cw: pracmln's meaning (both close), said in one line
    code, _, err = run_cli("map", project, "--cw-preds", "shape")
    assert code == 0 and "--no-cw closes only those" in err
    with map_inference(project, cw=False, cw_preds=["shape"]) as m:
        closed = m.map_world()
    assert closed["shape(o1,box)"] is False and closed["shape(o1,cylinder)"] is False


def _projects_named(name: str) -> str:
    return next(p for p in _projects() if p.endswith(f"/{name}.pracmln"))


@pytest.fixture
def antarctic(pracmln, tmp_path):
    """The antarctic model and a database holding antarcticBird(Tweety): as file names,
    and as pracmln's MLN and the list Database.load returns."""
    from .support import ROOT

    model = str(ROOT / "examples" / "antarctic" / "antarctic.mln")
    (tmp_path / "ant.db").write_text("antarcticBird(Tweety)\n")
    db = str(tmp_path / "ant.db")
    mln = pracmln.MLN.load(model, grammar="StandardGrammar")
    return model, db, mln, pracmln.Database.load(mln, db)


def test_pracmln_objects_are_taken_wherever_a_model_or_evidence_is(antarctic):
    import json

    from pracmln_poss import load_ground, map_inference

    from .support import run_cli

    model, db, mln, dbs = antarctic
    code, out, _ = run_cli("map", model, "--db", db, "--json")
    cli = json.loads(out)
    code, out, _ = run_cli("map", model, "--db", db, "--json", "--database-penalty")
    counted = json.loads(out)
    for given_model, given_db in ((mln, dbs), (mln, dbs[0]), (model, dbs), (model, db), (mln, db)):
        with map_inference(given_model, given_db) as m:
            answer = m.answer()
            assert m.database_penalty() == counted["penalty"]
        assert (answer.penalty, answer.world) == (cli["penalty"], cli["world"])
    # the database is part of the model, said so; counted, it costs what --evidence costs
    assert cli["penalty"] == 0 and cli["penalty_counts"] == "evidence given the database"
    assert counted["penalty"] == 5 and counted["penalty_counts"] == "database and evidence"
    code, out, _ = run_cli("map", model, "--db", db)
    assert "penalty of the evidence: 0 (given the database; --database-penalty counts it too)" in out
    from_objects, from_file = load_ground(model, dbs), load_ground(model, db)
    assert (from_objects.atoms, from_objects.soft) == (from_file.atoms, from_file.soft)
    assert [wf.formula for wf in from_objects.hard] == [wf.formula for wf in from_file.hard]
    with map_inference(model) as m:  # a Database as the evidence of a question
        assert m.penalty(dbs) == m.penalty(dbs[0]) == m.penalty(["antarcticBird(Tweety)"]) == 5
    with pytest.raises(ArgumentError, match="holds 2 databases"):
        map_inference(mln, dbs * 2)
    code, out, _ = run_cli("map", model, "-e", "antarcticBird(Tweety)", "--json")
    assert json.loads(out)["penalty"] == 5


def test_dash_capital_v_is_the_version():
    from pracmln_poss import __version__

    from .support import run_cli

    code, out, _ = run_cli("-V")
    assert code == 0 and out.strip().endswith(__version__)


def test_a_theory_made_from_pracmln_objects_names_where_each_certain_rule_comes_from(pracmln):
    from pracmln_poss import dumps

    from .support import ROOT

    mln = pracmln.MLN.load(str(ROOT / "examples" / "antarctic" / "antarctic.mln"), grammar="StandardGrammar")
    text = dumps(mln.to_possibilistic(method="defaults", k=1))
    assert "// from: pracmln MLN, formula 1: antarcticBird(x) => bird(x)" in text and "<input>" not in text


def test_a_pracmln_style_variable_in_a_lifted_query_is_told_the_names_to_use():
    from pracmln_poss import load_first_order, transform
    from pracmln_poss.errors import UnknownNameError

    from .support import PAPER

    lifted = transform(load_first_order(PAPER / "smokers.mln"), k=1)
    with possibilistic_inference(lifted) as ask:
        with pytest.raises(UnknownNameError, match=r"'x' .* named after their type: p1, p2, \.\.\. \(person\)"):
            ask.necessity("s(x) => c(x)")
        assert ask.necessity("s(p1) => c(p1)") == 0.0


def test_conversions_take_pracmln_objects_and_file_names_as_convert_does(antarctic):
    from pracmln_poss import convert, dumps, load_first_order, transform

    from .support import run_cli

    model, db, mln, dbs = antarctic
    ours = transform(load_first_order(model, db), "defaults", k=1)
    for given_model, given_db in ((mln, dbs), (mln, dbs[0]), (model, db), (model, dbs)):
        theory = transform(given_model, "defaults", k=1, db=given_db)
        assert [(pf.formula, pf.level) for pf in theory] == [(pf.formula, pf.level) for pf in ours]
    code, out, _ = run_cli("convert", model, "--db", db, "--method", "defaults", "-k", "1", "--quiet")
    from pracmln_poss.formats.sections import made_by_of

    assert made_by_of(out) == f"pracmln-poss convert {model} --db {db} --method defaults -k 1 --filter none (the world left open)"
    assert code == 0 and out == dumps(convert(model, "defaults", db=db, k=1).theory, made_by=made_by_of(out))
    with pytest.raises(ArgumentError, match="GroundMLN has its evidence already"):
        from pracmln_poss import load_ground

        transform(load_ground(model), db=db)


def test_a_theory_header_counts_as_the_command_line_does():
    from pracmln_poss import dumps, loads
    from pracmln_poss.errors import FormulaSyntaxError

    theory = PossibilisticTheory.from_pairs([(f"a{i}", i % 3) for i in range(1200)])
    text = dumps(theory)
    assert "possibilistic theory: 1,200 formulas in 3 levels" in text.splitlines()[0]
    assert dumps(loads(text)) == text
    assert dumps(loads(text.replace("1,200 formulas", "1200 formulas", 1))) == text  # (as files were written before)
    with pytest.raises(FormulaSyntaxError, match="announces 1,201 formulas in 3 levels but the file holds 1,200"):
        loads(text.replace("1,200 formulas", "1,201 formulas", 1))
