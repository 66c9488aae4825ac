"""Explanations are checked, verification accepts our theories and rejects damaged ones,
and `show` flags the paper's unintended consequences."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pracmln_poss.cli import main
from pracmln_poss.errors import InconsistentEvidenceError
from pracmln_poss.insight.explain import _alike, explain, formula_line
from pracmln_poss.insight.show import off_target_rules, overturned_readings, render_rule, show_text
from pracmln_poss.insight.verify import verify
from pracmln_poss.logic.formula import evaluate, negate
from pracmln_poss.model.ground_mln import GroundMLN
from pracmln_poss.model.grounding import ground as ground_model
from pracmln_poss.possibilistic import PossibilisticTheory, possibilistic_inference
from pracmln_poss.transformations import transform_mln
from pracmln_poss.weights import INF

from .reference import MapReference, models_of
from .strategies import formulas, ground_mlns, literal_sets, theories
from .support import ANTARCTIC, PAPER, examples
from .test_lifted import first_order_mlns


def entails_classically(formulas_, evidence, query, n):
    return all(evaluate(query, w) for w in models_of(formulas_, evidence, n))


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(st.data())
def test_every_explanation_is_checked(data):
    theory = data.draw(theories())
    evidence = data.draw(literal_sets(theory.n_atoms))
    query = data.draw(formulas(theory.n_atoms))
    n = theory.n_atoms
    try:
        why = explain(theory, evidence, query)
    except InconsistentEvidenceError:  # only when the certain formulas rule the evidence out
        certain = [pf.formula for pf in theory.formulas if pf.steps == INF]
        assert not models_of(certain, evidence, n)
        return
    assert why.entailed == possibilistic_inference(theory).entails(list(evidence), query)
    if why.entailed:
        rules = [pf.formula for pf in why.rules]
        assert all(pf.steps >= why.consistency_steps for pf in why.rules)
        assert entails_classically(rules, evidence, query, n)
        for i in range(len(rules)):  # minimal: dropping any one rule breaks it
            assert not entails_classically(rules[:i] + rules[i + 1 :], evidence, query, n)
    else:
        w = {abs(l): l > 0 for l in why.countermodel}
        world = (False, *(w.get(a, False) for a in range(1, n + 1)))
        active = [pf.formula for pf in theory.formulas if pf.steps >= why.consistency_steps]
        assert all(world[abs(l)] == (l > 0) for l in evidence)
        assert all(evaluate(f, world) for f in active) and not evaluate(query, world)
    active = [pf.formula for pf in theory.formulas if pf.steps >= why.consistency_steps]
    for pf in why.conflicting:
        assert entails_classically(active + [pf.formula], evidence, _false(), n)
    for pf, value in why.would_decide:
        target = query if value else negate(query)
        assert entails_classically(active + [pf.formula], evidence, target, n)


def _false():
    from pracmln_poss.logic.formula import BOTTOM

    return BOTTOM


BIRDS = [("bird(T) => flies(T)", 10), ("antarctic(T) => !flies(T)", 1), ("heavy(T) => !flies(T)", 10),
         ("hasJetPack(T) => flies(T)", 100)]


def test_bird_heavy_nothing_follows_about_flying_and_why():
    mln = GroundMLN.from_pairs(BIRDS)
    theory = transform_mln(mln, "defaults", k=3)
    for query in ("flies(T)", "!flies(T)"):
        why = explain(theory, ["bird(T)", "heavy(T)"], query)
        assert not why.entailed
        # bird(T) => ... flies(T) drowned: it conflicts with the evidence
        assert any(theory.format(pf.formula).startswith("bird(T) =>") for pf in why.conflicting)
    with MapReference(mln) as ref:
        assert not ref.entails(["bird(T)", "heavy(T)"], "flies(T)")
        assert not ref.entails(["bird(T)", "heavy(T)"], "!flies(T)")
    why = explain(theory, ["bird(T)", "heavy(T)", "antarctic(T)"], "!flies(T)")
    assert why.entailed and why.rules


@settings(max_examples=examples(40))
@given(ground_mlns(max_atoms=4, max_formulas=5), st.integers(1, 2), st.sampled_from(["none", "aggressive"]))
def test_verify_accepts_what_our_transformations_produce(mln, k, filtering):
    assume(MapReference(mln).consistent)
    from pracmln_poss.possibilistic.filtering import filter_redundant

    theory = filter_redundant(transform_mln(mln, "defaults", k=k), filtering).theory
    result = verify(theory, mln, k)
    assert result.ok, result.counterexample
    assert result.mode == "exhaustive" and result.counterexample is None


def damaged_versions(theory):
    """Every rule dropped in turn, and every soft rule above level 0 lowered to 0."""
    formulas_ = list(theory.formulas)
    for i, pf in enumerate(formulas_):
        yield f"drop {theory.format(pf.formula)}", theory.with_formulas(formulas_[:i] + formulas_[i + 1 :])
        if pf.steps not in (0, float("inf")):
            lowered = dataclasses.replace(pf, steps=0)
            yield f"lower {theory.format(pf.formula)}", theory.with_formulas(formulas_[:i] + [lowered] + formulas_[i + 1 :])


def test_verify_rejects_damaged_theories_with_a_correct_counterexample():
    from pracmln_poss.possibilistic.filtering import filter_redundant

    mln = GroundMLN.from_pairs(BIRDS)
    # after aggressive filtering no rule is redundant, so every damage must show
    theory = filter_redundant(transform_mln(mln, "defaults", k=2), "aggressive").theory
    assert verify(theory, mln, 2).ok
    versions = list(damaged_versions(theory))
    assert len(versions) == 11
    with MapReference(mln) as ref:
        for what, bad in versions:
            result = verify(bad, mln, 2)
            assert not result.ok, what
            c = result.counterexample
            query = " v ".join(c.conclusion)
            assert ref.entails(list(c.evidence), query) == c.map_entails, what
            assert possibilistic_inference(bad).entails(list(c.evidence), query) == c.theory_entails != c.map_entails, what


def test_verify_samples_with_a_seed():
    mln = GroundMLN.from_pairs(BIRDS)
    theory = transform_mln(mln, "defaults", k=2)
    a = verify(theory, mln, 2, sample=50, seed=3)
    b = verify(theory, mln, 2, sample=50, seed=3)
    assert a.ok and a.mode == "sample" and a.seed == 3 and a.pairs_checked <= 50
    assert (a.pairs_checked, a.evidence_sets) == (b.pairs_checked, b.evidence_sets)


def test_show_flags_the_antarctic_bird_that_flies(pracmln):
    from pracmln_poss import load_ground

    mln = load_ground(str(ANTARCTIC))
    theory = transform_mln(mln, "defaults", k=1)
    flags = overturned_readings(theory, mln)
    assert flags
    assert any("5 antarcticBird(Tweety) => !flies(Tweety)" in f.message and "concludes flies(Tweety)" in f.message
               for f in flags)
    assert "antarctic.mln:10" in flags[0].message
    text = show_text(theory, flags)
    assert "if antarcticBird(Tweety) then bird(Tweety) and flies(Tweety)" in text
    assert text.index("level lambda_0") < text.index("level lambda_5") < text.index("certain")


def test_show_flags_conclusions_about_other_predicates():
    theory = PossibilisticTheory.from_pairs([
        ("wrote(A, P1) ^ !category(P2, Ai) => !wrote(A, P2)", 1),
        ("refers(P1, P2) ^ category(P2, Os) => category(P1, Os)", 14),
    ])
    flags = off_target_rules(theory, ["category"])
    assert [theory.format(f.rule.formula) for f in flags] == ["(wrote(A,P1) ^ !category(P2,Ai)) => !wrote(A,P2)"]
    assert "wrote" in flags[0].message


def test_render_rules_as_defaults():
    theory = PossibilisticTheory.from_pairs([("a ^ b => c", 1), ("!a v !b", 2), ("!a v c", 3), ("a ^ !b", 0)])
    assert [render_rule(pf.formula, theory) for pf in theory.formulas] == [
        "if a and b then c", "never a and b", "if a then c", "by default a and !b",
    ]


def test_explain_and_verify_and_show_commands(pracmln, capsys, tmp_path):
    theory_file = tmp_path / "bird.theory"
    assert main(["convert", str(PAPER / "birds-jetpack.mln"), "-k", "3", "--filter", "aggressive", "-o", str(theory_file)]) == 0
    capsys.readouterr()
    assert main(["explain", str(theory_file), "-e", "bird(Tweety)", "heavy(Tweety)", "-q", "flies(Tweety)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["entailed"] is False and data["drowned"] and data["countermodel"]["flies(Tweety)"] is False
    assert main(["verify", str(theory_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["mode"] == "exhaustive" and data["pairs_checked"] > 0
    # a damaged theory: its header no longer matches, so it is refused
    lines = theory_file.read_text().splitlines()
    damaged_file = tmp_path / "damaged.theory"
    damaged_file.write_text("\n".join(l for l in lines if "from: {flies(Tweety)}" not in l) + "\n")
    assert main(["verify", str(damaged_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "3"]) == 2
    assert "the header announces 6 formulas in 5 levels but the file holds 5 in 4" in capsys.readouterr().err
    # edited by hand (no header): verify finds the counterexample, exit status 1
    damaged_file.write_text("\n".join(l for l in lines[1:] if "from: {flies(Tweety)}" not in l) + "\n")
    assert main(["verify", str(damaged_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "3"]) == 1
    assert "counterexample" in capsys.readouterr().out
    assert main(["show", str(theory_file), "--mln", str(PAPER / "birds-jetpack.mln"), "--query-preds", "flies"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("level lambda_0") and "flagged" in out


def test_show_keeps_a_lifted_theory_first_order(pracmln, capsys, tmp_path):
    from pracmln_poss.formats import load_theory
    from pracmln_poss.insight.show import render_lifted_rule

    theory_file = tmp_path / "smokers.theory"
    domain = ["--domain", "person=Ann,Bob,Cy"]
    assert main(["convert", str(PAPER / "smokers.mln"), *domain, "-k", "2", "-o", str(theory_file)]) == 0
    lifted = load_theory(theory_file, ground=False)
    rules = {render_lifted_rule(pf.formula, lifted) for pf in lifted.formulas}
    assert "if f(p1,p2) and s(p1) then s(p2)  (p1 != p2)" in rules
    assert "if f(p1,p2) then f(p2,p1)" in rules  # the hard rule, over all pairs
    capsys.readouterr()
    assert main(["show", str(theory_file), "--query-preds", "s,c", "--mln", str(PAPER / "smokers.mln"), *domain]) == 0
    out = capsys.readouterr().out
    assert out.startswith("type person (variables p1, p2, ...): Ann, Bob, Cy\n")
    assert "  if f(p1,p2) and s(p1) then s(p2)  (p1 != p2)\n" in out
    assert "concludes about f, not a query predicate" in out
    # flags are moved to the lifted rules: each message at most once per rule
    notes: dict[int, list[str]] = {}
    rule_line = -1
    for number, line in enumerate(out.splitlines()):
        if line.startswith("    ! "):
            notes.setdefault(rule_line, []).append(line)
        elif line.startswith("  "):
            rule_line = number
    assert all(len(n) == len(set(n)) for n in notes.values())
    flagged = len(notes)
    n, levels = len(lifted), len(lifted.levels())
    assert out.splitlines()[-1] == f"{n} rule{'s' * (n != 1)} in {levels} level{'s' * (levels != 1)}; {flagged} flagged"
    assert flagged > 0


def test_show_grounds_a_lifted_theory_only_for_its_flags(capsys, tmp_path, monkeypatch):
    """``show`` prints a lifted theory's rules as they are: it grounds the theory (the most
    of a large theory's loading) only to find the flags --mln and --query-preds ask for,
    so a theory too large to ground shows without --force."""
    from pracmln_poss.possibilistic import lifted_theory

    theory_file = tmp_path / "smokers.theory"
    assert main(["convert", str(PAPER / "smokers.mln"), "--domain", "person=Ann,Bob,Cy", "-k", "1",
                 "-o", str(theory_file)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(lifted_theory, "MAX_GROUNDINGS", 1)
    assert main(["show", str(theory_file)]) == 0
    assert "if f(p1,p2) then f(p2,p1)" in capsys.readouterr().out
    assert main(["show", str(theory_file), "--query-preds", "s"]) == 2
    assert "groundings, more than 1:" in capsys.readouterr().err


def test_verify_sample_sizes(pracmln, capsys, tmp_path):
    """--sample N checks exactly N pairs; N < 1 is a usage error, never a certificate."""
    theory_file = tmp_path / "bird.theory"
    assert main(["convert", str(PAPER / "birds-jetpack.mln"), "-k", "2", "-o", str(theory_file)]) == 0
    capsys.readouterr()
    for bad in ("-5", "0"):
        assert main(["verify", str(theory_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "2",
                     "--sample", bad, "--json"]) == 2
        assert "sample must be at least 1" in capsys.readouterr().err
    assert main(["verify", str(theory_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "2",
                 "--sample", "37", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["mode"] == "sample" and data["pairs_checked"] == 37
    assert data["pairs_total"] > 37
    assert main(["verify", str(theory_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "2",
                 "--sample", "37"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert f"on a sample of 37 of the {data['pairs_total']:,} pairs with |E| + |C| <= 3" in first


def test_verify_counts_add_up(pracmln, capsys, tmp_path):
    """Pairs whose evidence the hard formulas rule out are counted and said, so that the
    checked ones and they make the total; a sample that meets every pair is the full
    check (antarctic, k = 2: 98 pairs, 2 with antarcticBird ^ !bird)."""
    theory_file = tmp_path / "ant.theory"
    model = str(ANTARCTIC)
    assert main(["convert", model, "-k", "2", "-o", str(theory_file)]) == 0
    capsys.readouterr()
    for sample in ([], ["--sample", "97"], ["--sample", "98"], ["--sample", "500"]):
        assert main(["verify", str(theory_file), "--mln", model, "-k", "2", *sample, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert (data["mode"], data["pairs_checked"], data["pairs_impossible"], data["pairs_total"]) == \
            ("exhaustive", 96, 2, 98), sample
        assert main(["verify", str(theory_file), "--mln", model, "-k", "2", *sample]) == 0
        first, second = capsys.readouterr().out.splitlines()[:2]
        assert "for all 98 pairs with |E| + |C| <= 3" in first
        assert "96 pairs checked, 2 with evidence the hard formulas rule out" in second
    assert main(["verify", str(theory_file), "--mln", model, "-k", "2", "--sample", "10"]) == 0
    assert "on a sample of 10 of the 98 pairs" in capsys.readouterr().out


def test_convert_says_what_it_wrote_beyond_the_rules_found(pracmln, capsys, tmp_path):
    assert main(["convert", str(PAPER / "smokers.mln"), "-k", "1", "--progress", "-o", str(tmp_path / "s")]) == 0
    err = capsys.readouterr().err
    found = int(re.findall(r"([\d,]+) rules found", err)[-1].replace(",", ""))
    wrote, certain = (int(x) for x in re.search(r"wrote ([\d,]+) rules in [\d,]+ levels \(([\d,]+) of them certain",
                                                 err).groups())
    assert (found, certain, wrote) == (4, 2, 6)


def test_verify_a_focused_theory(pracmln, capsys, tmp_path):
    theory_file = tmp_path / "bird.theory"
    focus = ["--evidence-preds", "bird,heavy", "--query-preds", "flies"]
    assert main(["convert", str(PAPER / "birds-jetpack.mln"), "-k", "2", *focus, "-o", str(theory_file)]) == 0
    capsys.readouterr()
    assert main(["verify", str(theory_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "2", *focus]) == 0
    out = capsys.readouterr().out
    assert "E over bird, heavy, C over flies" in out
    # the focused theory does not answer questions outside its focus: verify says so
    assert main(["verify", str(theory_file), "--mln", str(PAPER / "birds-jetpack.mln"), "-k", "2"]) == 1


def test_theories_and_explanations_print_as_text_and_render_in_notebooks():
    """print() gives the text format, a notebook a table per level (certain rules last,
    warnings marked), repr a one-line summary; an explanation prints as `explain` does."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.formats import dumps
    from pracmln_poss.insight.explain import explain
    from pracmln_poss.insight.show import Flag, show_html
    from pracmln_poss.transformations import transform_mln

    model = load_model(PAPER / "smokers.mln", domains={"person": ["A", "B"]}).model
    lifted = transform_mln(model, k=1)
    theory = lifted.ground()
    for t in (lifted, theory):
        assert str(t) == dumps(t)
        assert repr(t) == f"<{type(t).__name__}: {len(t)} formulas in {len(t.levels())} levels over 8 atoms>"
        page = t._repr_html_()
        assert page.count("<table>") == len(set(pf.steps for pf in t.formulas))
        assert page.index("<b>certain") > page.rindex("<b>level ")
    flagged = show_html(theory, [Flag(theory.formulas[-1], "a <warning>")])
    assert "&#9888; a &lt;warning&gt;" in flagged and "1 flagged" in flagged
    why = explain(theory, ["s(A)"], "!c(A)")
    assert str(why).startswith("query: !c(A)\nevidence: s(A)\nentailed: no")
    assert "a most plausible world of the evidence" in str(why) and why._repr_html_().startswith("<pre>")


