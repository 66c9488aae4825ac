"""Our exact MAP through pracmln's own door: ``MLNQuery(..., method=...)`` and its
registry of inference methods, on pracmln's example projects."""

from __future__ import annotations

import glob

import pytest

from pracmln_poss.bridge.pracmln_method import METHOD_NAME
from pracmln_poss.errors import UnsupportedInputError


def _project(pracmln, name: str) -> str:
    return glob.glob(f"{pracmln.utils.locs.examples}/{name}/{name}.pracmln")[0]


def _ours(pracmln, mln, db, **config):
    """``MLNQuery`` with our method: each query atom's value, as pracmln returns them."""
    return pracmln.MLNQuery(mln=mln, db=db, method=METHOD_NAME, **config).run().results


def _map_world(mln, db, cw, queries, entailed=False, cw_preds=None):
    """Our MAP world (``entailed``: and the atoms every MAP world agrees on)."""
    from pracmln_poss import map_inference

    with map_inference(mln, db, cw=cw, queries=queries, cw_preds=cw_preds) as inference:
        answer = inference.answer()
    return (answer.world, answer.entailed) if entailed else answer.world


def test_pracmln_lists_our_method_and_finds_it_by_name_and_id(pracmln):
    from pracmln.mln.methods import InferenceMethods

    assert METHOD_NAME in InferenceMethods.names()
    cls = InferenceMethods.clazz(METHOD_NAME)
    assert InferenceMethods.clazz(cls.__name__) is cls and InferenceMethods.name(cls.__name__) == METHOD_NAME
    assert issubclass(cls, pracmln.mln.inference.infer.Inference)


@pytest.mark.parametrize("db_name, cw, cw_preds", [("smoking-test-smaller.db", False, ""),
                                                   ("smoking-test-smaller.db", True, ""),
                                                   ("smoking-test.db", False, ""), ("smoking-test.db", False, "Friends")])
def test_mlnquery_gives_our_map_world_on_the_smokers_project(pracmln, db_name, cw, cw_preds):
    project = _project(pracmln, "smokers")
    mln = pracmln.MLN.load(f"{project}:wts.pybpll.smoking-train-smoking.mln", grammar="StandardGrammar")
    db = pracmln.Database.load(mln, f"{project}:{db_name}")
    results = _ours(pracmln, mln, db, queries="Smokes,Cancer", cw=cw, cw_preds=cw_preds)
    world, entailed = _map_world(mln, db, cw, ["Smokes", "Cancer"], entailed=True,
                                 cw_preds=[p for p in cw_preds.split(",") if p])
    assert results and set(results.values()) <= {0.0, 1.0}
    assert all(name.startswith(("Smokes(", "Cancer(")) for name in results)
    assert {name: bool(value) for name, value in results.items()} == {name: world[name] for name in results}
    # pracmln's own exact MAP picks a MAP world too: it agrees wherever every MAP world
    # does (smoking-test.db has ties: Lars and Katherine, friends, may both smoke or not)
    wcsp = pracmln.MLNQuery(mln=mln, db=db, method="WCSPInference", queries="Smokes,Cancer", cw=cw,
                            cw_preds=cw_preds).run().results
    assert wcsp.keys() == results.keys()
    agreed = [name for name in results if name in entailed]
    assert agreed and all(bool(wcsp[name]) == entailed[name] for name in agreed)


@pytest.mark.slow
def test_mlnquery_gives_our_map_world_on_the_object_recognition_project(pracmln):
    """The learned model, its test database and the first and last scenes of ``scenes-new.db``
    (whose ``size`` and ``linemod`` the model does not declare: pracmln's
    ``ignore_unknown_preds``), with the project's closed world and query."""
    project = _project(pracmln, "object-recognition")
    mln = pracmln.MLN.load(f"{project}:learnt.cll.scenes-new-object-detection.mln", grammar="PRACGrammar")
    test = pracmln.Database.load(mln, f"{project}:test.db", ignore_unknown_preds=True)
    scenes = pracmln.Database.load(mln, f"{project}:scenes-new.db", ignore_unknown_preds=True)
    assert len(scenes) == 50
    for db in [test[0], scenes[0], scenes[-1]]:
        results = _ours(pracmln, mln, db, queries="object", cw=True)
        world = _map_world(mln, db, True, ["object"])
        assert results and all(name.startswith("object(") for name in results)
        assert {name: bool(value) for name, value in results.items()} == {name: world[name] for name in results}
        # one object per cluster (object's functional argument), as in every MAP world
        clusters = {name.split("(")[1].split(",")[0] for name in results}
        assert sum(results.values()) == len(clusters)


