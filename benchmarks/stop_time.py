#!/usr/bin/env python3
"""How long a stopped conversion takes to end: ``convert cora.mln -k 4 -o OUT`` (a search
of a minute, its checkpoint on), sent Ctrl-C (or SIGTERM) ``--after`` seconds in, and the
seconds from the signal to the end of the process, whole (the checkpoint written, the
workers stopped, the interpreter's own exit), beside the target of one second.  ``--tree``
runs another checkout's code in the same loop (old against new).

    python benchmarks/stop_time.py [--after 12] [--repeat 3] [--jobs 1 2] [--tree old=/path/to/checkout]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.0
"""Seconds within which every command stops (the project's definition of done)."""


def stop_time(tree: Path, after: float, jobs: int, signum: int) -> tuple[float, int]:
    """Seconds from ``signum`` to the end of a conversion stopped ``after`` seconds in,
    and its exit status."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "pracmln_poss", "convert", str(ROOT / "examples/paper/cora.mln"), "-k", "4",
               "-j", str(jobs), "--quiet", "-o", str(Path(out) / "cora.theory")]
        # (run from elsewhere: python -m would take the working directory's package first)
        process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=out)
        time.sleep(after)
        if process.poll() is not None:
            sys.exit(f"{' '.join(cmd)} ended before its signal ({process.returncode})")
        start = time.monotonic()
        process.send_signal(signum)
        process.wait()
        return time.monotonic() - start, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--after", type=float, default=12.0, help="seconds into the search (default 12)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--signal", nargs="+", default=["SIGINT", "SIGTERM"])
    parser.add_argument("--tree", action="append", default=[], metavar="NAME=PATH",
                        help="another checkout to measure in the same loop (this one is 'this')")
    args = parser.parse_args()
    trees = {"this": ROOT, **{name: Path(path) for name, path in (t.split("=", 1) for t in args.tree)}}
    rows: dict[tuple[str, int], dict[str, list[float]]] = {}
    for _ in range(args.repeat):  # (the trees interleaved: a machine's drift falls on all of them)
        for name, tree in trees.items():
            for signame in args.signal:
                for jobs in args.jobs:
                    seconds, status = stop_time(tree, args.after, jobs, getattr(signal, signame))
                    expected = 130 if signame == "SIGINT" else 128 + getattr(signal, signame)
                    if status != expected:
                        sys.exit(f"{name}: {signame} with -j {jobs} ended with status {status}, not {expected}")
                    rows.setdefault((signame, jobs), {}).setdefault(name, []).append(seconds)
    print(f"convert cora.mln -k 4, stopped {args.after:g} s in: seconds to the end of the process, "
          f"median (max) of {args.repeat}; target {TARGET:g} s")
    print(f"{'signal':<8} {'-j':>3}  " + "  ".join(f"{name:>14}" for name in trees))
    for (signame, jobs), by_tree in rows.items():
        cells = [f"{statistics.median(v):6.2f} ({max(v):5.2f})" for v in (by_tree[name] for name in trees)]
        print(f"{signame:<8} {jobs:>3}  " + "  ".join(f"{c:>14}" for c in cells))


if __name__ == "__main__":
    main()