def test_explain_lists_a_conflict_once_whatever_the_order_of_its_literals():
    from pracmln_poss import PossibilisticTheory

    theory = PossibilisticTheory.from_pairs([("a(T) v b(T)", 0.5), ("b(T) v a(T)", 0.5), ("!a(T) v c(T)", 0.5),
                                             ("!a(T)", 1), ("!b(T)", 1)])
    found = explain(theory, [], "a(T)")
    assert [formula_line(pf, theory) for pf in found.conflicting] == ["lambda_0.5: a(T) v b(T)"]


def test_certain_rules_read_as_facts():
    from pracmln_poss.insight.show import show_text

    theory = PossibilisticTheory.from_pairs([("Cancer(Ann)", "inf"), ("a v b", "inf"), ("a", 1)])
    text = show_text(theory)
    assert "  fact: Cancer(Ann)" in text and "  always a or b" in text and "  by default a" in text
    assert "by default Cancer(Ann)" not in text


def test_a_large_theory_shows_in_a_notebook_as_pandas_would():
    from pracmln_poss.insight.show import HTML_LEVELS, HTML_RULES, show_html

    pairs = [(f"p{i}_{j}", i + 1) for i in range(HTML_LEVELS + 5) for j in range(HTML_RULES + 3)] + [("q", "inf")]
    theory = PossibilisticTheory.from_pairs(pairs)
    page = theory._repr_html_()
    assert page.count("<table>") == HTML_LEVELS and "<b>certain (1 rule)</b>" in page
    assert page.count("<code>by default p") == (HTML_LEVELS - 1) * HTML_RULES
    assert "... 3 more rules" in page and "... 6 more levels" in page and "lists every rule" in page
    assert show_html(theory, max_levels=None, max_rules=None).count("<code>by default p") == len(pairs) - 1
    small = PossibilisticTheory.from_pairs([("a", 1), ("b", "inf")])._repr_html_()
    assert "more" not in small and "Not all shown" not in small


