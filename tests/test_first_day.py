"""A newcomer's first day (#64): what a user meets trying the commands, each as they
would expect it (each test failed before)."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .support import PAPER, ROOT, examples, run_cli

SMOKERS = PAPER / "smokers.mln"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_formula_without_a_weight_is_told_so(pracmln, tmp_path):
    """Alchemy's weightless formula: the line, and what pracmln wants instead (before:
    "Error parsing formula '=> Cancer(x)'")."""
    model = _write(tmp_path, "a.mln", "Smokes(person)\nCancer(person)\nperson = {A, B}\nSmokes(x) => Cancer(x)\n")
    code, _, err = run_cli("convert", model)
    assert code == 2 and "a.mln:4: Smokes(x) => Cancer(x): a formula needs a weight before it" in err, err
    assert "('Smokes(x) => Cancer(x).')" in err


def test_a_parenthesis_left_open_is_told_so(pracmln, tmp_path):
    model = _write(tmp_path, "p.mln", "flies(entity\nbird(entity)\n1 bird(x) => flies(x)\n")
    code, _, err = run_cli("convert", model)
    assert code == 2 and "p.mln:1: flies(entity: 1 '(' not closed on this line" in err, err


def test_an_integer_range_is_the_integers(pracmln, tmp_path):
    """``time = {0,...,10}`` (Alchemy's and LoMRF's range): 11 constants, not 0, ... and 10;
    ``...`` elsewhere is an error."""
    model = _write(tmp_path, "r.mln", "time = {0,...,10}\nat(time)\n1 at(t)\n")
    code, out, err = run_cli("convert", model, "-k", "0", "--quiet")
    assert code == 0 and "#domain time = {0..10}" in out, err
    bad = _write(tmp_path, "b.mln", "time = {a,...,10}\nat(time)\n1 at(t)\n")
    code, _, err = run_cli("convert", bad)
    assert code == 2 and "b.mln:1: time = {a,...,10}: '...' in a domain stands for the integers" in err, err


def test_the_theory_says_the_k_it_was_made_for_and_verify_reads_it(pracmln, tmp_path):
    """The made-by line names k even when it is the default; ``verify`` above it says so,
    and marks a counterexample past it."""
    theory = tmp_path / "s.theory"
    assert run_cli("convert", SMOKERS, "-o", theory, "--quiet")[0] == 0
    assert " --method lifted -k 1 --filter none" in theory.read_text().splitlines()[1]
    code, out, err = run_cli("verify", theory, "--mln", SMOKERS, "-k", "2")
    assert code == 1 and "the theory was made for k = 1 (its made-by line)" in err, err
    assert "beyond the k = 1 the theory was made for" in out


def test_show_with_the_mln_takes_the_domains_the_theory_was_converted_with(pracmln, tmp_path):
    theory = tmp_path / "s3.theory"
    assert run_cli("convert", SMOKERS, "--domain-size", "person=3", "-o", theory, "--quiet")[0] == 0
    code, out, err = run_cli("show", theory, "--mln", SMOKERS)
    assert code == 0 and "the domains the theory was converted with (its made-by line): --domain-size person=3" in err
    code, _, err = run_cli("show", theory, "--mln", PAPER / "birds-jetpack.mln")  # (another model: its own domains)
    assert code == 2 and "different atoms" in err


def test_a_made_by_line_edited_past_reading_is_passed_over_not_a_traceback(pracmln, tmp_path):
    """An unclosed quote in the made-by line (found by the fuzzer under load): ``show`` with
    the MLN reads no domains from it and shows the theory, as for a line without one."""
    theory = tmp_path / "s3.theory"
    assert run_cli("convert", SMOKERS, "--domain-size", "person=3", "-o", theory, "--quiet")[0] == 0
    lines = theory.read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace(" convert ", ' convert "', 1)
    theory.write_text("".join(lines))
    code, out, err = run_cli("show", theory, "--mln", SMOKERS, "--domain-size", "person=3")
    assert code == 0 and "Traceback" not in err, err
    code, out, err = run_cli("show", theory, "--mln", SMOKERS)
    assert "Traceback" not in err and "its made-by line" not in err, err


def test_the_digest_groups_observations_alike_and_stays_short(pracmln, tmp_path):
    """Single observations of one predicate that conclude the same are one line (before:
    a line each); past the limit the rest are counted."""
    from pracmln_poss.formats import load_theory
    from pracmln_poss.insight.digest import digest_text

    model = _write(tmp_path, "col.mln", "thing = {T1, T2}\ncolour = {Red, Blue, Green, Grey}\ncol(thing, colour)\n"
                   "big(thing)\n1 col(x, Red) => big(x)\n2 col(x, Blue) => big(x)\n3 col(x, Green) => big(x)\n"
                   "0.5 !big(x)\n")
    theory = tmp_path / "col.theory"
    assert run_cli("convert", model, "-k", "1", "-o", theory, "--quiet")[0] == 0
    lines = digest_text(load_theory(theory, ground=False)).splitlines()
    assert "  if col(t1,X) for X in Red, Blue, Green (3 observations, each alone): big(t1) [lambda_0.5]" in lines
    many = _write(tmp_path, "many.mln", "thing = {T1, T2}\nbig(thing)\n" + "".join(
        f"p{i}(thing)\n{i + 1} p{i}(x) => big(x)\n" for i in range(5)) + "0.5 !big(x)\n")
    assert run_cli("convert", many, "-k", "1", "-o", theory, "--quiet")[0] == 0
    short = digest_text(load_theory(theory, ground=False), max_singles=2).splitlines()
    assert any(line.startswith("  ... and ") and "more lines of them (show lists every rule)" in line for line in short)


def test_the_digest_says_why_it_lists_observations_of_query_predicates(pracmln, tmp_path):
    """``!c(t1)`` is listed among the observations though ``--evidence-preds a`` leaves c
    out: the digest says why (docs/focus.md)."""
    model = _write(tmp_path, "q.mln", "thing = {T1, T2}\na(thing)\nb(thing)\nc(thing)\n1 a(x) => b(x)\n"
                   "2 b(x) => c(x)\n1 b(x)\n")
    theory = tmp_path / "q.theory"
    assert run_cli("convert", model, "--evidence-preds", "a", "--query-preds", "b,c", "-k", "1", "-o", theory,
                   "--quiet")[0] == 0
    code, out, err = run_cli("show", theory, "--digest")
    assert code == 0 and "  if !c(t1): !b(t1) [lambda_1]" in out, err
    assert "(observations of c are among them though the conversion's --evidence-preds leaves them out" in out


@pytest.mark.parametrize("given, hint", [
    ({}, "--evidence-preds and --query-preds focus it, --filter conservative shrinks it"),
    ({"evidence_preds": "a"}, "--query-preds focuses it, --filter conservative shrinks it"),
    ({"evidence_preds": "a", "focus_query_preds": "b"}, "--filter conservative shrinks it"),
    ({"evidence_preds": "a", "focus_query_preds": "b", "filter": "conservative"}, "a smaller -k shrinks it"),
])
def test_the_large_theory_notice_proposes_only_what_was_not_given(given, hint):
    from pracmln_poss.cli.common import _smaller

    args = argparse.Namespace(**{"evidence_preds": None, "focus_query_preds": None, "filter": "none", **given})
    assert _smaller(args) == hint


def test_show_and_the_digest_count_flagged_rules_alike():
    from pracmln_poss.insight.digest import flagged_count

    assert flagged_count(3, 3) == "3" and flagged_count(1, 3) == "1 rule, 3 warnings"


def test_explain_counts_the_drowned_rules_it_does_not_list_and_names_defaults(pracmln, tmp_path):
    theory = tmp_path / "c.theory"
    assert run_cli("convert", PAPER / "cora.mln", "--domain", "pap=PossPaper,GraphPaper", "--domain",
                   "per=Steven,Jesse", "-k", "1", "-o", theory, "--quiet")[0] == 0
    code, out, err = run_cli("explain", theory, "-e", "refers(PossPaper,GraphPaper)", "category(GraphPaper,Os)",
                             "-q", "category(PossPaper,Os)")
    assert code == 0 and "other rule(s) not shown: they neither conflict with the evidence" in out, err
    code, out, err = run_cli("explain", theory, "-q", "!category(PossPaper,Prog)")
    assert code == 0 and "!category(PossPaper,Prog)  [a default: what holds with no evidence]" in out, err


def test_explain_names_a_lifted_rules_evidence_in_its_grounding_s_constants(pracmln, tmp_path):
    """The rule explained is a grounding of a lifted rule: its evidence set is written in
    the grounding's constants, not in its class's representative's (swapped)."""
    theory = tmp_path / "s.theory"
    assert run_cli("convert", ROOT / "tests/data/pracmln/smokers/mlns/wts.pybpll.smoking-train-smoking.mln",
                   "--domain-size", "person=8", "-k", "2", "-o", theory, "--quiet")[0] == 0
    code, out, err = run_cli("explain", theory, "-e", "Friends(Person3,Person5)", "Smokes(Person5)", "-q",
                             "Smokes(Person3)")
    assert code == 0, err
    rule = next(line for line in out.splitlines() if line.startswith("  lambda_"))
    premise, origin = rule.split(" => ")[0], rule.split("[")[-1]
    assert "Person1" not in origin and "Person2" not in origin, rule
    for literal in origin.strip("{}]").split(", "):
        assert literal in premise, rule


