"""ruff (configured in pyproject.toml) finds nothing in the package, tests, benchmarks and tools."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "pracmln_poss", "tests", "benchmarks", "tools"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