def test_blocking_rules_are_marked_and_never_flagged_off_target():
    from pracmln_poss.insight.show import show_text

    theory = PossibilisticTheory.from_pairs([("e(A) => q(A)", 1), ("!e(A)", 0.5), ("!e(A) v r(A)", 0.5)])
    theory = PossibilisticTheory(theory.atoms, tuple(
        dataclasses.replace(pf, origin="blocking {e(A)}" if i == 1 else "{}") for i, pf in enumerate(theory.formulas)),
        theory.resolution)
    flags = off_target_rules(theory, ["q"])
    assert [theory.format(f.rule.formula) for f in flags] == ["!e(A) v r(A)"]  # a default about r, not the blocking rule
    text = show_text(theory)
    assert "  by default !e(A)  (blocking)" in text and "1 blocking" in text and "concludes nothing itself" in text


def test_explain_gives_the_rule_that_concludes_the_query_not_its_contrapositive():
    """Of two minimal reasons, the rule concluding the query is given, whatever the order
    of the theory (pracmln's learned smokers cited ``(!Cancer(B) ^ Friends(A,B)) =>
    !Smokes(A)`` for ``Cancer(B)``); a blocking rule is given only where nothing else does."""
    direct = ("(f(A,B) ^ s(A)) => c(B)", 1)
    contrapositive = ("(!c(B) ^ f(A,B)) => !s(A)", 1)
    for pairs in ([contrapositive, direct], [direct, contrapositive]):
        theory = PossibilisticTheory.from_pairs(pairs)
        why = explain(theory, ["s(A)", "f(A,B)"], "c(B)")
        assert [theory.format(pf.formula) for pf in why.rules] == ["(f(A,B) ^ s(A)) => c(B)"]
        why = explain(theory, ["!c(B)", "f(A,B)"], "!s(A)")
        assert [theory.format(pf.formula) for pf in why.rules] == ["(!c(B) ^ f(A,B)) => !s(A)"]
    from pracmln_poss.possibilistic.theory import BLOCKING_ORIGIN, PossibilisticFormula

    theory = PossibilisticTheory.from_pairs([direct, ("c(B)", 1)])
    blocking = theory.with_formulas((PossibilisticFormula(theory.formula("c(B)"), 1, BLOCKING_ORIGIN + "{}"),
                                     theory.formulas[0]))
    why = explain(blocking, ["s(A)", "f(A,B)"], "c(B)")
    assert [pf.blocking for pf in why.rules] == [False]
    assert [pf.blocking for pf in explain(blocking, [], "c(B)").rules] == [True]