def test_mlnquery_passes_formula_queries_and_the_backend(pracmln):
    project = _project(pracmln, "smokers")
    mln = pracmln.MLN.load(f"{project}:wts.pybpll.smoking-train-smoking.mln", grammar="StandardGrammar")
    db = pracmln.Database.load(mln, f"{project}:smoking-test-smaller.db")
    atoms = _ours(pracmln, mln, db, queries="Smokes,Cancer")
    both = _ours(pracmln, mln, db, queries="Smokes(Ann) ^ Cancer(Ann)", params="backend='bruteforce'")
    assert both == {"Smokes(Ann) ^ Cancer(Ann)": float(atoms["Smokes(Ann)"] and atoms["Cancer(Ann)"])}


def test_soft_evidence_is_refused_in_one_line(pracmln):
    project = _project(pracmln, "smokers")
    mln = pracmln.MLN.load(f"{project}:wts.pybpll.smoking-train-smoking.mln", grammar="StandardGrammar")
    db = pracmln.Database.load(mln, f"{project}:smoking-test-smaller.db")[0]
    db["Smokes(Bob)"] = 0.7
    with pytest.raises(UnsupportedInputError, match=r"soft evidence 0.7 on Smokes\(Bob\)"):
        _ours(pracmln, mln, db, queries="Cancer")


def test_pracmln_log_lines_become_ours_on_the_command_line(pracmln):
    """On the command line, a record pracmln logs is one warning of ours, and one saying
    what our own check says (a domain without constants) is dropped: stderr stays one line
    per problem.  From Python (``python -c``), pracmln logs as it does."""
    from .support import run_python

    code = """if True:
        import sys, warnings
        sys.argv[0] = sys.argv[1]
        from pracmln_poss.compat import import_pracmln
        import_pracmln()
        from dnutils import logs
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            logs.getlogger("pracmln.mln.test").warning("the weight of f1 is odd")
            logs.getlogger("pracmln.mln.test").warning('Template variants cannot be constructed since the domain '
                                                        '"product" is empty.')
        print([(type(w.message).__name__, str(w.message)) for w in caught])
    """
    ours = run_python(code, "pracmln-poss")
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout.strip() == "[('PracmlnWarning', 'pracmln: the weight of f1 is odd')]" and ours.stderr == ""
    theirs = run_python(code, "python")
    assert theirs.stdout.strip() == "[]" and "WARNING" in theirs.stderr and "the weight of f1 is odd" in theirs.stderr


def test_an_empty_domain_is_one_line_of_ours_not_pracmlns_too(pracmln, tmp_path):
    """The object-recognition project's untrained model over its first scene: pracmln's
    reader warns (twice) of templates over the empty domain ``product``; our loader
    refuses the model with file and line: stderr holds that line and the closed world's
    note, nothing of pracmln's."""
    import subprocess
    import sys
    import zipfile

    project = _project(pracmln, "object-recognition")
    with zipfile.ZipFile(project) as archive:
        scenes = archive.read("dbs/scenes-new.db").decode()
    db = tmp_path / "scene.db"
    db.write_text(scenes.split("\n---")[0])
    done = subprocess.run([sys.executable, "-m", "pracmln_poss", "map", f"{project}:object-detection.mln", "--db",
                           str(db)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("pracmln-poss: note: the closed world"), lines
    assert lines[1].startswith("pracmln-poss: error: ") and "domain 'product', which has no constants" in lines[1]
