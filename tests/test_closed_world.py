"""pracmln's closed-world assumption (``cw``, ``cw_preds``): which predicates it closes,
what closing adds, and MAP under it against pracmln's own WCSP with the same settings."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from pracmln_poss.bridge.loader import load_model
from pracmln_poss.cli import main
from pracmln_poss.errors import ArgumentTypeError, ModelError, UnknownNameError
from pracmln_poss.map import open_engine
from pracmln_poss.map.engine import World, world_cost
from pracmln_poss.model.closed_world import close_world, closed_predicates
from pracmln_poss.model.grounding import ground

from .support import PRACMLN_DATA, project_archive

SMOKERS = PRACMLN_DATA / "smokers" / "mlns" / "wts.pybpll.smoking-train-smoking.mln"
DB = "person = {Ann, Bob, Cid}\nSmokes(Ann)\n!Smokes(Cid)\nFriends(Ann,Bob)\nCancer(Cid)\n"

TYPED = """
person = {A, B}
color = {R, G}
s(person)
f(person, person)
col(person, color!)
soft(person, color?)
1 s(x) => f(x, x)
1 col(x, R) => s(x)
1 soft(x, G) => s(x)
"""


@pytest.fixture
def typed(tmp_path):
    path = tmp_path / "typed.mln"
    path.write_text(TYPED)
    return load_model(path).model


def test_which_predicates_are_closed(typed):
    # cw: all but the queries and the functional and soft-functional ones, as pracmln does
    assert closed_predicates(typed, True, (), ["s"]) == ("f",)
    assert closed_predicates(typed, True, (), ["s(A)"]) == ("f",)  # a query formula's predicates count
    assert closed_predicates(typed, True, (), []) == ("f", "s")  # (in the model's order)
    assert closed_predicates(typed, False, ["soft"], []) == ("soft",)  # pracmln closes it (with a warning)
    assert closed_predicates(typed, True, ["soft"], ["s"]) == ("soft", "f")
    assert closed_predicates(typed, False, (), ["s"]) == ()
    with pytest.raises(ModelError, match="inapplicable to the functional predicate 'col'"):
        closed_predicates(typed, False, ["col"], [])
    with pytest.raises(UnknownNameError, match="did you mean s"):
        closed_predicates(typed, False, ["ss"], [])


def test_closing_adds_exactly_the_open_atoms_as_false(typed):
    closed = close_world(typed, ("f",), open_atoms=[("f", ("B", "A"))])
    added = closed.evidence[len(typed.evidence):]
    assert {(e.pred, e.args) for e in added} == {("f", ("A", "A")), ("f", ("A", "B")), ("f", ("B", "B"))}
    assert not any(e.value for e in added)
    assert close_world(typed, ()) is typed


def test_load_model_takes_the_settings_and_checks_them(tmp_path):
    db = tmp_path / "e.db"
    db.write_text(DB)
    open_world = ground(load_model(SMOKERS, db).model)
    closed = ground(load_model(SMOKERS, db, cw_preds=["Smokes"]).model)
    assert len(closed.hard) == len(open_world.hard) + 1  # Smokes(Bob), the one Smokes atom left open
    with pytest.raises(ArgumentTypeError, match="cw_preds takes a list of names"):
        load_model(SMOKERS, db, cw_preds="Smokes")
    with pytest.raises(ArgumentTypeError, match="cw takes True, False or None"):
        load_model(SMOKERS, db, cw=1)


def _project(tmp_path, conf):
    path = tmp_path / "smokers.pracmln"
    path.write_bytes(project_archive({"mlns/smokers.mln": SMOKERS.read_text(), "dbs/e.db": DB,
                                      "query.conf": json.dumps({"mln": "smokers.mln", "db": "e.db", **conf})}))
    return path


def _pracmln_world(pracmln, project, queries, **params):
    """pracmln's WCSP MAP world under its closed-world parameters: the query atoms from
    its results, every other atom from its evidence (closed atoms are 0 there)."""
    from pracmln.mln.inference.wcspinfer import WCSPInference

    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        mln = pracmln.MLN.load(f"{project}:smokers.mln", grammar="StandardGrammar", logic="FirstOrderLogic")
        db = pracmln.Database.load(mln, f"{project}:e.db")[0]
        mrf = mln.ground(db)
        asked = [str(a) for a in mrf.gndatoms if a.predname in queries]
        inference = WCSPInference(mrf, queries=asked, **params)
        results = inference.run().results
    world = {str(a): results[str(a)] >= 0.5 if str(a) in results else mrf.evidence[a.idx] for a in mrf.gndatoms}
    assert None not in world.values()  # every atom not asked about is known (given or closed)
    return world


@pytest.mark.parametrize("conf, pracmln_params", [
    ({"cw": 1, "queries": "Cancer"}, {"cw": True}),
    ({"cw": 0, "cw_preds": "Smokes,Friends", "queries": "Cancer"}, {"cw_preds": ["Smokes", "Friends"]}),
])
def test_map_under_a_project_s_closed_world_costs_what_pracmln_s_wcsp_finds(pracmln, tmp_path, capsys, conf,
                                                                           pracmln_params):
    project = _project(tmp_path, conf)
    assert main(["map", str(project), "--json", "--query-preds", "all"]) == 0
    ours = json.loads(capsys.readouterr().out)["world"]
    theirs = _pracmln_world(pracmln, project, {"Cancer"}, **pracmln_params)
    g = ground(load_model(project, cw=None, cw_preds=None).model)
    price = lambda w: world_cost(g, World((False, *(w[n] for n in g.atoms))))  # noqa: E731
    with open_engine(g) as engine:
        best = engine.optimum([]).cost
    assert price(ours) == price(theirs) == best < float("inf")
    # the closed world matters here: without it the optimum is another
    open_world = ground(load_model(project).model)
    with open_engine(open_world) as engine:
        assert engine.optimum([]).cost < best
    assert not ours["Smokes(Bob)"] and not ours["Friends(Bob,Cid)"]


def test_map_says_where_the_evidence_comes_from_and_the_options_override_the_project(pracmln, tmp_path, capsys):
    project = _project(tmp_path, {"cw": 1, "queries": "Cancer"})
    assert main(["map", str(project)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "evidence: database e.db (4 literals); closed world over Friends, Smokes (9 atoms false)"
    assert main(["map", str(project), "--no-cw", "-e", "Smokes(Bob)"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "evidence: database e.db (4 literals); given Smokes(Bob)"
    # evidence given on the command line stays open
    assert main(["map", str(project), "--cw-preds", "Smokes", "--no-cw", "-e", "Smokes(Bob)", "--json",
                 "--query-preds", "Smokes"]) == 0
    assert json.loads(capsys.readouterr().out)["world"]["Smokes(Bob)"] is True
    assert main(["map", str(project), "--cw-preds", "Smoke"]) == 2
    assert "unknown predicate 'Smoke' in the closed-world settings; did you mean Smokes" in capsys.readouterr().err


def test_a_conversion_says_the_closed_world_does_not_apply(pracmln, tmp_path, capsys):
    project = _project(tmp_path, {"cw": 1, "queries": "Cancer"})
    assert main(["convert", str(project), "-k", "1", "-o", str(tmp_path / "out.theory")]) == 0
    err = capsys.readouterr().err
    assert "closed world (cw, cw_preds) is not applied to a conversion" in err


def test_map_under_a_closed_world_says_a_theory_answers_as_map_no_cw_does(pracmln, tmp_path, capsys):
    """Where the closed world changes the answer, the theory of the project agrees with
    ``map --no-cw``, and ``map`` says so."""
    project = _project(tmp_path, {"cw": 1, "queries": "Cancer"})
    theory = tmp_path / "out.theory"
    assert main(["convert", str(project), "-k", "1", "-o", str(theory), "--query-preds", "all"]) == 0
    assert "(the world left open)" in theory.read_text().splitlines()[1]
    capsys.readouterr()
    answers = {}
    for flags in ([], ["--no-cw"]):
        assert main(["map", str(project), "--json", "--query-preds", "all", *flags]) == 0
        captured = capsys.readouterr()
        answers[bool(flags)] = json.loads(captured.out)["entailed"]
        noted = "a theory from convert leaves the world open and answers as map --no-cw does" in captured.err
        assert noted is not bool(flags)
    assert answers[False] != answers[True]  # (the closed world matters here)
    for atom in answers[True]:
        for value in (True, False):
            assert main(["query", str(theory), "-q", atom if value else f"!{atom}", "--json"]) == 0
            entailed = json.loads(capsys.readouterr().out)["entailed"]
            assert entailed == (answers[True].get(atom) is value), atom


def test_evidence_against_the_database_names_the_database(pracmln, tmp_path, capsys):
    project = _project(tmp_path, {"queries": "Cancer"})
    assert main(["map", str(project), "-e", "!Cancer(Cid)"]) == 2
    assert "evidence !Cancer(Cid) contradicts the database e.db (line 5), which has Cancer(Cid)" in capsys.readouterr().err


def test_map_prints_the_project_s_query_atoms(pracmln, tmp_path, capsys):
    project = _project(tmp_path, {"queries": "Cancer"})
    assert main(["map", str(project)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "atoms of Cancer (3 of 15; --query-preds all for every atom)"
    assert [line.split()[0] for line in lines[4:]] == ["Cancer(Ann)", "Cancer(Bob)", "Cancer(Cid)"]
    assert main(["map", str(project), "--query-preds", "all"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3 + 15
    assert main(["map", str(project), "--query-preds", "Cancr"]) == 2
    assert "no predicate Cancr in the model (did you mean Cancer?)" in capsys.readouterr().err


def test_explain_with_the_mln_shows_a_map_world_under_the_closed_world(pracmln, tmp_path, capsys):
    project = _project(tmp_path, {"queries": "Cancer", "cw_preds": "Friends"})
    theory = tmp_path / "t.theory"
    assert main(["convert", str(project), "-k", "1", "-o", str(theory), "--quiet"]) == 0
    assert main(["explain", str(theory), "-e", "!Cancer(Bob)", "-q", "Cancer(Bob)", "--mln", str(project),
                 "--json"]) == 0
    world = json.loads(capsys.readouterr().out)["countermodel"]
    friends = {atom: value for atom, value in world.items() if atom.startswith("Friends(")}
    assert friends and friends.pop("Friends(Ann,Bob)") and not any(friends.values())  # the database's, else false