def test_explain_takes_a_lifted_theory_and_is_at_the_root():
    import pracmln_poss

    theory = pracmln_poss.transform(pracmln_poss.load_first_order(str(PAPER / "smokers.mln")), k=2)
    assert type(theory).__name__ == "LiftedTheory"
    why = pracmln_poss.explain(theory, ["s(Alice)", "f(Alice,Bob)"], "s(Bob)")
    assert isinstance(why, pracmln_poss.Explanation) and why.entailed and why.rules
    assert why.text() == explain(theory.ground(), ["s(Alice)", "f(Alice,Bob)"], "s(Bob)").text()
    with pytest.raises(pracmln_poss.PossError, match="takes a PossibilisticTheory or a LiftedTheory"):
        explain("smokers.theory", [], "s(Bob)")


def test_an_answer_counts_its_drowned_rules_instead_of_listing_them():
    from pracmln_poss.possibilistic.reasoner import Reasoner

    theory = PossibilisticTheory.from_pairs([("a(T)", 1), ("b(T)", 1), ("!a(T)", 2)])
    with possibilistic_inference(theory) as ask:
        answer = ask.query(["b(T)"], "!a(T)")
    assert len(answer.drowned) == 2
    assert repr(answer) == "Answer(entailed=True, consistency_level=2.0, drowned=<2 rules>)"
    with Reasoner(theory) as reasoner:
        assert repr(reasoner.query([], "b(T)")).endswith("drowned=<2 rules>)")
    with possibilistic_inference(PossibilisticTheory.from_pairs([("a(T)", 1), ("!a(T)", 2)])) as ask:
        assert repr(ask.query([], "!a(T)")).endswith("drowned=<1 rule>)")


