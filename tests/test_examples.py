"""The commands in examples/README.md give exactly the outputs shown there."""

from __future__ import annotations

import shlex

import pytest

from .support import ROOT, console_sessions, run_cli

README = ROOT / "examples" / "README.md"


def sessions():
    """(command, expected output) pairs from the console blocks of the examples README."""
    return [pair for block in console_sessions(README) for pair in block]


@pytest.mark.parametrize("command, expected", [
    pytest.param(c, e, id=c, marks=pytest.mark.slow if " -k 4" in c else ())  # (seconds)
    for c, e in sessions()
])
def test_example_output(pracmln, capsys, monkeypatch, command, expected):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == ".venv/bin/pracmln-poss"  # (what a reader types after the set-up: no bare command)
    code, out, err = run_cli(*argv[1:])
    assert code == 0, err
    assert out == expected
