#!/usr/bin/env python3
"""Long lines and large domains (#40): seconds and peak memory of whole commands on inputs
whose one line is megabytes long, old code against new in one run.

Each workload's files are written once; every checkout runs it in a fresh process, in
turn (``--repeat``), from the system's temporary directory with its own ``PYTHONPATH``.
Figures are wall seconds, user CPU seconds and the process's peak resident MB (its own
``ru_maxrss``), and that peak per MB of the input.

    python benchmarks/long_lines.py --tree old=/tmp/old [--tree new=.] [--repeat N] [--scale F]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _disjunction(directory: Path, n: int) -> list[str]:
    path = directory / "disjunction.mln"
    path.write_text("p = {A}\nq(p)\n1.0 " + " v ".join(f"q(C{i})" for i in range(n)) + "\n")
    return ["map", str(path)]


def _domain(directory: Path, n: int) -> list[str]:
    path = directory / "domain.mln"
    path.write_text("p = {" + ", ".join(f"C{i}" for i in range(n)) + "}\nq(p)\n1.0 q(x)\n")
    return ["map", str(path)]


def _theory_rule(directory: Path, n: int) -> list[str]:
    path = directory / "rule.theory"
    atoms = [f"q(C{i})" for i in range(n)]
    path.write_text("// pracmln_poss 0.1.0 possibilistic theory: 1 rules in 1 levels\n#atoms " + " ".join(atoms)
                    + "\n\n// level lambda_0\n0  " + " v ".join(atoms) + "\n")
    return ["show", str(path)]


WORKLOADS: dict[str, tuple[Callable[[Path, int], list[str]], int]] = {
    "map: one formula of {n:,} atoms on one line": (_disjunction, 50_000),
    "map: a domain of {n:,} constants on one line": (_domain, 200_000),
    "show: a theory rule of {n:,} atoms on one line": (_theory_rule, 400_000),
    "map: one formula of {n:,} atoms, 40 MB (#66: refused before it is parsed)": (_disjunction, 3_200_000),
}
"""Workloads: a writer of the input files (given a folder and a size) and the size (a
command that refuses its input, exit 2, is measured as far as it goes: "refused")."""


def run(argv: list[str], tree: str, timeout: float) -> tuple[float, float, float, bool]:
    """Wall seconds, user seconds and peak MB of ``python -m pracmln_poss argv`` with
    ``tree`` first on the path, and whether it refused its input (exit 2)."""
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pracmln_poss", *argv], cwd=tempfile.gettempdir(), env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            process.kill()
            os.wait4(process.pid, 0)
            return float("inf"), float("inf"), float("inf"), False
        time.sleep(0.02)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    err = process.stderr.read().decode() if process.stderr else ""
    if process.returncode not in (0, 2):
        raise RuntimeError(f"pracmln-poss {' '.join(argv)} failed ({process.returncode}): {err[-500:]}")
    return wall, usage.ru_utime, usage.ru_maxrss / 1024, process.returncode == 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=DIR", help="a checkout (repeatable)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N")
    parser.add_argument("--scale", type=float, default=1.0, metavar="F", help="every size times F")
    parser.add_argument("--timeout", type=float, default=900.0, metavar="SECONDS", help="per run")
    parser.add_argument("--only", default="", metavar="TEXT", help="the workloads whose title holds TEXT")
    args = parser.parse_args(argv)
    trees = dict(tree.split("=", 1) for tree in args.tree)
    trees.setdefault("new", str(ROOT))
    print("| workload | input MB | " + " | ".join(f"{t}: wall s, user s, peak MB (per input MB)" for t in trees) + " |")
    print("|---|---:|" + "---:|" * len(trees), flush=True)
    for title, (write, size) in WORKLOADS.items():
        if args.only not in title:
            continue
        n = max(1, int(size * args.scale))
        with tempfile.TemporaryDirectory() as directory:
            command = write(Path(directory), n)
            megabytes = sum(p.stat().st_size for p in Path(directory).iterdir()) / 2**20
            figures: dict[str, list[tuple[float, float, float, bool]]] = {label: [] for label in trees}
            for _ in range(args.repeat):
                for label, tree in trees.items():  # (alternating: drift falls on every checkout)
                    figures[label].append(run(command, tree, args.timeout))
        cells = []
        for runs in figures.values():
            wall, user, peak = (statistics.median(r[i] for r in runs) for i in range(3))
            refused = " (refused)" if any(r[3] for r in runs) else ""
            cells.append(f"{wall:.2f}, {user:.2f}, {peak:.0f} ({peak / megabytes:.0f}x){refused}")
        print(f"| {title.format(n=n)} | {megabytes:.1f} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