def _digest_claims(text):
    """What a digest says: (evidence, conclusions) per line of its three sections."""
    claims, section = [], None
    for line in text.splitlines():
        if line.startswith("with no evidence"):
            section = "none"
        elif line.startswith(("one observation", "two observations")):
            section = "some"
        elif not line.startswith("  ") or line.strip() in ("nothing", "none") or line.startswith("  ..."):
            section = None if not line.startswith("  ") else section
        elif section == "none":
            claims.append(((), [line.strip()]))
        elif section == "some":
            body, _, said = line.strip().removeprefix("if ").partition(": ")
            conclusions = [c for part in said.split("; ") for c in part.rsplit(" [", 1)[0].split(", ")]
            claims.append((tuple(body.split(" ^ ")), conclusions))
    return claims


@settings(max_examples=examples(60), deadline=None)
@given(ground_mlns(min_atoms=2, max_atoms=4, max_formulas=5), st.integers(1, 2))
def test_what_a_digest_says_the_theory_entails(mln, k):
    """Every conclusion a digest prints of a theory (with no evidence, for one observation,
    for a pair) is entailed by the theory under that evidence: the digest reads the rules
    the transformation made for each evidence set, and says nothing they do not."""
    from pracmln_poss.insight.digest import digest_text

    assume(MapReference(mln).consistent)
    theory = transform_mln(mln, "defaults", k=k)
    text = digest_text(theory)
    n, levels = len(theory), len(theory.levels())
    assert text.splitlines()[0].startswith(f"{n:,} rule{'s' * (n != 1)} in {levels:,} level{'s' * (levels != 1)}")
    with possibilistic_inference(theory) as ask:
        for evidence, conclusions in _digest_claims(text):
            for conclusion in conclusions:
                assert ask.entails(list(evidence), conclusion), (evidence, conclusion, text)


