#!/usr/bin/env python3
"""How true the time left is: ``convert --progress`` on CORA at k = 4 (or on any convert
workload of :mod:`workloads`), its estimate beside the time that really remained.

Runs the command line as a user does (a fresh process, progress lines on stderr, one
every second: ``PRACMLN_POSS_PROGRESS_INTERVAL=1``), notes when each line arrives, and
after the run compares every estimate ("about 1 min 5 s left", "under 10 s left") with
the seconds from that line to the end of the process.  From the tenth second on, each
must be within a factor of 2 of the truth (``pracmln_poss.console.FACTOR``); a bound
("under 10 s left") is within it when less than twice the bound remained.  One worker
and ``-j 2``; ``--tree`` runs
another checkout's code in the same loop (old against new).

    python benchmarks/time_left.py [--k 4] [--jobs 1 2] [--tree old=/path/to/checkout]
    python benchmarks/time_left.py --workload "meals focused, 1 meal, 2 persons, k = 1" [--k 2]
    python benchmarks/time_left.py --verify --k 2 [--tree old=...]   # verify of CORA's theory (a sample)
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workloads import CONVERT_WORKLOADS  # noqa: E402

from pracmln_poss.console import FACTOR, ProgressDisplay  # noqa: E402 (what the display promises)

SETTLED = ProgressDisplay.ESTIMATE_AFTER

_LEFT = re.compile(r"(?:about|the run about) ((?:\d+ h )?(?:\d+ min )?(?:\d+ s)?)(?: left)?$|under (\d+) s left$")


def seconds_of(text: str) -> float:
    """``1 min 5 s`` as 65.0."""
    total = 0.0
    for value, unit in re.findall(r"(\d+) (h|min|s)", text):
        total += int(value) * {"h": 3600, "min": 60, "s": 1}[unit]
    return total


def _children_cpu() -> float:
    """CPU seconds of the children waited for so far (user and system)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(tree: Path, workload: str | None, k: int | None, jobs: int, verify: Path | None = None
        ) -> tuple[float, float, list[tuple[float, float, bool, str]]]:
    """Seconds the run took, the CPU seconds it took (its workers' included: a run
    whose wall time grows while its CPU time does not was slowed by the machine, which
    no estimate foresees), and per progress line: when it came, the estimate, whether
    it is a bound ('under 10 s'), the line."""
    env = {**os.environ, "PRACMLN_POSS_PROGRESS_INTERVAL": "1", "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as out:
        if verify is not None:  # (CORA's theory at k, made once before: verify alone is timed)
            arguments = ["verify", str(verify), "--mln", str(ROOT / "examples/paper/cora.mln"), "-k", str(k or 4)]
        elif workload is None:
            arguments = ["convert", str(ROOT / "examples/paper/cora.mln"), "-k", str(k or 4), "-j", str(jobs),
                         "-o", str(Path(out) / "cora.theory")]
        else:  # (the workload's command, with its progress shown, ``jobs`` workers and ``k``, if given)
            arguments = [a for a in CONVERT_WORKLOADS[workload](Path(out)) if a != "--quiet"]
            arguments[arguments.index("-j") + 1] = str(jobs)
            if k is not None:
                arguments[arguments.index("-k") + 1] = str(k)
        cmd = [sys.executable, "-m", "pracmln_poss", *arguments, "--progress"]
        start, cpu = time.monotonic(), _children_cpu()
        # (run from elsewhere: python -m would take the working directory's package first)
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=out)
        lines: list[tuple[float, str]] = []

        def read() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                lines.append((time.monotonic() - start, line.rstrip("\n")))

        reader = threading.Thread(target=read)
        reader.start()
        process.wait()
        reader.join()
        end, cpu = time.monotonic() - start, _children_cpu() - cpu
    if process.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {lines[-1][1] if lines else process.returncode}")
    found = []
    for when, line in lines:
        m = _LEFT.search(line)
        if m:
            bound = m.group(2) is not None
            found.append((when, float(m.group(2)) if bound else seconds_of(m.group(1)), bound, line))
    return end, cpu, found


def ok_of(end: float, item: tuple[float, float, bool, str]) -> bool:
    """Whether a bound ("under 10 s left") held, within the factor (estimates: True)."""
    when, shown, bound, _line = item
    return not bound or when < SETTLED or end - when <= FACTOR * shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, help="k (default: CORA's 4, a workload's own)")
    parser.add_argument("--workload", choices=sorted(CONVERT_WORKLOADS), help="a convert workload instead of CORA")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--lines", action="store_true", help="print every progress line with its time")
    parser.add_argument("--verify", action="store_true", help="time verify of CORA's theory at k instead")
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                        help="another checkout to run in the same loop (default: this one, as 'new')")
    args = parser.parse_args()
    trees = [("new", ROOT)] + [(t.split("=", 1)[0], Path(t.split("=", 1)[1])) for t in args.tree]
    title = (f"{args.workload}{'' if args.k is None else f' (k = {args.k})'}" if args.workload
             else f"{'verify of ' if args.verify else ''}CORA k = {args.k or 4}")
    made: dict[str, Path] = {}
    if args.verify:  # (the theory made once by each checkout, its own format; verify has no workers)
        for name, tree in trees:
            made[name] = Path(tempfile.mkdtemp(prefix="time-left-")) / "cora.theory"
            subprocess.run([sys.executable, "-m", "pracmln_poss", "convert", str(ROOT / "examples/paper/cora.mln"),
                            "-k", str(args.k or 4), "--quiet", "--no-checkpoint", "-o", str(made[name])], check=True,
                           env={**os.environ, "PYTHONPATH": str(tree)}, cwd=made[name].parent)
        args.jobs = [1]
    print(f"{title}: time left as shown, beside the time that remained (from the {SETTLED:g}th second on)")
    failed = False
    for jobs in args.jobs:
        for name, tree in trees:
            end, cpu, found = run(tree, args.workload, args.k, jobs, made.get(name))
            print(f"\n{name}, -j {jobs}: the run took {end:.1f} s ({cpu:.1f} s of CPU); {len(found)} estimates")
            print(f"{'at':>7}  {'shown':>8}  {'truth':>8}  ratio")
            worst = 1.0
            for when, _shown, _bound, line in found if args.lines else ():
                print(f"{when:6.1f}s  {line}")
            for when, shown, bound, _line in found:
                truth = end - when
                if when < SETTLED:
                    continue
                if bound:
                    ok, ratio_text = truth <= FACTOR * shown, f"bound ({truth / shown:.2f} of it)"
                else:
                    ratio = shown / truth if truth > 0 else float("inf")
                    ok, ratio_text = 1 / FACTOR <= ratio <= FACTOR, f"{ratio:.2f}"
                    worst = max(worst, ratio, 1 / ratio if ratio > 0 else float("inf"))
                print(f"{when:6.1f}s  {('<' if bound else '') + f'{shown:.0f}':>7}s  {truth:7.1f}s  {ratio_text}"
                      f"{'' if ok else '  OUTSIDE'}")
                failed |= not ok and name == "new"
            print(f"worst factor of an estimate from the {SETTLED:g}th second on: {worst:.2f} (target {FACTOR:g}); "
                  f"{'every' if all(ok_of(end, f) for f in found) else 'NOT every'} bound held")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
