#!/usr/bin/env python3
"""Old code against new in one run: every ``map``, ``convert`` and ``read`` workload of
``benchmarks/workloads.py`` (or those named), each run by every checkout in turn, so that
the machine's drift (a VM's speed changes over half an hour) falls on all of them alike.

Whole process, start-up included, user CPU seconds (:func:`workloads.user_seconds`), every
checkout byte-compiled first; with
``--repeat N`` the median and the least of N runs per checkout.  A checkout is any
directory holding ``pracmln_poss`` (``git worktree add /tmp/old <commit>``); this
repository's own is ``new`` unless given.

    python benchmarks/compare_trees.py --tree old=/tmp/old [--tree new=.] [--repeat 3] [map|convert|read|all] [WORKLOAD ...]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import workloads  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=DIR",
                        help="a checkout to run (repeatable; default: old=... must be given, new=this one)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="runs per checkout and workload")
    parser.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS", help="per run")
    parser.add_argument("kind", nargs="?", choices=("map", "convert", "read", "all"), default="all")
    parser.add_argument("names", nargs="*", metavar="WORKLOAD", help="only these workloads (default: all of the kind)")
    args = parser.parse_args(argv)
    trees = dict(tree.split("=", 1) for tree in args.tree)
    trees.setdefault("new", str(ROOT))
    if len(trees) < 2 or args.repeat < 1:
        parser.error("give at least one --tree LABEL=DIR besides this checkout, and --repeat of at least 1")
    for label, tree in trees.items():
        if not (Path(tree) / "pracmln_poss" / "__init__.py").is_file():
            parser.error(f"{label}={tree} holds no pracmln_poss")
        # every checkout byte-compiled, as an installed package is: a fresh worktree would
        # otherwise compile its modules at every start (PYTHONDONTWRITEBYTECODE) and lose
        # a tenth of a second to a checkout that has them
        compileall.compile_dir(str(Path(tree) / "pracmln_poss"), quiet=1)
    table = {**(workloads.MAP_WORKLOADS if args.kind in ("map", "all") else {}),
             **(workloads.CONVERT_WORKLOADS if args.kind in ("convert", "all") else {}),
             **(workloads.READ_WORKLOADS if args.kind in ("read", "all") else {})}
    unknown = [name for name in args.names if name not in table]
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}; the {args.kind} workloads: {', '.join(table)}")
    print("| workload | " + " | ".join(trees) + " |")
    print("|---|" + "---:|" * len(trees), flush=True)
    for name in args.names or table:
        seconds: dict[str, list[float]] = {label: [] for label in trees}
        for _ in range(args.repeat):
            for label, tree in trees.items():  # (alternating: drift falls on every checkout)
                os.environ["PYTHONPATH"] = str(Path(tree).resolve())
                with tempfile.TemporaryDirectory() as directory:
                    seconds[label].append(workloads.user_seconds(table[name](Path(directory)), timeout=args.timeout))
        cells = [f"{statistics.median(s):.2f}" + (f" (min {min(s):.2f})" if args.repeat > 1 else "")
                 for s in seconds.values()]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
