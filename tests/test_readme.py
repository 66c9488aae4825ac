"""Every console block of the README gives the output shown there.

Each block runs in a fresh directory that sees the repository's ``examples/`` and a
``.venv/bin/pracmln-poss`` (the one installed with these tests), through ``bash``, so
that pipes (``| head``) work as the reader types them; a bare ``pracmln-poss`` is not
on the reader's PATH after the set-up, so the README never uses one.  Timings
(``11.89 s``) may differ; everything else must match.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .support import ROOT, console_sessions

README = ROOT / "README.md"
EXE = Path(sys.executable).parent / "pracmln-poss"


def blocks() -> list[list[tuple[str, str]]]:
    """Per console block, its (command, expected output) pairs."""
    return console_sessions(README)


def _timeless(text: str) -> str:
    return re.sub(r"\b\d+\.\d+ s\b", "T s", text)


@pytest.mark.slow
@pytest.mark.parametrize("block", blocks(), ids=[b[0][0][:60] for b in blocks()])
def test_readme_console_block(pracmln, tmp_path, block):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "pracmln-poss").symlink_to(EXE)
    env = {**os.environ, "PATH": f"{tmp_path / 'empty'}:{os.environ.get('PATH', '')}"}
    for command, expected in block:
        assert not command.startswith("pracmln-poss "), "the README must say .venv/bin/pracmln-poss"
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300)
        assert "Traceback" not in done.stderr, done.stderr
        # a block separates commands by a blank line: trailing blank lines do not count
        assert _timeless(done.stdout).rstrip("\n") == _timeless(expected).rstrip("\n"), command


def test_the_readme_has_console_blocks():
    assert len(blocks()) >= 4 and all(blocks())


def pycon_blocks() -> list[str]:
    """The README's Python sessions (```pycon blocks)."""
    return re.findall(r"^```pycon\n(.*?)^```$", README.read_text(), re.S | re.M)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(pycon_blocks())))
def test_readme_python_session(pracmln, monkeypatch, index):
    """Every Python session of the README gives the output shown there (run from the
    repository's root, as its relative paths say)."""
    import doctest

    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(pycon_blocks()[index], {}, f"README.md session {index + 1}",
                                               str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_has_a_python_session():
    assert pycon_blocks()
