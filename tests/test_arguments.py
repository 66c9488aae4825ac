"""What a hostile or mistaken caller passes to the Python front doors, and inputs that
are accepted but must not cost what they used to: one TypeError or ValueError naming
the parameter (never a traceback from deep inside), and work bounded by what matters."""

from __future__ import annotations

import warnings

import pytest

from pracmln_poss import load_ground
from pracmln_poss.bridge.loader import load_model
from pracmln_poss.errors import ArgumentError, ArgumentTypeError, PossError, ResolutionWarning, UnknownNameError
from pracmln_poss.formats import dumps
from pracmln_poss.formats.family import read_family
from pracmln_poss.transformations import convert_mln, transform_mln

from .support import PAPER, run_cli

SMOKERS = PAPER / "smokers.mln"


def smokers():
    return load_model(SMOKERS, domains={"person": ["A", "B"]}).model


@pytest.mark.parametrize("options, error, words", [
    ({"k": "2"}, ArgumentTypeError, "k takes an int, not str '2'"),
    ({"k": None}, ArgumentTypeError, "k takes an int"),
    ({"k": 2.0}, ArgumentTypeError, "k takes an int, not float 2.0"),
    ({"k": True}, ArgumentTypeError, "k takes an int, not bool"),
    ({"k": -1}, ArgumentError, "k must be at least 0"),
    ({"jobs": "2"}, ArgumentTypeError, "jobs takes an int, not str '2'"),
    ({"jobs": 2.0}, ArgumentTypeError, "jobs takes an int"),
    ({"checkpoint": 5}, ArgumentTypeError, "checkpoint takes a file name"),
    ({"evidence_preds": "sf"}, ArgumentTypeError, "evidence_preds takes a list of names or None, not str 'sf'; "
                                                  "write ['sf']"),
    ({"query_preds": [1]}, ArgumentTypeError, "query_preds takes names (strings), not int 1"),
    ({"backend": "magic"}, UnknownNameError, "unknown MAP backend 'magic'"),
    ({"long_blocking": "yes"}, ArgumentTypeError, "long_blocking takes True or False"),
    ({"executor": 3}, ArgumentTypeError, "executor takes a concurrent.futures.Executor"),
    ({"progress": 3}, ArgumentTypeError, "progress takes a function or None"),
    ({"grounded": "x"}, ArgumentTypeError, "grounded takes the model's GroundMLN"),
], ids=lambda v: str(v)[:40])
def test_transform_checks_its_arguments_at_the_door(options, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
                       .replace("]", r"\]")):
        transform_mln(smokers(), **{"k": 1, **options})


def test_a_backend_name_is_checked_in_one_place_with_the_same_words_at_every_door():
    """The options, the engine and MAP inference share one check: one error, one message,
    a close spelling suggested."""
    from pracmln_poss import map_inference, open_engine

    said = set()
    for call in (lambda: transform_mln(smokers(), k=1, backend="OLL"), lambda: open_engine(smokers(), "OLL"),
                 lambda: map_inference(smokers(), backend="OLL")):
        with pytest.raises(UnknownNameError, match="unknown MAP backend 'OLL' for backend; did you mean oll") as e:
            call()
        said.add(str(e.value))
    assert len(said) == 1


def test_errors_are_the_builtins_they_mean():
    with pytest.raises(TypeError):
        transform_mln(smokers(), k="2")
    with pytest.raises(ValueError):
        transform_mln(smokers(), k=-1)
    with pytest.raises(PossError):
        transform_mln(smokers(), k="2")


def test_a_file_name_where_a_model_is_expected_says_how_to_load_it():
    with pytest.raises(ArgumentTypeError, match=r"mln takes a FirstOrderMLN or a GroundMLN, not str \(load a file "
                                                r"with pracmln_poss.load_first_order\(path\)\)"):
        transform_mln(str(SMOKERS), k=1)
    with pytest.raises(ArgumentTypeError, match="mln takes a FirstOrderMLN or a GroundMLN, not int"):
        convert_mln(3, k=1)