def test_a_database_typo_gets_a_did_you_mean(pracmln, tmp_path):
    db = _write(tmp_path, "t.db", "Smoke(Anna)\nFriends(Anna,Bob)\n")
    code, _, err = run_cli("map", ROOT / "tests/data/pracmln/smokers/mlns/smoking.mln", "--db", db)
    assert code == 2 and "undeclared predicate 'Smoke'; did you mean Smokes?" in err, err
    assert "--ignore-unknown-preds" in err


def test_a_model_given_as_a_theory_is_told_to_be_converted(pracmln):
    code, _, err = run_cli("show", SMOKERS)
    assert code == 2 and "this looks like an MLN, not a theory: convert it first" in err, err


def test_map_over_several_databases_reports_how_far(pracmln, tmp_path, monkeypatch):
    monkeypatch.setenv("PRACMLN_POSS_PROGRESS_INTERVAL", "0")  # (a line per database)
    db = _write(tmp_path, "three.db", "s(Alice)\n---\ns(Bob)\n---\nf(Alice,Bob)\n")
    code, out, err = run_cli("map", SMOKERS, "--db", db, "--progress")
    assert code == 0 and "databases: 2 of 3" in err and "answered 3 databases" in err, err
    code, out, err = run_cli("map", SMOKERS, "--db", db, "--quiet")
    assert code == 0 and err == ""


