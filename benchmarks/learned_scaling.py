#!/usr/bin/env python3
"""Learned models at scene size: focused conversions of pracmln's learned models as the
scene grows, beside the same conversions by an older checkout, in one run.

Rows (every one a fresh process, whole: start-up, imports, grounding, output included;
one worker, no checkpoint):

- pracmln's object-recognition model (``object-recognition.pracmln:learnt.cll.scenes-
  new-object-detection.mln``) focused on ``object`` with the evidence predicates
  ``color, goggles, goggles_Logo, goggles_Product, goggles_Text, scene, shape``, over
  1 to 6 clusters at k = 1 and 1 to 3 clusters at k = 2;
- pracmln's meals model (``meals.pracmln:meals_any_for.mln``) focused on
  ``consumesAnyIn`` with ``mealT, timeT, day, name, takesPartIn``, one meal, two
  persons, k = 1.

Each row: wall and user CPU seconds, how many times the row before (one cluster more),
peak MB of the process tree, rules and levels of the theory, the target of the issue,
and with ``--old DIR`` (a checkout: ``git worktree add /tmp/old <commit>``) the old
code's seconds on the same conversion (stopped after ``--old-timeout`` seconds) and
whether the two theories are the same bytes.

    python benchmarks/learned_scaling.py [--old /tmp/old] [--old-timeout 300] [--rows NAME ...]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import support
from support import ROOT

OBJECT_RECOGNITION = "object-recognition/object-recognition.pracmln:learnt.cll.scenes-new-object-detection.mln"
SCENE_EVIDENCE = "color,goggles,goggles_Logo,goggles_Product,goggles_Text,scene,shape"
MEALS = "meals/meals.pracmln:meals_any_for.mln"


def rows(examples: Path) -> list[tuple[str, list[str], str]]:
    """(name, convert's arguments, target) per row."""
    model = str(examples / OBJECT_RECOGNITION)
    focus = ["--query-preds", "object", "--evidence-preds", SCENE_EVIDENCE]
    targets = {(1, 4): "< 10 s", (1, 6): "< 30 s", (2, 2): "< 20 s", (2, 3): "< 120 s"}
    out = []
    for k, sizes in ((1, range(1, 7)), (2, range(1, 4))):
        for n in sizes:
            out.append((f"object-recognition k = {k}, {n} cluster{'s' if n > 1 else ''}",
                        [model, *focus, "--domain-size", f"cluster={n}", "-k", str(k)], targets.get((k, n), "")))
    out.append(("meals, 1 meal, 2 persons, k = 1",
                [str(examples / MEALS), "--query-preds", "consumesAnyIn", "--evidence-preds",
                 "mealT,timeT,day,name,takesPartIn", "--domain-size", "objType_m=1", "--domain-size", "objType_p=2",
                 "-k", "1"], "< 60 s"))
    return out


def ours(args: list[str], out: Path) -> tuple[float, float, float]:
    """Wall seconds, user CPU seconds and peak MB of this checkout's conversion."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    seconds, peak, _ = support.measure([sys.executable, "-m", "pracmln_poss", "convert", *args, "-j", "1", "--quiet",
                                        "--no-checkpoint", "-o", str(out)])
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before, peak


def theirs(tree: str, args: list[str], out: Path, timeout: float) -> float | None:
    """User CPU seconds of the old checkout's conversion (None: stopped at ``timeout``)."""
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    # (in the temporary directory: -m imports from the working directory first)
    process = subprocess.Popen([sys.executable, "-m", "pracmln_poss", "convert", *args, "-j", "1", "--quiet",
                                "--no-checkpoint", "-o", str(out)], cwd=tempfile.gettempdir(), env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    start = time.perf_counter()
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return None
    if process.returncode != 0:
        raise SystemExit(f"the old checkout failed ({process.returncode}) after {time.perf_counter() - start:.0f} s: "
                         f"{err[-1000:]}")
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def size(theory: str) -> tuple[int, int]:
    """The rules and levels a theory's header gives."""
    found = re.search(r"theory: ([\d,]+) (?:rules|formulas) in ([\d,]+) levels", theory)
    if found is None:
        return -1, -1
    return int(found.group(1).replace(",", "")), int(found.group(2).replace(",", ""))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", metavar="DIR", help="an older checkout, run on every row beside this one")
    parser.add_argument("--old-timeout", type=float, default=300.0, metavar="SECONDS",
                        help="stop the old checkout's conversion after this long (default 300)")
    parser.add_argument("--rows", nargs="*", metavar="NAME", help="only the rows whose name starts so")
    args = parser.parse_args(argv)
    examples = support.pracmln_examples()
    old = "" if args.old is None else " old user s | same theory |"
    print(f"| conversion (focused, one worker) | wall s | user s | x row before | peak MB | rules | levels | target |{old}")
    print("|---|---:|---:|---:|---:|---:|---:|---|" + ("---:|:---:|" if args.old else ""), flush=True)
    before: float | None = None
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        for name, arguments, target in rows(examples):
            if args.rows and not any(name.startswith(r) for r in args.rows):
                continue
            if name.endswith(" 1 cluster") or name.startswith("meals"):
                before = None
            mine = tmp / "new.theory"
            seconds, user, peak = ours(arguments, mine)
            rules, levels = size(mine.read_text())
            ratio = "-" if before is None else f"{user / before:.1f}"
            before = user
            cells = f"| {name} | {seconds:.2f} | {user:.2f} | {ratio} | {peak:.0f} | {rules:,} | {levels:,} | {target} |"
            if args.old:
                other = tmp / "old.theory"
                old_user = theirs(args.old, arguments, other, args.old_timeout)
                if old_user is None:
                    cells += f" > {args.old_timeout:.0f} (stopped) | - |"
                else:
                    cells += f" {old_user:.2f} | {'yes' if other.read_bytes() == mine.read_bytes() else 'NO'} |"
            print(cells, flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
