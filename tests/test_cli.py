"""The `pracmln-poss map` command: text and JSON contracts, errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pracmln_poss.cli import main

from .support import ANTARCTIC, PAPER, PRACMLN_DATA, ROOT, run_cli, smokers_project


def test_map_json_contract(pracmln, capsys):
    code, out, err = run_cli("map", PAPER / "example5-defaults.mln", "--evidence", "!b(T)", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["penalty", "world", "entailed"]
    assert data["penalty"] == 2
    assert set(data["world"]) == {"a(T)", "b(T)"} and data["world"]["b(T)"] is False
    # a(T) is tied (either value costs 2): only !b(T) holds in all MAP worlds
    assert data["entailed"] == {"b(T)": False}


def test_map_json_without_evidence(pracmln, capsys):
    code, out, _ = run_cli("map", ANTARCTIC, "--json")
    data = json.loads(out)
    assert code == 0 and data["penalty"] == 0
    # bird and flies are free: both values of bird cost nothing without evidence
    assert data["entailed"] == {"antarcticBird(Tweety)": False}


def test_map_text(pracmln, capsys):
    code, out, _ = run_cli("map", ANTARCTIC, "-e", "antarcticBird(Tweety)")
    assert code == 0
    assert "penalty of the evidence: 5" in out
    lines = {line.split()[0]: line.split()[1:] for line in out.splitlines()[3:]}
    assert lines["flies(Tweety)"] == ["true", "all"]


def test_map_text_shows_ties(pracmln, capsys):
    code, out, _ = run_cli("map", PAPER / "example5-defaults.mln", "-e", "!b(T)")
    rows = {line.split()[0]: line.split()[2] for line in out.splitlines()[3:]}
    assert rows == {"a(T)": "some", "b(T)": "none"}


def test_map_with_db(pracmln, capsys):
    smokers = PRACMLN_DATA / "smokers"
    code, out, _ = run_cli("map", smokers / "mlns" / "wts.pybpll.smoking-train-smoking.mln",
                           "--db", smokers / "dbs" / "smoking-test-smaller.db", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["entailed"]["Cancer(Ann)"] is True and data["entailed"]["Friends(Ann,Bob)"] is False


@pytest.mark.parametrize("backend", ["bruteforce", "wcsp"])
def test_backends_selectable_by_name(pracmln, capsys, backend):
    code, out, _ = run_cli("map", PAPER / "example3-exhaustive.mln", "-e", "a(T)", "b(T)", "--json", "--backend", backend)
    assert code == 0
    assert json.loads(out) == {
        "penalty": 5,
        "world": {"a(T)": True, "b(T)": True, "x(T)": True, "y(T)": False},
        "entailed": {"a(T)": True, "b(T)": True, "x(T)": True, "y(T)": False},
    }


def test_contradicting_evidence_is_a_clear_error(pracmln, capsys):
    code, out, err = run_cli("map", ANTARCTIC, "-e", "antarcticBird(Tweety)", "!bird(Tweety)")
    assert code == 2 and out == ""
    assert "contradicts the hard formulas" in err and "!bird(Tweety)" in err


def test_unknown_atom(pracmln, capsys):
    code, _, err = run_cli("map", ANTARCTIC, "-e", "penguin(Tweety)")
    assert code == 2 and "unknown atom 'penguin(Tweety)'" in err


def test_bad_model_file_names_line(pracmln, capsys, tmp_path):
    bad = tmp_path / "bad.mln"
    bad.write_text("t = {A}\np(t)\n\n2 p(x) v\n")
    code, _, err = run_cli("map", bad)
    assert code == 2
    assert f"{bad}:4: 2 p(x) v" in err


def test_console_script_and_module_entry_point(pracmln):
    out = subprocess.run(
        [sys.executable, "-m", "pracmln_poss", "map", str(PAPER / "example3-exhaustive.mln"), "--json"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["penalty"] == 0


def test_map_output_is_byte_identical_across_hash_seeds(pracmln):
    """Two processes, two hash seeds: no set or dict order leaks into a MAP world."""
    import os

    command = [sys.executable, "-m", "pracmln_poss.cli", "map", str(PAPER / "cora.mln"), "-e", "category(PossPaper,Ai)",
               "--json"]
    outputs = [subprocess.run(command, capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout
               for seed in ("1", "2")]
    assert outputs[0] == outputs[1] and b'"penalty"' in outputs[0]


PENGUIN_THEORY = """\
inf penguin(T) => bird(T)
inf penguin(T) => !flies(T)
0.5 bird(T) => flies(T)
0.5 bird(T) => wings(T)
"""


@pytest.fixture
def penguin_theory(tmp_path):
    path = tmp_path / "penguin.theory"
    path.write_text(PENGUIN_THEORY)
    return path


def test_query_json_contract(capsys, penguin_theory):
    code, out, _ = run_cli("query", penguin_theory, "--evidence", "bird(T)", "--query", "flies(T)", "--json")
    assert code == 0
    assert json.loads(out) == {"entailed": True, "consistency_level": 0.5, "drowned": 0}


def test_query_drowning(capsys, penguin_theory):
    code, out, _ = run_cli("query", penguin_theory, "-e", "penguin(T)", "-q", "wings(T)", "--json")
    assert json.loads(out) == {"entailed": False, "consistency_level": "inf", "drowned": 2}
    code, out, _ = run_cli("query", penguin_theory, "-e", "penguin(T)", "-q", "!flies(T)")
    assert code == 0 and "entailed: yes" in out and "drowned: 2" in out


def test_query_reads_json_theories(capsys, penguin_theory, tmp_path):
    from pracmln_poss.formats import dumps, load_theory

    json_path = tmp_path / "penguin.json"
    json_path.write_text(dumps(load_theory(penguin_theory), "json"))
    code, out, _ = run_cli("query", json_path, "-e", "bird(T)", "-q", "wings(T) ^ flies(T)", "--json")
    assert code == 0 and json.loads(out)["entailed"] is True


def test_query_errors(capsys, penguin_theory):
    code, out, err = run_cli("query", penguin_theory, "-e", "penguin(T)", "!bird(T)", "-q", "flies(T)")
    assert code == 2 and out == "" and "penguin.theory" in err and "contradicts the certain part" in err
    code, _, err = run_cli("query", penguin_theory, "-q", "swims(T)")
    assert code == 2 and "unknown atom 'swims(T)'" in err
    code, _, err = run_cli("query", penguin_theory, "-q", "flies(T) ^")
    assert code == 2 and "cannot parse formula" in err


def test_convert_defaults_text_and_deterministic(pracmln, capsys, tmp_path):
    args = ("convert", ANTARCTIC, "--method", "defaults", "-k", "2")
    code, out, err = run_cli(*args)
    assert code == 0, err
    assert "5  antarcticBird(Tweety) => (bird(Tweety) ^ flies(Tweety))" in out
    assert run_cli(*args)[1] == out
    # what convert writes, query reads: an antarctic bird flies
    path = tmp_path / "t.theory"
    path.write_text(out)
    code, out, _ = run_cli("query", path, "-e", "antarcticBird(Tweety)", "-q", "flies(Tweety)", "--json")
    assert json.loads(out)["entailed"] is True


@pytest.mark.parametrize("method, extra", [("exhaustive", []), ("selective", ["--family", "positive", "-k", "1"]), ("defaults", ["-k", "1"])])
@pytest.mark.parametrize("fmt", ["json", "latex"])
def test_convert_methods_and_formats(pracmln, capsys, tmp_path, method, extra, fmt):
    out_file = tmp_path / f"out.{fmt}"
    code, out, err = run_cli("convert", PAPER / "example3-exhaustive.mln", "--method", method, *extra,
                         "--format", fmt, "--filter", "aggressive", "-o", out_file)
    assert code == 0 and out == "", err
    text = out_file.read_text()
    if fmt == "json":
        data = json.loads(text)
        assert data["format"] == "pracmln_poss-theory" and data["formulas"]
    else:  # (under the line that records the command)
        made_by, _, rest = text.partition("\n")
        assert made_by.startswith(f"% made by: pracmln-poss convert {PAPER / 'example3-exhaustive.mln'} --method {method}")
        assert rest.startswith("\\begin{align*}")


def test_convert_selective_family_file(pracmln, capsys, tmp_path):
    family = tmp_path / "family.txt"
    family.write_text("// the paper's Example 4\nx(T)\n{}\n")
    code, out, err = run_cli("convert", PAPER / "example4-selective.mln", "--method", "selective", "--family", family)
    assert code == 0, err
    assert "4  !x(T)  // from: {x(T)}" in out
    family.write_text("x(T), y(T)\n")
    code, _, err = run_cli("convert", PAPER / "example4-selective.mln", "--method", "selective", "--family", family)
    assert code == 2 and "family.txt:1" in err and "unknown atom 'y(T)'" in err


def test_convert_progress_and_exhaustive_refusal(pracmln, capsys):
    code, _, err = run_cli("convert", PAPER / "example5-defaults.mln", "-k", "1", "--progress")
    assert code == 0 and "rules of evidence classes: 5 of 5" in err  # lifted, the default
    code, _, err = run_cli("convert", PAPER / "example5-defaults.mln", "--method", "defaults", "--progress")
    assert code == 0 and "rules of evidence sets" in err
    code, _, err = run_cli("convert", PAPER / "cora.mln", "--method", "exhaustive")
    assert code == 2 and "refused above 16" in err


def test_convert_interrupted_leaves_no_file(pracmln, capsys, tmp_path, monkeypatch):
    import pracmln_poss.transformations.defaults as defaults_module
    import pracmln_poss.transformations.lifted as lifted_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(defaults_module, "defaults", interrupted)
    monkeypatch.setattr(lifted_module, "lifted", interrupted)
    for method in ("defaults", "lifted"):
        target = tmp_path / "out.theory"
        code, out, err = run_cli("convert", PAPER / "example5-defaults.mln", "--method", method, "-o", target)
        assert code == 130 and "interrupted" in err
        assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_lifted_output_is_byte_identical_across_hash_seeds(pracmln):
    """Set and dict orders must not leak into the output: two processes, two hash seeds."""
    import os

    command = [sys.executable, "-m", "pracmln_poss.cli", "convert", str(PAPER / "cora.mln"),
               "--domain", "pap=A,B", "--domain", "per=S,T", "-k", "2", "--filter", "conservative", "--quiet"]
    outputs = [
        subprocess.run(command, capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1] and outputs[0].startswith("// pracmln_poss")


def test_a_project_on_the_command_line(capsys, tmp_path):

    project = smokers_project(tmp_path, conf={"mln": "learnt.bpll.smoking-train-smoking.mln", "db": "smoking-test-smaller.db",
                                       "queries": "Smokes,Cancer"})
    code, out, err = run_cli("convert", project, "-k", "1", "--quiet")
    assert code == 0, err
    assert "Smokes(Ann)" in out and "lifted possibilistic theory" in out
    # the project's queries focus the conversion: no rule concludes about Friends
    rules = [l for l in out.splitlines() if l and l[0].isdigit()]  # soft rules
    assert rules and not any("=> Friends" in l or "=> !Friends" in l for l in rules)
    code, out_all, err = run_cli("convert", project, "-k", "1", "--quiet", "--query-preds", "all")
    assert code == 0 and len(out_all) > len(out)
    code, out, err = run_cli("map", f"{project}:smoking.mln", "--domain-size", "person=2")
    assert code == 0 and "Smokes(Person1)" in out
    code, out, err = run_cli("map", f"{project}:smoking.mln", "--domain-size", "person=0")
    assert code == 2 and "--domain-size expects NAME=N" in err


def test_a_theory_and_an_mln_over_other_atoms_are_an_error_not_a_report(capsys, tmp_path):
    """verify and show --mln compare a theory with a model: over other constants every
    answer about the atoms one side lacks would be a false report."""
    theory = tmp_path / "smokers-ab.theory"
    code, _, err = run_cli("convert", PAPER / "smokers.mln", "--domain", "person=A,B", "--method", "defaults",
                       "-k", "1", "-o", theory)
    assert code == 0, err
    code, out, err = run_cli("verify", "--mln", PAPER / "smokers.mln", "--domain", "person=A,B,C", "-k", "1", theory)
    assert code == 2 and not out
    assert "the MLN has 7 atom(s) the theory does not: c(C)" in err and "counterexample" not in err
    code, out, err = run_cli("show", theory, "--mln", PAPER / "birds-jetpack.mln")
    assert code == 2 and "the theory has 8 atom(s) the MLN does not" in err and "bird(Tweety)" in err
    code, out, err = run_cli("show", theory, "--query-preds", "nosuch,s")
    assert code == 2 and "unknown query predicate(s) 'nosuch'; the theory's predicates: c, f, s" in err
    # the same domains: fine
    code, out, err = run_cli("show", theory, "--mln", PAPER / "smokers.mln", "--domain", "person=A,B")
    assert code == 0, err
    code, out, err = run_cli("verify", "--mln", PAPER / "smokers.mln", "--domain", "person=A,B", "-k", "1", theory)
    assert code == 0 and "verified" in out


def test_groundings_and_searches_beyond_the_limits_are_refused_with_their_size(capsys, tmp_path):
    """Before a grounding or an enumeration that cannot fit, say how large it would be
    and refuse, unless --force."""
    big = tmp_path / "big.mln"
    big.write_text("d = {A, B, C, D, E, F, G, H, I, J}\np(d)\nr(d, d)\n"
                   "1 p(a) ^ p(b) ^ p(c) ^ p(e) ^ p(f) ^ p(g) ^ p(h) ^ p(i) => r(a, b)\n")
    code, out, err = run_cli("map", big)
    assert code == 2 and "grounding would make 100,000,000 ground formulas, more than 10,000,000" in err
    assert f"{big}:4" in err and "--force" in err
    code, out, err = run_cli("map", big, "--domain", "d=A,B", "--force")
    assert code == 0, err
    target = tmp_path / "x.theory"
    code, out, err = run_cli("convert", PAPER / "smokers.mln", "-k", "1000000", "-o", target)
    assert code == 2 and "the lifted search may examine up to " in err and "more than 10,000,000" in err
    code, out, err = run_cli("convert", PAPER / "smokers.mln", "-k", "1000000", "--method", "defaults", "-o", target)
    assert code == 2 and "makes 3,486,784,401 evidence sets, more than 10,000,000" in err
    assert not target.exists()


def test_ground_size_counts_atoms_and_groundings(tmp_path):
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.model.grounding import ground_size

    path = tmp_path / "m.mln"
    path.write_text("d = {A, B, C}\ne = {X, Y}\np(d)\nr(d, e)\n1 p(a) => r(a, x)\n2 p(a)\n-1 r(A, x)\n"
                    "3 EXIST y, z (r(y, z) ^ p(y) ^ r(y, z))\n")
    atoms, formulas, largest, expanded, widest = ground_size(load_model(path).model)
    assert (atoms, formulas) == (3 + 6, 6 + 3 + 2 + 1)
    assert largest[1] == 6 and largest[0].text == "p(a) => r(a, x)"
    # the EXIST formula grounds to one formula of 3 * 2 * 3 atoms
    assert expanded == 6 * 2 + 3 + 2 + 18 and widest[1] == 18 and widest[0].text.startswith("EXIST")


def test_help_names_only_what_applies(capsys):
    """``--force`` names the limits of the command at hand; ``auto`` names every backend it picks."""
    helps = {}
    for command in ("map", "convert", "verify"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        helps[command] = " ".join(capsys.readouterr().out.split())
    assert "exhaustive" not in helps["map"] and "lifted theory" not in helps["map"]
    assert "exhaustive transformation above 16 soft formulas" in helps["convert"]
    assert "groundings of a lifted theory" in helps["verify"] and "exhaustive" not in helps["verify"]
    assert "picks oll, toulbar2 or cpsat" in helps["map"]


def test_the_model_after_an_evidence_list_is_taken_back(pracmln, capsys):
    """``map --evidence LIT MODEL``: the list takes every word after it, the model too."""
    model = str(PAPER / "smokers.mln")
    assert main(["map", "--evidence", "s(Alice)", model, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["world"]["s(Alice)"] is True
    with pytest.raises(SystemExit) as exc:
        main(["map", "--evidence", "s(Alice)", "no-such.mln"])
    assert exc.value.code == 2
    assert "required: MODEL (--evidence takes every word after it" in capsys.readouterr().err


@pytest.mark.parametrize("argv, expected", [
    (["convert", "m.mln", "--methd", "defaults"], "pracmln-poss convert: error: unrecognized arguments: --methd defaults "
                                                  "(--methd: did you mean --method?) (see pracmln-poss convert --help)"),
    (["convert", "m.mln", "--method", "default"], "invalid choice: 'default' (choose from 'exhaustive', 'selective', "
                                                  "'defaults', 'lifted'); did you mean defaults?"),
    (["conver"], "did you mean convert, verify?"),
])
def test_usage_errors_are_one_line_with_the_closest_names(capsys, argv, expected):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and expected in err
    assert err.count("\n") == 1, err  # no usage block


def test_an_unknown_predicate_suggests_the_same_name_in_another_case(pracmln, capsys):
    model = str(PRACMLN_DATA / "smokers" / "mlns" / "wts.pybpll.smoking-train-smoking.mln")
    assert main(["convert", model, "--domain", "person=A,B", "--query-preds", "smokes", "-k", "1"]) == 2
    assert "unknown query predicate 'smokes'; did you mean Smokes?" in capsys.readouterr().err


@pytest.mark.alone
@pytest.mark.slow
def test_on_a_terminal_progress_is_one_updating_line_ending_at_what_is_written(tmp_path):
    """A conversion of a few seconds with stderr on a pseudo-terminal: updates in place
    (carriage returns, no line per update), then one line counting what was written."""
    import os
    import pty
    import re

    out = tmp_path / "cora.theory"
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "pracmln_poss", "convert", str(PAPER / "cora.mln"), "-k", "3",
                             "-o", str(out)], stderr=follower, stdout=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # (the terminal is gone once the process has ended)
            break
        if not data:
            break
        chunks.append(data)
    assert proc.wait(timeout=300) == 0
    shown = b"".join(chunks).decode()
    assert shown.count("\r") >= 5, shown  # updated in place
    lines = [line for line in shown.replace("\r", "\n").split("\n") if line.strip()]
    updates = [line for line in lines if "evidence classes" in line]
    assert len(updates) >= 5 and any("rules found" in line for line in updates)
    assert shown.count("\n") <= 2, shown  # no line per update: the final line only
    written = re.search(r"wrote ([\d,]+) rules in ([\d,]+) levels", shown)
    header = re.search(r"theory: ([\d,]+) rules in ([\d,]+) levels", out.read_text().splitlines()[0])
    assert written and header and written.groups() == header.groups()  # (the same counts, written alike)


@pytest.mark.parametrize("flags, error", [
    (["--method", "exhaustive", "-j", "4"],
     "the exhaustive transformation has no --jobs; its options: --backend, --max-formulas"),
    (["--method", "exhaustive", "-k", "2"], "the exhaustive transformation has no -k; its options: --backend, --max-formulas"),
    (["--method", "exhaustive", "-j", "4", "--blocking", "long", "--family", "positive"],
     "the exhaustive transformation has no --family, --blocking, --jobs; its options: --backend, --max-formulas"),
    (["--method", "exhaustive", "--no-checkpoint"],
     "the exhaustive transformation has no --no-checkpoint; its options: --backend, --max-formulas"),
    (["--method", "selective", "--no-checkpoint"],
     "the selective transformation has no --no-checkpoint; its options: --backend, -k, --family"),
    (["--method", "defaults", "--blocking", "long"],
     "the defaults transformation has no --blocking; its options: --backend, -k, --jobs, --no-checkpoint"),
    (["--method", "defaults", "--family", "positive"],
     "the defaults transformation has no --family; its options: --backend, -k, --jobs, --no-checkpoint"),
    (["--method", "selective", "-j", "2"], "the selective transformation has no --jobs; its options: --backend, -k, --family"),
    (["--method", "lifted", "--family", "all"],
     "the lifted transformation has no --family; its options: --backend, -k, --blocking, --jobs, --no-checkpoint"),
])
def test_a_flag_the_method_lacks_is_an_error_not_dropped(pracmln, capsys, tmp_path, flags, error):
    """Exit 2 with one line naming the flags the method has: the rule is the options
    class's (``transform`` raises for the same option), not one the CLI keeps."""
    from pracmln_poss.errors import UnknownNameError
    from pracmln_poss.model.ground_mln import GroundMLN
    from pracmln_poss.transformations import transform_mln
    from pracmln_poss.transformations.conversion import has_option

    out = tmp_path / "o.theory"
    assert main(["convert", str(PAPER / "example5-defaults.mln"), *flags, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and error in err and not out.exists()
    method, flag = flags[1], flags[2]
    name = {"-j": "jobs", "-k": "k", "--blocking": "long_blocking", "--family": "family",
            "--no-checkpoint": "checkpoint"}[flag]
    assert not has_option(method, name)
    with pytest.raises(UnknownNameError, match=f"the {method} transformation has no option '{name}'"):
        transform_mln(GroundMLN.from_pairs([("a", 1)]), method,
                  **{name: {"long_blocking": True, "family": "all", "checkpoint": "c"}.get(name, 2)})


def test_family_is_the_selective_transformation_s_own_in_python():
    from pracmln_poss.errors import UnknownNameError
    from pracmln_poss.model.ground_mln import GroundMLN
    from pracmln_poss.transformations import transform_mln

    mln = GroundMLN.from_pairs([("a", 1), ("a => b", 2)])
    with pytest.raises(UnknownNameError, match="defaults transformation has no option 'family'"):
        transform_mln(mln, "defaults", k=1, family="positive")
    origins = {family: {pf.origin for pf in transform_mln(mln, "selective", k=1, family=family).formulas}
               for family in ("positive", "all")}
    assert {"{a}", "{b}"} <= origins["positive"] and not any("!" in o for o in origins["positive"])
    assert {"{!a}", "{!b}"} <= origins["all"]


@pytest.mark.alone
def test_ctrl_c_inside_a_sat_call_is_an_interrupt(pracmln, capsys, monkeypatch):
    """PySAT's solvers catch SIGINT during a solve and raise their own error: the command
    line stops as for any Ctrl-C (status 130, one line, no traceback); PySAT's other
    errors are not taken for one."""
    import pysolvers

    from pracmln_poss.map.engine import MapEngine

    def stopped(*args, **kwargs):
        raise pysolvers.error("Caught keyboard interrupt")

    monkeypatch.setattr(MapEngine, "base", stopped)
    code, _, err = run_cli("map", ANTARCTIC)
    assert code == 130 and err == "pracmln-poss: interrupted\n", err

    def failed(*args, **kwargs):
        raise pysolvers.error("something else")

    monkeypatch.setattr(MapEngine, "base", failed)
    with pytest.raises(pysolvers.error, match="something else"):
        run_cli("map", ANTARCTIC)


# what convert says of every conversion, whatever the method (the rest are the methods' own)
CONVERT_FLAGS = {"help", "model", "db", "domain", "domain_size", "grammar", "resolution", "force", "method",
                 "ignore_unknown_preds",
                 "evidence_preds", "focus_query_preds", "filter", "format", "output", "progress", "quiet"}
# a text for each method flag and the value its field then holds
FLAG_VALUES = {"backend": (["oll"], "oll"), "max_formulas": (["3"], 3), "k": (["2"], 2),
               "family": (["positive"], "positive"), "long_blocking": (["long"], True), "jobs": (["2"], 2),
               "checkpoint": ([], None)}


def test_every_method_flag_is_one_options_field_and_back():
    """``convert``'s method flags are made from the options' fields: each sets its one field
    for exactly the methods whose options (or runtime) have that field, is an error for the
    others, and every field that has a flag is reached by it; no other flag sets an option."""
    from dataclasses import fields

    from pracmln_poss.cli import UsageError, build_parser
    from pracmln_poss.cli.convert_command import _given_options
    from pracmln_poss.transformations.conversion import METHODS, method_flags
    from pracmln_poss.transformations.options import RUNTIME_NAMES, Runtime, make_options, make_runtime

    parser = build_parser()
    parser.parse_args(["convert", "m.mln"])  # (convert's arguments are added as it first parses)
    commands = next(a for a in parser._actions if isinstance(getattr(a, "choices", None), dict))
    dests = {a.dest for a in commands.choices["convert"]._actions}
    flags = method_flags()
    assert dests - CONVERT_FLAGS == set(flags) == set(FLAG_VALUES)
    for name, (flag, methods) in flags.items():
        texts, value = FLAG_VALUES[name]
        for spelling in flag.names:
            args = parser.parse_args(["convert", "m.mln", spelling, *texts])
            for method, options in METHODS.items():
                if method not in methods:
                    with pytest.raises(UsageError, match=f"the {method} transformation has no {flag.name};"):
                        _given_options(args, method)
                    continue
                given = _given_options(args, method)
                assert given == {name: value}
                made = make_runtime(options, given) if name in RUNTIME_NAMES else make_options(options, given)
                assert getattr(made, name) == value
    for method, options in METHODS.items():
        for f in (*fields(options), *fields(Runtime)):
            if f.name in options.names() and "flag" in f.metadata:
                assert method in flags[f.name][1], (method, f.name)
