"""The HTML report's content: every rule once, in ``show``'s order and reading, its level,
evidence set, tags and warnings; no text of a theory read as markup; the same bytes for
the same theory; the command's output rules.  What a person sees of it in a browser is
tested in :mod:`.test_report_browser`."""

from __future__ import annotations

import html
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pracmln_poss.formats import load_theory
from pracmln_poss.insight.digest import digest_text
from pracmln_poss.insight.report import report_html
from pracmln_poss.insight.show import off_target_rules, render_theory_rule
from pracmln_poss.possibilistic import PossibilisticFormula, PossibilisticTheory
from pracmln_poss.weights import INF

from .strategies import theories
from .support import ROOT, run_cli

GOLDEN = ROOT / "tests" / "golden"


def page_data(page: str) -> dict:
    """The JSON the page carries, read as the page's script reads it; each rule's origin
    and tags (``origin_text``, ``rule_tags``) spelled out."""
    found = re.findall(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert len(found) == 1
    data = json.loads(found[0])
    data["origin_text"] = [data["origins"][i] for i in data["origin"]]
    ends = data["tag_end"]
    data["rule_tags"] = [data["tags"][(ends[i - 1] if i else 0):ends[i]] for i in range(len(ends))]
    return data


def test_every_rule_once_in_shows_order_with_its_level_and_evidence_set():
    theory = load_theory(GOLDEN / "cora-k2-conservative.theory", ground=False)
    flags = off_target_rules(theory.ground(), ["category"]) if not theory.types else []
    data = page_data(report_html(theory, flags, title="cora"))
    ordered = sorted(theory.formulas, key=lambda pf: pf.steps)  # (stable: the theory's order within a level)
    assert data["text"] == [render_theory_rule(pf, theory) for pf in ordered]
    assert data["origin_text"] == [pf.origin or "" for pf in ordered]
    assert len(data["origins"]) == len({pf.origin for pf in ordered})  # (each once)
    names = [data["levels"][i] for i in data["level"]]
    assert names == ["certain" if pf.steps == INF else theory.steps_name(pf.steps) for pf in ordered]
    assert data["digest"] == digest_text(theory, flags)
    assert data["blocking"] == [i for i, pf in enumerate(ordered) if pf.blocking]


def test_tags_name_the_predicates_and_constants_of_each_rule():
    theory = PossibilisticTheory.from_pairs([("wrote(Ann,P1) => !category(P1,Ai)", 1), ("refers(P1,P2)", 2)])
    data = page_data(report_html(theory))
    assert data["preds"] == ["category", "refers", "wrote"]
    assert data["consts"] == ["Ai", "Ann", "P1", "P2"]
    p = len(data["preds"])
    named = [sorted([data["preds"][t] for t in tags if t < p] + [data["consts"][t - p] for t in tags if t >= p])
             for tags in data["rule_tags"]]
    assert named == [["Ai", "Ann", "P1", "category", "wrote"], ["P1", "P2", "refers"]]


def test_flagged_rules_carry_their_warnings():
    theory = PossibilisticTheory.from_pairs([
        ("wrote(A, P1) ^ !category(P2, Ai) => !wrote(A, P2)", 1),
        ("refers(P1, P2) ^ category(P2, Os) => category(P1, Os)", 14),
    ])
    flags = off_target_rules(theory, ["category"])
    data = page_data(report_html(theory, flags))
    assert list(data["flags"]) == ["0"] and "wrote" in data["flags"]["0"][0]
    assert "flagged (1):" in data["digest"]


def test_no_text_of_a_theory_is_read_as_markup():
    hostile = '"</script><script>alert(1)</script><!--"'
    theory = PossibilisticTheory((f"p({hostile})", "q"), (PossibilisticFormula.at(
        PossibilisticTheory.from_pairs([("q", 0)]).formulas[0].formula, 1, origin=f"{{p({hostile})}}"),))
    marked = report_html(theory, title="%DATA% %TITLE%")
    assert "<title>%DATA% %TITLE%</title>" in marked and page_data(marked)["title"] == "%DATA% %TITLE%"
    page = report_html(theory, title="<b>t</b>")
    assert page.count("</script>") == 2 and "<!--" not in page and "<b>t</b>" not in page
    assert f"<title>{html.escape('<b>t</b>')}</title>" in page
    data = page_data(page)
    assert data["origin_text"] == [f"{{p({hostile})}}"] and hostile in data["consts"][0]


@settings(max_examples=40, deadline=None)
@given(theories(), st.text(max_size=12))
def test_the_same_theory_gives_the_same_bytes(theory, title):
    page = report_html(theory, title=title)
    assert page == report_html(theory, title=title)
    data = page_data(page)
    assert len(data["text"]) == len(theory) == len(data["level"]) == len(data["rule_tags"]) == len(data["origin"])
    assert data["title"] == title


def test_the_report_command_writes_one_page_and_refuses_its_input(tmp_path):
    theory = GOLDEN / "antarctic-k2.theory"
    out = tmp_path / "antarctic.html"
    code, stdout, stderr = run_cli("report", theory, "-o", out)
    assert (code, stdout, stderr) == (0, "", "")
    page = out.read_text(encoding="utf-8")
    assert page_data(page)["title"] == "antarctic-k2.theory"
    assert page == report_html(load_theory(theory, ground=False), title="antarctic-k2.theory")
    code, stdout, _ = run_cli("report", theory)
    assert code == 0 and stdout == page
    copy = tmp_path / "copy.theory"
    copy.write_bytes(theory.read_bytes())
    code, _, stderr = run_cli("report", copy, "-o", copy)
    assert code == 2 and "is the theory of this command" in stderr and copy.read_bytes() == theory.read_bytes()
    code, _, stderr = run_cli("report", tmp_path / "missing.theory", "-o", tmp_path / "x.html")
    assert code == 2 and "missing.theory" in stderr and not (tmp_path / "x.html").exists()


def test_a_large_theory_in_a_notebook_shows_its_digest_first_and_renders_only_what_it_shows(monkeypatch):
    import pracmln_poss  # noqa: F401  (registers the displays)
    from pracmln_poss.insight import show
    from pracmln_poss.insight.show import HTML_LEVELS, HTML_RULES

    pairs = [(f"p{i}_{j}", i + 1) for i in range(HTML_LEVELS + 5) for j in range(HTML_RULES + 3)]
    large = PossibilisticTheory.from_pairs(pairs)
    rendered = []
    real = show.render_theory_rule
    monkeypatch.setattr(show, "render_theory_rule", lambda pf, theory: rendered.append(pf) or real(pf, theory))
    page = large._repr_html_()
    assert page.startswith("<details open><summary><b>digest</b>")
    assert html.escape(digest_text(large)) in page and page.index("</pre>") < page.index("<table>")
    assert len(rendered) == HTML_LEVELS * HTML_RULES  # (not one rule per row of the theory)
    small = PossibilisticTheory.from_pairs([("a", 1), ("b", "inf")])._repr_html_()
    assert "digest" not in small and small.startswith('<div class="pracmln-poss-theory">')


def test_write_report_from_python(tmp_path):
    import pracmln_poss

    theory = pracmln_poss.load_theory(GOLDEN / "antarctic-k2.theory")
    pracmln_poss.write_report(theory, tmp_path / "birds.html")
    page = (tmp_path / "birds.html").read_text(encoding="utf-8")
    assert page == pracmln_poss.report_html(theory, title="birds")
    from pracmln_poss.errors import OutputError

    with pytest.raises(OutputError, match="missing"):
        pracmln_poss.write_report(theory, tmp_path / "missing" / "x.html")
    assert not (tmp_path / "missing").exists()


def test_the_digest_lists_the_first_flagged_rules_and_counts_the_rest():
    from pracmln_poss.insight.digest import DIGEST_PAIRS

    theory = load_theory(GOLDEN / "cora-k2-conservative.theory", ground=False)
    from pracmln_poss.insight.show import lifted_flags

    ground, sources = theory.ground_with_sources()
    flags = lifted_flags(off_target_rules(ground, ["category"]), ground, sources, theory)
    assert len(flags) > DIGEST_PAIRS
    lines = digest_text(theory, flags).splitlines()
    start = lines.index(f"flagged ({len(flags)}):")
    listed = lines[start + 1:start + 1 + DIGEST_PAIRS]
    assert all("! concludes about" in line for line in listed)
    assert lines[start + 1 + DIGEST_PAIRS] == (f"  ... and {len(flags) - DIGEST_PAIRS} more flagged rules "
                                               "(show lists every one)")
    assert len(lines) < 100
