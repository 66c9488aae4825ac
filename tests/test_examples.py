"""The commands in examples/README.md give exactly the outputs shown there."""

from __future__ import annotations

import re
import shlex

import pytest

from pracmln_poss.cli import main

from .conftest import ROOT

README = ROOT / "examples" / "README.md"


def sessions():
    """(command, expected output) pairs from the console blocks of the examples README."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(), flags=re.DOTALL):
        command, expected = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    out.append((command, "\n".join(expected) + "\n"))
                command, expected = line[2:], []
            else:
                expected.append(line)
        if command:
            out.append((command, "\n".join(expected) + "\n"))
    return out


@pytest.mark.parametrize("command, expected", [
    pytest.param(c, e, id=c, marks=pytest.mark.slow if " -k 4" in c else ())  # (seconds)
    for c, e in sessions()
])
def test_example_output(pracmln, capsys, monkeypatch, command, expected):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "pracmln-poss"
    assert main(argv[1:]) == 0
    assert capsys.readouterr().out == expected
