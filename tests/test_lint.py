"""ruff and mypy (both configured in pyproject.toml) find nothing: ruff in the package,
tests, benchmarks, tools and the docs' configuration; mypy, strict, in the package."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .support import ROOT


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean():
    done = _run("ruff", "check", "pracmln_poss", "tests", "benchmarks", "tools", "docs")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_strict_is_clean():
    done = _run("mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues found" in done.stdout
