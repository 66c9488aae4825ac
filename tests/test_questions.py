"""Files of questions for ``query`` and ``explain``: both line forms read back what was
written, every question answered as it would be alone, and a bad line refused before
anything is answered."""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import FormulaSyntaxError
from pracmln_poss.formats.questions import parse_questions

from .support import ROOT, run_cli

THEORY = ROOT / "tests" / "golden" / "antarctic-k2.theory"
QUESTIONS = [
    ("flies(Tweety)", ("bird(Tweety)",)),
    ("flies(Tweety)", ("bird(Tweety)", "antarcticBird(Tweety)")),
    ("!flies(Tweety)", ("antarcticBird(Tweety)", "!bird(Tweety)")),  # (contradicts the certain rule)
    ("flies(Tweety) v bird(Tweety)", ()),
    ("bird(Tweety)", ("antarcticBird(Tweety)", "!flies(Tweety)")),
]

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1,
                max_size=12).filter(lambda t: t.strip() == t and t.strip() and t not in ("-q", "-e", "--query",
                                                                                       "--evidence"))


def _words(query: str, evidence: tuple[str, ...]) -> str:
    return shlex.join(["-q", query] + (["-e", *evidence] if evidence else []))


def _json(query: str, evidence: tuple[str, ...]) -> str:
    return json.dumps({"query": query, "evidence": list(evidence)})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(texts, st.lists(texts, max_size=3).map(tuple), st.booleans()), max_size=6))
def test_both_forms_read_back_what_was_written(items):
    lines = ["# a comment", ""]
    lines += [(_json if as_json else _words)(q, e) for q, e, as_json in items]
    found = parse_questions("\n".join(lines), "q.txt")
    assert [(q.query, q.evidence) for q in found] == [(q, e) for q, e, _ in items]
    assert [q.position.line for q in found] == list(range(3, 3 + len(items)))


@pytest.mark.parametrize("line, message", [
    ("flies(Tweety)", "neither -q FORMULA nor -e LIT"),
    ("-e bird(Tweety)", "no query"),
    ("-q a -q b", "two queries"),
    ("-q 'open", "cannot split into words"),
    ('{"query": "a", "evidence": "b"}', "must be a list of literals"),
    ('{"query": "a", "given": ["b"]}', "unknown key 'given'"),
    ('{"query": ""}', "\"query\" must be a formula"),
    ("{not json", "not a JSON object"),
    ("[1]", "neither -q FORMULA"),
])
def test_a_bad_line_is_named(line, message):
    with pytest.raises(FormulaSyntaxError, match=message) as caught:
        parse_questions(f"-q a\n{line}\n", "q.txt")
    assert caught.value.position.line == 2 and caught.value.position.text == line
    assert str(caught.value).startswith(f"q.txt:2: {line}: ")


@pytest.mark.parametrize("command", ["query", "explain"])
def test_every_question_answered_as_it_would_be_alone(tmp_path, command):
    questions = tmp_path / "questions.txt"
    questions.write_text("\n".join((_json if i % 2 else _words)(q, e) for i, (q, e) in enumerate(QUESTIONS)) + "\n")
    code, out, err = run_cli(command, THEORY, "--questions", questions, "--json")
    assert (code, err) == (0, "")
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(QUESTIONS)
    for (query, evidence), answer in zip(QUESTIONS, answers):
        assert (answer.pop("query"), tuple(answer.pop("evidence"))) == (query, evidence)
        alone = run_cli(command, THEORY, "-q", query, *(["-e", *evidence] if evidence else []), "--json")
        if "inconsistent" in answer:
            assert alone[0] == 2 and answer["inconsistent"] in alone[2]
        else:
            assert alone[0] == 0 and json.loads(alone[1]) == answer
    code, text, _ = run_cli(command, THEORY, "--questions", questions)
    blocks = text.split("\n\n")
    assert code == 0 and len(blocks) == len(QUESTIONS)
    first = run_cli(command, THEORY, "-q", QUESTIONS[0][0], "-e", *QUESTIONS[0][1])[1]
    assert blocks[0] + "\n" == first
    assert blocks[2].endswith("\ninconsistent: evidence {antarcticBird(Tweety), !bird(Tweety)} contradicts the "
                              "certain part of the theory")


@pytest.mark.parametrize("command", ["query", "explain"])
def test_a_bad_question_answers_nothing(tmp_path, command):
    questions = tmp_path / "questions.txt"
    questions.write_text("-q flies(Tweety)\n-q fly(Bob) -e bird(Tweety)\n")
    code, out, err = run_cli(command, THEORY, "--questions", questions)
    assert code == 2 and out == ""
    assert err.strip().startswith(f"pracmln-poss: error: {questions}:2: -q fly(Bob) -e bird(Tweety): unknown atom")
    code, out, err = run_cli(command, THEORY, "--questions", questions, "-q", "flies(Tweety)")
    assert code == 2 and "give it without --query and --evidence" in err
    code, out, err = run_cli(command, THEORY)
    assert code == 2 and "give --query FORMULA (with --evidence), or --questions FILE" in err
    code, out, err = run_cli(command, THEORY, "--questions", tmp_path / "missing.txt")
    assert code == 2 and "missing.txt" in err and out == ""