def test_the_digest_of_the_antarctic_bird_reads_as_the_readme(pracmln, capsys):
    """A bird flies by default; an antarctic bird flies too, at level 5 (although the
    model's ``5 antarcticBird(x) => !flies(x)`` reads otherwise: flagged first); one that
    does not fly is still a bird, at level 10."""
    assert main(["show", str(ANTARCTIC.parent.parent.parent / "tests" / "golden" / "antarctic-k2.theory"), "--digest",
                 "--mln", str(ANTARCTIC)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("7 rules in 4 levels: 1 for no evidence, 3 for one literal, 1 for two literals; "
                                   "1 blocking, 1 certain, 0 other")
    assert out.index("flagged (1):") < out.index("with no evidence (1 rule):\n  !antarcticBird(Tweety)\n")
    assert "  if bird(Tweety): flies(Tweety) [lambda_0]\n" in out
    assert "  if antarcticBird(Tweety): bird(Tweety), flies(Tweety) [lambda_5]\n" in out
    assert "  if antarcticBird(Tweety) ^ !flies(Tweety): bird(Tweety) [lambda_10]\n" in out
    assert out.endswith("rules per level: 0: 3; [1, 10): 2; [10, 100): 1; certain: 1\n")


@pytest.mark.slow
def test_the_digest_of_a_learned_model_fits_a_screen(pracmln, capsys, tmp_path):
    """Object-recognition over one cluster at k = 2 (88,763 rules): under 100 lines, the
    defaults first (the model's guess with no evidence: Ketchup), colour and shape among
    the observations that change it, and the pairs counted past those listed."""
    import glob

    examples_folder = pracmln.utils.locs.examples
    project = glob.glob(f"{examples_folder}/object-recognition/object-recognition.pracmln")[0]
    theory = tmp_path / "or1.theory"
    assert main(["convert", f"{project}:learnt.cll.scenes-new-object-detection.mln", "--domain-size", "cluster=1",
                 "--evidence-preds", "color,goggles,goggles_Logo,goggles_Product,goggles_Text,scene,shape",
                 "-k", "2", "--quiet", "-o", str(theory)]) == 0
    capsys.readouterr()
    assert main(["show", str(theory), "--digest"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) < 100
    assert out.startswith("88,763 rules in 1,633 levels")
    assert "with no evidence (21 rules):\n  object(Cluster1,Ketchup)\n" in out
    # (observations of one predicate that conclude the same on one line)
    assert ("  if color(Cluster1,X) for X in black, yellow (2 observations, each alone): "
            "object(Cluster1,Pancake_maker), !object(Cluster1,Ketchup) [lambda_0.97392]") in out
    assert re.search(r"\n  \.\.\. and [\d,]+ more pairs \(show lists every rule\)\n", out)


def test_no_flag_rests_on_a_blocking_rule(pracmln, capsys, tmp_path):
    """pracmln's vegetarians, k = 2: ``show --mln`` hung its "overturns 1.4 female(x) =>
    vegetarian(x)" on ``by default !vegetarian(p1) (blocking)``, which concludes nothing
    itself; the flag is on the rule that concludes it, ``if female(p1) then !vegetarian(p1)``."""
    import glob

    project = glob.glob(f"{pracmln.utils.locs.examples}/vegetarians/vegetarians.pracmln")[0]
    theory = tmp_path / "veg.theory"
    assert main(["convert", project, "-k", "2", "--quiet", "-o", str(theory)]) == 0
    capsys.readouterr()
    assert main(["show", str(theory), "--mln", project]) == 0
    lines = capsys.readouterr().out.splitlines()
    flagged = [lines[i - 1] for i, line in enumerate(lines) if line.startswith("    ! overturns")]
    flagged = [rule for rule in flagged if not rule.startswith("    !")]
    assert "  if female(p1) then !vegetarian(p1)" in flagged
    assert not any(rule.endswith("(blocking)") for rule in flagged)


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_every_explanation_of_a_lifted_theory_is_checked(data):
    """Explaining on a lifted theory's clauses (a minimal set of rules, then of their
    groundings; drowned formulas asked under the cut with the worlds found so far): the
    answer, consistency level, drowned, conflicting and deciding formulas are those of
    the ground theory's explanation, the rules a minimal set of its formulas that entails
    the query, the countermodel a model of the cut and the evidence where it fails."""
    m = data.draw(first_order_mlns())
    assume(MapReference(ground_model(m)).consistent)
    lifted = transform_mln(m, "lifted", k=data.draw(st.integers(1, 2)), long_blocking=data.draw(st.booleans()))
    grounded = lifted.ground()
    n = grounded.n_atoms
    evidence = data.draw(literal_sets(n))
    q = query = data.draw(formulas(n))
    try:
        why = explain(lifted, evidence, query)
    except InconsistentEvidenceError:
        with pytest.raises(InconsistentEvidenceError):
            explain(grounded, evidence, query)
        return
    same = explain(grounded, evidence, query)
    assert (why.entailed, why.consistency_steps, why.drowned, why.conflicting, why.would_decide) == \
        (same.entailed, same.consistency_steps, same.drowned, same.conflicting, same.would_decide)
    ev_lits = list(evidence)
    active = [pf.formula for pf in grounded.formulas if pf.steps >= why.consistency_steps]
    conflicting, deciding, seen = [], [], set()
    for pf in why.drowned:  # (by brute force: each drowned formula, once up to its members' order)
        if _alike(pf) in seen:
            continue
        seen.add(_alike(pf))
        if not models_of(active + [pf.formula], ev_lits, n):
            conflicting.append(pf)
        elif not why.entailed:
            for value, target in ((True, q), (False, negate(q))):
                if entails_classically(active + [pf.formula], ev_lits, target, n):
                    deciding.append((pf, value))
                    break
    assert (list(why.conflicting), list(why.would_decide)) == (conflicting, deciding)
    if why.entailed:
        cut = {(pf.formula, pf.steps) for pf in grounded.formulas if pf.steps >= why.consistency_steps}
        assert all((pf.formula, pf.steps) in cut for pf in why.rules)
        rules = [pf.formula for pf in why.rules]
        assert entails_classically(rules, ev_lits, q, n)
        for i in range(len(rules)):
            assert not entails_classically(rules[:i] + rules[i + 1:], ev_lits, q, n)
    else:
        w = {abs(lit): lit > 0 for lit in why.countermodel}
        world = (False, *(w.get(a, False) for a in range(1, n + 1)))
        assert all(world[abs(lit)] == (lit > 0) for lit in ev_lits) and not evaluate(q, world)
        assert all(evaluate(pf.formula, world) for pf in grounded.formulas if pf.steps >= why.consistency_steps)