@pytest.mark.parametrize("options, error, words", [
    ({"domains": {"person": "Alice"}}, ArgumentTypeError, r"domains\['person'\] takes a list of names or None, not str"),
    ({"domains": ["person"]}, ArgumentTypeError, "domains takes a mapping"),
    ({"domain_sizes": {"person": "3"}}, ArgumentTypeError, r"domain_sizes\['person'\] takes an int, not str '3'"),
    ({"domain_sizes": {"person": 0}}, ArgumentError, r"domain_sizes\['person'\] must be at least 1"),
    ({"resolution": "-1"}, PossError, "must be a positive finite number"),
    ({"resolution": [1]}, ArgumentTypeError, "resolution takes a number"),
], ids=lambda v: str(v)[:40])
def test_loading_checks_its_arguments_at_the_door(options, error, words):
    with pytest.raises(error, match=words):
        load_model(SMOKERS, **options)


def test_a_resolution_given_as_a_float_is_read_as_its_shortest_decimal():
    assert load_model(SMOKERS, resolution=1e-6).model == load_model(SMOKERS, resolution="1e-6").model
    assert load_ground(str(SMOKERS), resolution=0.5).resolution.step == load_ground(str(SMOKERS)).resolution.step * 500000


def test_to_possibilistic_takes_a_database_a_list_of_one_or_a_path(pracmln, tmp_path):
    from pracmln_poss.compat import import_pracmln

    pracmln = import_pracmln()
    mln = pracmln.MLN.load(str(SMOKERS), grammar="StandardGrammar", logic="FirstOrderLogic")
    db_file = tmp_path / "e.db"
    db_file.write_text("s(Alice)\n")
    dbs = pracmln.Database.load(mln, str(db_file))
    by_list = dumps(mln.to_possibilistic(dbs, k=1))
    assert dumps(mln.to_possibilistic(dbs[0], k=1)) == by_list == dumps(mln.to_possibilistic(str(db_file), k=1))
    assert dumps(mln.to_possibilistic(k=1, domain_sizes={"person": 2})) == dumps(
        mln.to_possibilistic(k=1, domains={"person": ["Person1", "Person2"]}))
    with pytest.raises(ArgumentError, match="db takes one database; the list given holds 2"):
        mln.to_possibilistic(dbs * 2, k=1)
    with pytest.raises(ArgumentTypeError, match=r"k takes an int, not str '2'"):
        mln.to_possibilistic(k="2")


