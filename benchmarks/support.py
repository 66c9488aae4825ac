"""What the benchmarks share: running a command in a fresh process and measuring it whole."""

from __future__ import annotations

__all__ = ["ROOT", "EXE", "measure", "pracmln_examples", "tree_rss"]

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

EXE = Path(sys.executable).parent / "pracmln-poss"
"""The command line of the environment the benchmark runs in."""


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out.extend(int(c) for c in f.read().split())
    except OSError:
        pass
    return out


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants (from /proc; cheap enough to
    sample often: only the tree is read)."""
    page = os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1]) * page
        except OSError:
            continue
        todo.extend(_children(p))
    return total


def measure(cmd: list[str], capture: bool = False) -> tuple[float, float, str]:
    """Seconds, peak MB (whole process tree, sampled every 50 ms) and, with ``capture``,
    the standard output of ``cmd`` in a fresh process; exits naming the command when it
    fails."""
    # (files, not pipes: a child writing more than a pipe holds would wait for us)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(cmd, cwd=ROOT, stdout=out if capture else subprocess.DEVNULL, stderr=err,
                                   text=True)
        peak = 0
        while process.poll() is None:
            peak = max(peak, tree_rss(process.pid))
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        if process.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(cmd)} failed ({process.returncode}): {err.read()[-2000:]}")
        out.seek(0)
        return seconds, peak / 2**20, out.read()


def pracmln_examples() -> Path:
    """pracmln's installed example projects."""
    sys.path.insert(0, str(ROOT))
    from pracmln_poss.compat import import_pracmln

    return Path(import_pracmln().utils.locs.examples)
