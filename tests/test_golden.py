"""Golden files: conversions of the bundled examples, byte for byte.

Output is deterministic (same input and options, same bytes), so a change in any
theory these commands write shows here, whatever its cause.  After an intended change,
regenerate with ``PRACMLN_POSS_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and read
the diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pracmln_poss.cli import main

from .support import ROOT

GOLDEN = Path(__file__).resolve().parent / "golden"

PAPER = "examples/paper"
PRACMLN = "tests/data/pracmln"
CASES = {
    "antarctic-k2": ["examples/antarctic/antarctic.mln", "--method", "defaults", "-k", "2"],
    "example5-k1": [f"{PAPER}/example5-defaults.mln", "--method", "defaults", "-k", "1"],
    "example5-k3": [f"{PAPER}/example5-defaults.mln", "--method", "defaults", "-k", "3"],
    "example4-selective": [f"{PAPER}/example4-selective.mln", "--method", "selective",
                           "--family", f"{PAPER}/example4-family.txt"],
    "example3-exhaustive": [f"{PAPER}/example3-exhaustive.mln", "--method", "exhaustive"],
    "birds-lifted-k3": [f"{PAPER}/birds-jetpack.mln", "--method", "lifted", "-k", "3"],
    "birds-defaults-k3": [f"{PAPER}/birds-jetpack.mln", "--method", "defaults", "-k", "3"],
    "birds-long-aggressive-k3": [f"{PAPER}/birds-jetpack.mln", "-k", "3", "--blocking", "long",
                                 "--filter", "aggressive"],
    "birds-k2-json": [f"{PAPER}/birds-jetpack.mln", "-k", "2", "--format", "json"],
    "birds-k2-latex": [f"{PAPER}/birds-jetpack.mln", "-k", "2", "--format", "latex"],
    "smokers-k4": [f"{PAPER}/smokers.mln", "-k", "4"],
    "smokers-defaults-k3": [f"{PAPER}/smokers.mln", "-k", "3", "--method", "defaults", "--domain", "person=A,B,C"],
    "cora-k2-conservative": [f"{PAPER}/cora.mln", "-k", "2", "--filter", "conservative"],
    "cora-2x2-k2-defaults": [f"{PAPER}/cora.mln", "--domain", "pap=PossPaper,GraphPaper",
                             "--domain", "per=Steven,Jesse", "-k", "2", "--method", "defaults"],
    "smokers-learnt-k2": [f"{PRACMLN}/smokers/mlns/learnt.bpll.smoking-train-smoking.mln",
                          "--db", f"{PRACMLN}/smokers/dbs/smoking-test-smaller.db", "-k", "2"],
    "tweety-k2": [f"{PRACMLN}/tweety/mlns/tweety-conj.mln", "--db", f"{PRACMLN}/tweety/dbs/query1.db",
                  "-k", "2", "--method", "defaults"],
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_conversion_matches_its_golden_file(name, pracmln, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["convert", *CASES[name], "--quiet"]) == 0
    out = capsys.readouterr().out
    golden = GOLDEN / f"{name}.theory"
    if os.environ.get("PRACMLN_POSS_UPDATE_GOLDEN"):
        golden.write_text(out)
    assert golden.exists(), f"no golden file {golden.name}: run with PRACMLN_POSS_UPDATE_GOLDEN=1"
    assert out == golden.read_text(), f"{name}: the output differs from {golden.name}"


def test_every_golden_file_has_its_case():
    assert sorted(p.stem for p in GOLDEN.glob("*.theory")) == sorted(CASES)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cora-2x2-k2-defaults", "example4-selective", "birds-long-aggressive-k3",
                                  "birds-k2-json", "smokers-learnt-k2"])
def test_a_theory_records_the_command_that_makes_it_again(name, pracmln, capsys, monkeypatch):
    """The ``made by`` line of a theory file (or ``made_by`` of a JSON one) is the command
    that writes the same file again, the default method named; the readers take it as nothing."""
    import json
    import shlex

    from pracmln_poss.formats import loads

    monkeypatch.chdir(ROOT)
    text = (GOLDEN / f"{name}.theory").read_text()
    made_by = json.loads(text)["made_by"] if text.startswith("{") else text.splitlines()[1].removeprefix("// made by: ")
    command, _, said = made_by.rpartition(" (")
    assert said == "the world left open)" and "--method" in command
    words = shlex.split(command)
    assert words[:2] == ["pracmln-poss", "convert"]
    format_ = ["--format", "json"] if text.startswith("{") else []
    assert main([*words[1:], *format_, "--quiet"]) == 0
    assert capsys.readouterr().out == text
    without = "\n".join(line for line in text.splitlines() if "made by" not in line and "made_by" not in line) + "\n"
    assert loads(text, ground=False) == loads(without, ground=False)