def test_rounding_that_merges_distinct_weights_is_said_in_one_line(capsys, tmp_path):
    model = tmp_path / "r.mln"
    model.write_text("o = {T}\na(o)\nb(o)\n2.4 a(o)\n2 b(o)\n2.000001 !a(o)\n")
    code, out, err = run_cli("map", model, "--resolution", "1")
    assert code == 0 and err.strip().splitlines() == [
        f"pracmln-poss: warning: {model}: at resolution 1, 2 distinct weight(s) become equal to others "
        "(e.g. 2.4 and 2.0); MAP answers may differ from the model's: use a finer resolution"]
    with pytest.warns(ResolutionWarning, match="2 distinct weight"):
        load_model(model, resolution="1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_model(model)  # (no warning at the default resolution)


def test_latex_escapes_every_special_character_of_a_constant():
    from pracmln_poss.formats.latex import _escape

    assert _escape("A\\input/etc/hostname~x$y_z^w&%#{}") == (
        r"A\textbackslash{}input/etc/hostname\textasciitilde{}x\$y\_z\textasciicircum{}w\&\%\#\{\}")


def test_repeated_lines_of_a_database_or_family_are_read_once(tmp_path):
    model = tmp_path / "m.mln"
    model.write_text("o = {T, U}\na(o)\n1 a(o)\n")
    db = tmp_path / "e.db"
    db.write_text("a(T)\n" * 20000 + "!a(U)\n" + "a(T)\n" * 20000)
    assert len(load_model(model, db).model.evidence) == 2
    family = tmp_path / "f.txt"
    family.write_text("a(T)\n" * 5000 + "{}\n" + "!a(U), a(T)\n" + "a(T), !a(U)\n" * 3)
    g = load_ground(str(model))
    assert read_family(family, g) == [(g.literal("a(T)"),), (), tuple(sorted([g.literal("a(T)"), g.literal("!a(U)")],
                                                                            key=abs))]


def test_many_workers_asked_for_are_capped_at_the_cores(capsys, tmp_path):
    code, out, err = run_cli("convert", PAPER / "example5-defaults.mln", "-k", "1", "-j", str(10**23))
    assert code == 0 and "worker processes (one per core)" in err


def test_verify_with_a_k_beyond_the_atoms_counts_no_more_than_there_are(capsys, tmp_path):
    theory = tmp_path / "t.theory"
    assert run_cli("convert", PAPER / "example5-defaults.mln", "-k", "1", "-o", theory)[0] == 0
    code, out, err = run_cli("verify", theory, "--mln", PAPER / "example5-defaults.mln", "-k", "1000")
    # (its two atoms make 16 pairs whatever k says; the k = 1 theory answers them all as MAP does)
    assert code == 0 and "verified" in out and "for all 16 pairs" in out, out


def test_a_model_declaring_100000_constants_is_read(tmp_path):
    """The domain is merged in linear time (it was a list membership test per constant:
    100,000 constants took 64 s)."""
    from pracmln_poss.bridge.loader import load_model

    path = tmp_path / "big.mln"
    path.write_text("person = {" + ", ".join(f"P{i}" for i in range(100_000)) + "}\ns(person)\n1 s(x)\n")
    model = load_model(path).model
    assert len(model.domain_map["person"]) == 100_000


def test_one_fact_one_check_k_and_the_sample_size_of_verify_as_of_transform(tmp_path):
    """k < 0 is the same ArgumentError from transform, verify and both commands."""
    from pracmln_poss import GroundMLN, transform
    from pracmln_poss.insight.verify import verify

    mln = GroundMLN.from_pairs([("a => b", 1)])
    theory = transform(mln, "defaults", k=1)
    for call in (lambda: transform(mln, "defaults", k=-1), lambda: verify(theory, mln, -1)):
        with pytest.raises(ArgumentError, match="k must be at least 0, got -1"):
            call()
    with pytest.raises(ArgumentError, match="sample must be at least 1, got 0"):
        verify(theory, mln, 1, sample=0)
    out = tmp_path / "t.theory"
    assert run_cli("convert", PAPER / "example5-defaults.mln", "-k", "1", "-o", out)[0] == 0
    for argv in (("convert", PAPER / "example5-defaults.mln", "-k", "-1"),
                 ("verify", out, "--mln", PAPER / "example5-defaults.mln", "-k", "-1")):
        code, _, err = run_cli(*argv)
        assert code == 2 and "k must be at least 0, got -1" in err, err


def test_a_load_request_is_one_value_checked_at_the_door():
    """Every front door reads its loading options into one :class:`Loading` (checked
    there: a misspelt option named, with the close one) and the loader reads the request."""
    from pracmln_poss import load_first_order
    from pracmln_poss.bridge.loader import load
    from pracmln_poss.bridge.request import Loading, LoadRequest

    with pytest.raises(UnknownNameError, match="no loading option 'grammer'; did you mean grammar"):
        load_first_order(SMOKERS, grammer="PRACGrammar")
    with pytest.raises(UnknownNameError, match="no loading option 'frobnicate'; the loading options: grammar, "
                                               "resolution, domains, domain_sizes, reader"):
        load_first_order(SMOKERS, frobnicate=1)
    with pytest.raises(ArgumentTypeError, match="cw_preds takes a list of names"):
        LoadRequest.of(SMOKERS, cw_preds="s")
    loading = Loading.of({"domains": {"person": ["A", "B"]}, "reader": "native"})
    assert loading.domains == {"person": ("A", "B")} and loading.reader == "native"
    request = LoadRequest.of(SMOKERS, None, loading)
    assert load(request).model == load_model(SMOKERS, domains={"person": ["A", "B"]}, reader="native").model
    assert load(request).model == load_first_order(SMOKERS, domains={"person": ("A", "B")})


def test_a_pracmln_mln_takes_only_the_loading_options_it_can_use(pracmln):
    from pracmln_poss import load_first_order

    mln = pracmln.MLN.load(str(SMOKERS), grammar="StandardGrammar", logic="FirstOrderLogic")
    with pytest.raises(UnknownNameError, match="a pracmln MLN takes no loading option 'grammar'; it takes "
                                               "resolution, domains, domain_sizes .the others with a file name."):
        load_first_order(mln, grammar="PRACGrammar")
    assert load_first_order(mln, domains={"person": ["A"]}).domain_map["person"] == ("A",)
