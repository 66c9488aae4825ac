#!/usr/bin/env python3
"""Domains paid for once (#63): ``convert`` as the domain grows, old code against new in
one loop (each size run by every checkout in turn), whole process (start-up, imports,
grounding and output included): seconds of wall time, user CPU seconds, peak MB of the
process tree, how many times the size before took (the new code's CPU seconds), the
theory file's size, and whether its rules are those of the smallest size (the lines
that are not the header's ``#`` directives and comments).

The workloads: pracmln's learned smokers (``smokers.pracmln:wts.pybpll...``) over
``--domain-size person=N -k 2``, the paper's smokers likewise, and pracmln's learned
object-recognition model focused on ``object`` over ``--domain-size cluster=N`` at
``k = 1`` and ``k = 2``.  The old code is run with ``--force`` (it refused 1,024 persons),
and not above ``--old-max`` of a workload's sizes (it grounds the whole domain).

    python benchmarks/domain_reduction.py --tree old=/tmp/old [--learned 128 512 1024 4096]
        [--paper 128 1024] [--objects-k1 4 10] [--objects-k2 2 6] [--old-max N]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import support
from support import ROOT

sys.path.insert(0, str(Path(__file__).resolve().parent))

import workloads  # noqa: E402

EXAMPLES: Path | None = None


def run(tree: Path, argv: list[str], out: Path) -> tuple[float, float, float, str]:
    """Wall seconds, user CPU seconds, peak MB and the theory of ``pracmln-poss convert``
    with ``argv``, run from ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, "-m", "pracmln_poss", "convert", *argv, "--quiet", "--no-checkpoint", "-o", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        # (run from elsewhere: python -m would take the working directory's package first)
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=tempfile.gettempdir())
        peak = 0
        while process.poll() is None:
            peak = max(peak, support.tree_rss(process.pid))
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        if process.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(cmd)} failed ({process.returncode}): {err.read()[-2000:]}")
    user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    return seconds, user, peak / 2**20, out.read_text()


def rules(theory: str) -> list[str]:
    return [line for line in theory.splitlines() if line and not line.startswith(("#", "//"))]


def family(title: str, model: str, domain: str, sizes: list[int], extra: list[str], trees: dict[str, Path],
           old_max: int, tmp: Path) -> None:
    print(f"\n| {title} | " + " | ".join(f"{label} s (CPU s)" for label in trees) + " | " +
          " | ".join(f"{label} peak MB" for label in trees) + " | x size before | file KB | same rules |")
    print("|---|" + "---:|" * (2 * len(trees) + 2) + ":---:|", flush=True)
    first: list[str] | None = None
    before: float | None = None
    for n in sizes:
        argv = [model, "--domain-size", f"{domain}={n}", *extra]
        times, peaks, theories = [], [], {}
        for label, tree in trees.items():
            if label != "new" and n > old_max:
                times.append("not run")
                peaks.append("-")
                continue
            out = tmp / f"{label}.theory"
            seconds, user, peak, theory = run(tree, argv + (["--force"] if label != "new" else []), out)
            times.append(f"{seconds:.2f} ({user:.2f})")
            peaks.append(f"{peak:.0f}")
            theories[label] = (user, theory)
        user, theory = theories["new"]
        same = [rules(theory) == rules(other) for label, (_, other) in theories.items() if label != "new"]
        first = rules(theory) if first is None else first
        verdict = ("yes" if rules(theory) == first else "NO") + ("" if all(same) else ", NOT the old code's")
        ratio = "-" if before is None else f"{user / before:.1f}"
        before = user
        print(f"| {domain} = {n:,} | " + " | ".join(times) + " | " + " | ".join(peaks) +
              f" | {ratio} | {len(theory.encode()) / 1024:.1f} | {verdict} |", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=DIR")
    parser.add_argument("--learned", type=int, nargs="*", default=[128, 256, 512, 1024, 2048, 4096])
    parser.add_argument("--paper", type=int, nargs="*", default=[128, 256, 512, 1024, 4096])
    parser.add_argument("--objects-k1", type=int, nargs="*", default=[1, 2, 4, 6, 8, 10])
    parser.add_argument("--objects-k2", type=int, nargs="*", default=[1, 2, 3, 4, 6])
    parser.add_argument("--old-max", type=int, default=1024, help="largest persons the old code runs on")
    args = parser.parse_args(argv)
    trees = {label: Path(path) for label, path in (t.split("=", 1) for t in args.tree)}
    trees["new"] = ROOT
    for tree in trees.values():
        compileall.compile_dir(str(tree / "pracmln_poss"), quiet=1)
    examples = support.pracmln_examples()
    learned = str(examples / workloads.LEARNED_SMOKERS)
    objects = str(examples / workloads.OBJECT_RECOGNITION)
    focus = ["--query-preds", "object", "--evidence-preds", workloads.FOCUS]
    with tempfile.TemporaryDirectory() as tmp:
        family("learned smokers, k = 2", learned, "person", args.learned, ["-k", "2"], trees, args.old_max, Path(tmp))
        family("paper's smokers, k = 2", str(ROOT / "examples/paper/smokers.mln"), "person", args.paper, ["-k", "2"],
               trees, args.old_max, Path(tmp))
        family("object-recognition focused, k = 1", objects, "cluster", args.objects_k1, ["-k", "1", *focus], trees,
               10, Path(tmp))
        family("object-recognition focused, k = 2", objects, "cluster", args.objects_k2, ["-k", "2", *focus], trees,
               6, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
