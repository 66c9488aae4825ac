#!/usr/bin/env python3
"""Redundancy filtering at scale: ``convert`` with ``--filter none``, ``conservative`` and
``aggressive`` side by side, whole process (user CPU s, start-up included), with the
rules each writes.

The filter's target (#39) is to cost no more than the conversion itself: the
``conservative`` and ``aggressive`` columns minus the ``none`` column, against it.

    python benchmarks/filtering.py [--repeat 1] [WORKLOAD ...]

Workloads are ``convert`` workloads of ``workloads.py`` (default: CORA 4x4 at k = 3 and
object-recognition over one and two objects at k = 2).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import CONVERT_WORKLOADS, user_seconds  # noqa: E402

DEFAULT = ["CORA 4x4, k = 3", "object-recognition focused, 1 cluster, k = 2",
           "object-recognition focused, 2 clusters, k = 2"]
MODES = ("none", "conservative", "aggressive")


def _rules(path: Path) -> int:
    """The rules a theory file holds (its header line says)."""
    header = path.read_text(encoding="utf-8").split("\n", 1)[0]
    return int(header.split("theory: ")[1].split(" ")[0].replace(",", ""))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("workloads", nargs="*", default=DEFAULT)
    args = parser.parse_args(argv)
    print("| workload | " + " | ".join(f"--filter {m}: s (rules)" for m in MODES) + " | filtering / conversion |")
    print("|---|" + "---:|" * (len(MODES) + 1))
    for name in args.workloads:
        seconds, rules = {}, {}
        with tempfile.TemporaryDirectory(prefix="pracmln-poss-filter-") as tmp:
            for mode in MODES:
                made = CONVERT_WORKLOADS[name](Path(tmp)) + ["--filter", mode]
                seconds[mode] = statistics.median(user_seconds(made) for _ in range(args.repeat))
                rules[mode] = _rules(Path(tmp) / "out.theory")
        worst = max(seconds["conservative"], seconds["aggressive"]) - seconds["none"]
        print(f"| {name} | " + " | ".join(f"{seconds[m]:.1f} ({rules[m]:,})" for m in MODES)
              + f" | {worst / seconds['none']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
