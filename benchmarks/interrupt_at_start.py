#!/usr/bin/env python3
"""Ctrl-C while the command line starts: ``python -m pracmln_poss convert smokers.mln -k 1``
sent SIGINT 4 to 44 ms in (a millisecond apart, over and over), and what each run ended
with, counted: one line and status 130 (the target), a traceback from inside the package's
imports (ours to prevent), a traceback or a kill before the package runs (the interpreter's
start and ``site``: out of reach).  ``--tree`` runs another checkout in the same loop, the
trees alternating run by run (old against new).

    python benchmarks/interrupt_at_start.py [--runs 200] [--tree old=/path/to/checkout]
"""

from __future__ import annotations

import argparse
import compileall
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST, STEPS = 0.004, 40
"""The first delay, and how many delays a millisecond apart the runs cycle through."""

OUTCOMES = ("one line, status 130", "traceback from inside the package's imports",
            "traceback before the package runs", "killed by SIGINT, nothing said", "other")


def outcome(tree: Path, delay: float) -> str:
    """How a run of ``tree``'s command line sent Ctrl-C ``delay`` seconds in ended."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as out:  # (run from elsewhere: -m takes the working directory's package first)
        cmd = [sys.executable, "-m", "pracmln_poss", "convert", str(ROOT / "examples/paper/smokers.mln"), "-k", "1",
               "--quiet"]
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
                                   cwd=out)
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    if process.returncode == 130 and err == "pracmln-poss: interrupted\n":
        return OUTCOMES[0]
    if "Traceback" in err:
        return OUTCOMES[1] if f"{os.sep}pracmln_poss{os.sep}" in err else OUTCOMES[2]
    if process.returncode == -signal.SIGINT and not err:
        return OUTCOMES[3]
    return OUTCOMES[4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200, help="runs per checkout (default 200)")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                        help="another checkout to measure in the same loop (this one is 'this')")
    args = parser.parse_args()
    trees = {"this": ROOT, **{name: Path(path).resolve() for name, path in (t.split("=", 1) for t in args.tree)}}
    for tree in trees.values():  # (byte-compiled, as installed: compiling would widen the window)
        compileall.compile_dir(str(tree / "pracmln_poss"), quiet=1)
    counts = {name: Counter[str]() for name in trees}
    for i in range(args.runs):
        for name, tree in trees.items():
            counts[name][outcome(tree, FIRST + (i % STEPS) * 0.001)] += 1
    print(f"Ctrl-C {FIRST * 1000:.0f} to {(FIRST + (STEPS - 1) * 0.001) * 1000:.0f} ms into the command, "
          f"{args.runs} runs each:\n")
    print("| outcome | " + " | ".join(trees) + " |")
    print("|---|" + "---:|" * len(trees))
    for what in OUTCOMES:
        print(f"| {what} | " + " | ".join(str(counts[name][what]) for name in trees) + " |")


if __name__ == "__main__":
    main()
