#!/usr/bin/env python3
"""Set everything up in ./.venv and run the main job on a bundled example.

    python3 tools/bootstrap.py            # set up, then run the example
    python3 tools/bootstrap.py --no-run   # set up only (what .ci/run uses)

Creates the virtual environment, installs pracmln 1.2.4 from PyPI (with the
workaround of tools/install_pracmln.py), this package with its test extras, and
tox.  Safe to run again: it installs only what is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
BIN = os.path.join(VENV, "Scripts" if os.name == "nt" else "bin")
PY = os.path.join(BIN, "python")
EXAMPLE = ["convert", os.path.join("examples", "antarctic", "antarctic.mln"), "--method", "defaults", "-k", "2"]


def run(*cmd: str) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        sys.exit(f"pracmln_poss needs Python 3.11 or newer, not {sys.version.split()[0]}")
    if not os.path.exists(PY):
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--upgrade", "pip", "setuptools", "wheel")
    run(PY, os.path.join("tools", "install_pracmln.py"))
    run(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", ".[test]", "tox")
    if "--no-run" not in argv:
        run(os.path.join(BIN, "pracmln-poss"), *EXAMPLE)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
