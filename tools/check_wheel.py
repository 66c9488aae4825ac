#!/usr/bin/env python3
"""The package as a user installs it: build the sdist and the wheel, check them, install
the wheel into a fresh virtual environment and run the installed command there.

1. ``python -m build`` makes ``dist/*.tar.gz`` and ``dist/*.whl`` (into a temporary
   folder; ``--keep DIR`` keeps them there), and ``twine check`` checks both.
2. A fresh virtual environment gets pracmln (``tools/install_pracmln.py``: pip cannot build
   it alone) and the wheel, nothing of the working tree.
3. In an empty folder holding only the bundled example, the installed ``pracmln-poss``
   converts it: its output must be the README's first console block, and the package it
   ran must be the environment's own.

Run by ``.ci/run``; by hand: ``.venv/bin/python tools/check_wheel.py`` (it installs
``build`` and ``twine`` into the Python running it when they are missing).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = Path("examples/antarctic/antarctic.mln")


def run(*cmd: str | Path, cwd: Path | None = None) -> str:
    """The command's standard output; its whole output and status when it fails."""
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check_wheel: {' '.join(map(str, cmd))} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def expected_output() -> tuple[str, str]:
    """The README's first console block: its command and the output it shows."""
    block = re.search(r"^```console\n\$ (.*?)\n(.*?)^```$", (ROOT / "README.md").read_text(), re.S | re.M)
    if block is None:
        sys.exit("check_wheel: the README has no console block")
    return block.group(1), block.group(2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build into this folder and keep what is built there")
    args = parser.parse_args()
    for tool in ("build", "twine"):
        if subprocess.run([sys.executable, "-c", f"import {tool}"], capture_output=True).returncode != 0:
            run(sys.executable, "-m", "pip", "install", "--quiet", tool)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        dist = args.keep or work / "dist"
        run(sys.executable, "-m", "build", "--outdir", dist, ROOT)
        wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
        if len(wheels) != 1 or len(sdists) != 1:
            sys.exit(f"check_wheel: expected one wheel and one sdist in {dist}, found {wheels + sdists}")
        run(sys.executable, "-m", "twine", "check", "--strict", wheels[0], sdists[0])
        env = work / "env"
        venv.create(env, with_pip=True)
        python = env / "bin" / "python"
        run(python, ROOT / "tools" / "install_pracmln.py")
        run(python, "-m", "pip", "install", "--quiet", wheels[0])
        user = work / "user"
        (user / EXAMPLE.parent).mkdir(parents=True)
        shutil.copy(ROOT / EXAMPLE, user / EXAMPLE)
        where = run(python, "-c", "import pracmln_poss; print(pracmln_poss.__file__)", cwd=user).strip()
        if not where.startswith(str(env)):
            sys.exit(f"check_wheel: the environment's Python imported pracmln_poss from {where}, not from {env}")
        command, shown = expected_output()
        words = command.split()
        if words[0] != ".venv/bin/pracmln-poss":
            sys.exit(f"check_wheel: the README's first console block runs {words[0]}, not .venv/bin/pracmln-poss")
        out = run(env / "bin" / "pracmln-poss", *words[1:], cwd=user)
        if out.rstrip("\n") != shown.rstrip("\n"):
            sys.exit(f"check_wheel: the installed command printed\n{out}\nwhere the README shows\n{shown}")
        print(f"check_wheel: built {wheels[0].name} and {sdists[0].name}, twine check passed; installed in a "
              f"fresh environment, `pracmln-poss {' '.join(words[1:])}` prints the README's output")
    return 0


if __name__ == "__main__":
    sys.exit(main())
