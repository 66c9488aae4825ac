#!/usr/bin/env python3
"""Transformation 3 (defaults) on the paper's models: time, rules and MAP solver calls.

The bird MLN of Section 5 (k = 1..4), smokers with 3 persons (k = 1..3) and CORA with
2 papers and 2 persons (k = 1, 2), ground, then converted; printed beside the number
of evidence sets (the brute-force amount of work: one penalty and one backbone per set)
and the rule count after conservative filtering.

    python benchmarks/ground_transformations.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pracmln_poss.bridge.loader import load_model  # noqa: E402
from pracmln_poss.model.grounding import ground  # noqa: E402
from pracmln_poss.possibilistic.filtering import filter_redundant  # noqa: E402
from pracmln_poss.search.run import RuleStats  # noqa: E402
from pracmln_poss.transformations import DefaultsOptions  # noqa: E402
from pracmln_poss.transformations.defaults import defaults  # noqa: E402
from pracmln_poss.transformations.options import Runtime  # noqa: E402

PAPER = ROOT / "examples" / "paper"
CASES = [
    ("bird (Section 5)", PAPER / "birds-jetpack.mln", None, [1, 2, 3, 4]),
    ("smokers, 3 persons", PAPER / "smokers.mln", {"person": ["Alice", "Bob", "Celine"]}, [1, 2, 3]),
    ("CORA, 2 papers, 2 persons", PAPER / "cora.mln", {"pap": ["PossPaper", "GraphPaper"], "per": ["Steven", "Jesse"]}, [1, 2]),
]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the smallest k of each model")
    args = parser.parse_args(argv)
    print("| model | atoms | k | evidence sets | MAP solver calls | rules | after conservative filtering | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|", flush=True)
    for name, path, domains, ks in CASES:
        g = ground(load_model(path, domains=domains).model)
        for k in ks[:1] if args.quick else ks:
            stats = RuleStats()
            start = time.perf_counter()
            theory = defaults(g, DefaultsOptions(k=k), runtime=Runtime(stats=stats))
            elapsed = time.perf_counter() - start
            filtered = filter_redundant(theory, "conservative").theory
            print(
                f"| {name} | {g.n_atoms} | {k} | {stats.evidence_sets} | {stats.map_calls} | "
                f"{len(theory)} | {len(filtered)} | {elapsed:.2f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
