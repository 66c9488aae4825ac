#!/usr/bin/env python3
"""Transformation 4 (lifted) on the paper's Section 5 and appendix models: wall time and
peak memory of the whole process, as the paper's Java implementation was measured.

Each case runs ``pracmln-poss convert MODEL --method lifted -k K`` in a fresh process
(start-up and pracmln's import included), timed with its peak resident memory, printed
beside the Java figures quoted in issue 6 and the targets.

    python benchmarks/lifted.py [--only bird|smokers|cora]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "examples" / "paper"

CASES = [
    # name, model, k, filter, Java (s, MB or None), target (s)
    ("bird", PAPER / "birds-jetpack.mln", 3, "none", (3.7, None), 2),
    ("smokers", PAPER / "smokers.mln", 4, "none", (371, 1100), 10),
    ("cora", PAPER / "cora.mln", 2, "conservative", (556, 430), 28),
]


def measure(name: str) -> str:
    """Run one case in a child process; its peak memory is this process's child maximum."""
    _, model, k, filtering, (java_s, java_mb), target = next(c for c in CASES if c[0] == name)
    exe = Path(sys.executable).parent / "pracmln-poss"
    start = time.perf_counter()
    out = subprocess.run(
        [str(exe), "convert", str(model), "--method", "lifted", "-k", str(k), "--filter", filtering, "--quiet"],
        capture_output=True, text=True, check=True,
    )
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    rules = sum(1 for line in out.stdout.splitlines() if line and not line.startswith(("//", "#")))
    java = f"{java_s} s" + (f", {java_mb} MB" if java_mb else "")
    return f"| {name} | {k} | {filtering} | {rules} | {elapsed:.1f} | {peak:.0f} | {java} | < {target} s, < 500 MB |"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=[c[0] for c in CASES])
    parser.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.single:
        print(measure(args.only))
        return 0
    print("| model | k | filter | rules | seconds | peak MB | Java (paper's code) | target |")
    print("|---|---:|---|---:|---:|---:|---|---:|", flush=True)
    for name, *_ in CASES:
        if args.only and name != args.only:
            continue
        # a fresh measuring process per case, so that peak memory is that case's alone
        row = subprocess.run([sys.executable, __file__, "--only", name, "--single"],
                             capture_output=True, text=True, check=True).stdout.strip()
        print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