def test_a_checkpoint_of_another_conversion_is_kept_for_it(tmp_path):
    """One mistyped option no longer loses a conversion's saved work: the checkpoint of
    the other conversion found at the path is put aside, and that conversion, run again,
    resumes from it."""
    from pracmln_poss.search.checkpoint import Checkpoint

    path = tmp_path / "out.theory.checkpoint"
    first = Checkpoint(path, "a" * 64, 3, 1)
    first.optima = {0: [((), None)]}
    first.save()
    other = Checkpoint(path, "b" * 64, 3, 1)
    assert not other.load() and other.aside == tmp_path / "out.theory.checkpoint.aaaaaaaaaaaa"
    assert "kept as out.theory.checkpoint.aaaaaaaaaaaa" in (other.refused or "") and not path.exists()
    other.save()
    again = Checkpoint(path, "a" * 64, 3, 1)
    assert again.load() and again.optima == {0: [((), None)]}  # (the other's put aside in its turn)
    assert (tmp_path / "out.theory.checkpoint.bbbbbbbbbbbb").is_file()


def test_a_theory_above_the_read_limit_says_how_to_read_it(pracmln, tmp_path, monkeypatch):
    """What ``convert`` writes every command reads: above the limit (256 MB; here made
    small) the refusal names ``--force`` and the memory it takes, and ``--force`` reads it;
    ``convert`` says so as its theory is on course for such a file."""
    from pracmln_poss.formats import codec

    theory = tmp_path / "s.theory"
    assert run_cli("convert", SMOKERS, "-k", "2", "-o", theory, "--quiet")[0] == 0
    monkeypatch.setattr(codec, "MAX_INPUT_BYTES", 1000)
    for command in (["show", theory, "--digest"], ["query", theory, "-q", "s(Alice)"], ["report", theory]):
        code, _, err = run_cli(*command)
        assert code == 2 and "theory file is larger than 0 MB" in err and "--force reads it" in err, err
        code, out, err = run_cli(*command, "--force")
        assert code == 0 and out, err
    monkeypatch.setattr(codec, "free_memory", lambda: 1000)
    code, _, err = run_cli("show", theory, "--force")
    assert code == 2 and "more than this machine has free" in err


def test_convert_warns_of_a_theory_past_the_read_limit():
    import io

    from pracmln_poss.console import ProgressDisplay
    from pracmln_poss.search.progress import ProgressInfo

    out = io.StringIO()
    display = ProgressDisplay("p", "notes", stream=out)
    display(ProgressInfo("rules of evidence classes", 5_000, 100_000, 3, 150_000, 1.0))
    assert "its file will be about 715 MB, past the 256 MB that show, query and report read without --force" in \
        out.getvalue()


