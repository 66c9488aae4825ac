"""Every console block of the README, and of the documentation pages moved out of it,
gives the output shown there (and every Python session its output).

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
PAGES = [README, *(ROOT / "docs" / f"{name}.md" for name in ("guide", "cli", "python", "development"))]
"""The README and the pages of the documentation that were its sections."""
EXE = Path(sys.executable).parent / "pracmln-poss"


def blocks() -> list[list[tuple[str, str]]]:
    """Per console block of every page, its (command, expected output) pairs."""
    return [block for page in PAGES for block in console_sessions(page)]


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
    """The Python sessions (```pycon blocks) of every page."""
    return [session for page in PAGES for session in re.findall(r"^```pycon\n(.*?)^```$", page.read_text(), re.S | re.M)]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(pycon_blocks())))
def test_readme_python_session(pracmln, monkeypatch, index):
    """Every Python session of the README gives the output shown there (run from the
    repository's root, as its relative paths say)."""
    import doctest

    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(pycon_blocks()[index], {}, f"session {index + 1}", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_has_a_python_session():
    assert re.search(r"^```pycon\n", README.read_text(), re.M) and len(pycon_blocks()) >= 2


def test_the_readme_is_a_landing_page():
    """Under 250 lines, and every page it sends the reader to is in the documentation."""
    text = README.read_text()
    assert len(text.splitlines()) < 250
    linked = set(re.findall(r"\]\(docs/([\w-]+)\.md\)", text))
    index = (ROOT / "docs" / "index.rst").read_text()
    assert {"guide", "cli", "python", "benchmarks", "development", "semantics"} <= linked
    assert all((ROOT / "docs" / f"{name}.md").exists() and f"\n   {name}\n" in index for name in linked)