def _pass_with_a_clock(monkeypatch, items, costs=None):
    """What a pass of ``items`` (``(size, seconds)``, in their order) is told it has
    left, on a clock of its own, half way: ``(said, truth)``."""
    from pracmln_poss.search import progress

    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    infos: list = []
    report = progress.Reporter(infos.append, "pairs", len(items))
    half = len(items) // 2
    for done, (size, seconds) in enumerate(items[:half], 1):
        clock[0] += seconds
        if costs is not None:
            costs.add(size, seconds)
        report(done, None, size, final=done == half, costs=costs)
    return infos[-1].remaining, sum(seconds for _, seconds in items[half:])


def test_verify_tells_the_time_left_by_what_pairs_of_each_size_cost(monkeypatch):
    """All pairs come in their order, sizes in stretches (each evidence set's
    conclusions, the smallest first): the rate of a cheap stretch says a fraction of the
    time left, the cost of each size what it is."""
    from pracmln_poss.search.progress import SizeCosts

    items = [(3, 0.2)] * 100 + [(2, 0.01)] * 200 + [(3, 0.2)] * 200 + [(2, 0.01)] * 100
    said, truth = _pass_with_a_clock(monkeypatch, items)
    assert said < truth / 2  # (the rate: what the newcomer's CORA run showed)
    counts = {"item": {2: 300, 3: 300}}
    said, truth = _pass_with_a_clock(monkeypatch, items, SizeCosts(len(items), counts))
    assert truth * 0.9 <= said <= truth * 1.1, (said, truth)


def test_a_sampled_verification_tells_the_time_left_by_every_pair_done(monkeypatch):
    """A sample's pairs come at random: a cheap stretch of them says nothing of the
    rest, all those done do."""
    from pracmln_poss.search.progress import SizeCosts

    # (one pair in ten costs a hundred times the others; a cheap stretch just before half way)
    items = [(3, 1.0 if i % 10 == 0 else 0.01) for i in range(400)]
    items += [(3, 0.01)] * 100 + [(3, 1.0 if i % 10 == 0 else 0.01) for i in range(500)]
    said, truth = _pass_with_a_clock(monkeypatch, items)
    assert said < truth / 2
    said, truth = _pass_with_a_clock(monkeypatch, items, SizeCosts(len(items)))
    assert truth * 0.75 <= said <= truth * 1.25, (said, truth)


def test_verify_reports_the_time_left_of_its_pairs(pracmln, every_report):
    """verify's reports carry the time left its pairs' costs tell."""
    from pracmln_poss.insight.verify import verify
    from pracmln_poss.model.grounding import ground
    from pracmln_poss.transformations.conversion import transform_mln

    from .support import smokers

    mln = ground(smokers())
    theory = transform_mln(mln, k=1)
    infos: list = []
    result = verify(theory, mln, 1, progress=infos.append)
    assert result.ok and result.mode == "exhaustive"
    told = [info for info in infos if info.weighed]
    assert told and all(info.estimate is not None for info in told)
    assert infos[-1].done == result.pairs_checked


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.integers(1, n)), st.sets(st.integers(1, n), min_size=1), st.integers(0, 3))))
def test_the_work_of_an_exhaustive_verification_is_counted_by_size(case):
    """The pairs of each size and the distinct penalties an exhaustive verification
    asks (what its time left is told from) are those its pairs make."""
    from pracmln_poss.insight.verify import _all_pairs, _work_by_size

    _n, evidence, query, k = case
    evidence_atoms, query_atoms = sorted(evidence), sorted(query)
    pairs: dict[int, int] = {}
    keys: set[tuple[int, ...]] = set()
    for e, c in _all_pairs(evidence_atoms, query_atoms, k):
        pairs[len(e) + len(c)] = pairs.get(len(e) + len(c), 0) + 1
        keys.add(tuple(sorted(e, key=abs)))
        keys.add(tuple(sorted(e + tuple(-l for l in c), key=abs)))
    solves: dict[int, int] = {}
    for key in keys:
        solves[len(key)] = solves.get(len(key), 0) + 1
    work = _work_by_size(evidence_atoms, query_atoms, k)
    assert work["item"] == pairs
    assert work["solve"] == (solves if pairs else {0: 1})
