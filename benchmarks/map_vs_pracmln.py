#!/usr/bin/env python3
"""``map`` beside pracmln's own MAP, whole process, on the workloads of ``benchmarks/workloads.py``.

For each workload (dense and sparse smokers as the domain grows, pracmln's
object-recognition over 1 to 6 clusters and on its ``test.db``, meals on both its
databases): ``pracmln-poss map ... --json`` (a MAP world *and* the literals true in all
MAP worlds) and pracmln's ``MLN.load`` + ``Database.load`` + ``WCSPInference`` on the
same files, each in a fresh process (start-up and imports included): user CPU seconds
(what the machine's other load does not change), wall seconds and peak MB of each; the
worlds of both are priced with our exact arithmetic on our grounding and must cost the
same.

    python benchmarks/map_vs_pracmln.py [--only PREFIX ...] [--pracmln-timeout S] [--no-pracmln]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import support
import workloads
from support import ROOT

sys.path.insert(0, str(ROOT))

THEIRS = r"""
import io, json, sys
from contextlib import redirect_stderr, redirect_stdout
import pracmln
from pracmln.mln.inference.wcspinfer import WCSPInference

with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
    mln = pracmln.MLN.load(sys.argv[1], grammar=sys.argv[3], logic="FirstOrderLogic")
    db = pracmln.Database.load(mln, sys.argv[2])[0]
    mrf = mln.ground(db)
    results = WCSPInference(mrf, queries=[str(a) for a in mrf.gndatoms]).run().results
print(json.dumps({str(atom): value >= 0.5 for atom, value in results.items()}))
"""
"""pracmln's WCSPInference on a model and database: the world it finds, as JSON."""


def run(cmd: list[str], timeout: float | None) -> tuple[float, float, float, str] | str:
    """User CPU seconds, wall seconds, peak MB and standard output of ``cmd`` in a fresh
    process; or why there is none (its failure, or the time limit)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=err, text=True)
        peak = 0
        while process.poll() is None:
            peak = max(peak, support.tree_rss(process.pid))
            if timeout is not None and time.perf_counter() - start > timeout:
                process.kill()
                process.wait()
                return f"> {timeout:.0f} s"
            time.sleep(0.05)
        wall = time.perf_counter() - start
        if process.returncode != 0:
            err.seek(0)
            return "error: " + (err.read().strip().splitlines() or ["?"])[-1][:80]
        out.seek(0)
        user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        return user, wall, peak / 2**20, out.read()


def cost(model: str, db: str, world: dict[str, bool]) -> int | float:
    """The exact cost of a world (by atom name) in our ground model of the files (open world)."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.map.engine import World, world_cost
    from pracmln_poss.model.grounding import ground

    g = ground(load_model(model, db).model)
    values = [False] + [world.get(name, False) for name in g.atoms]
    return world_cost(g, World(tuple(values)))


def _grammar(model: str) -> str:
    """The grammar pracmln reads the model with: its project's (``query.conf``), else
    StandardGrammar."""
    if ".pracmln:" not in model:
        return "StandardGrammar"
    with zipfile.ZipFile(model.split(":", 1)[0]) as project:
        return str(json.loads(project.read("query.conf")).get("grammar") or "StandardGrammar")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", help="workloads whose name starts with one of these")
    parser.add_argument("--pracmln-timeout", type=float, default=600, help="seconds pracmln may take (default 600)")
    parser.add_argument("--no-pracmln", action="store_true", help="ours only")
    args = parser.parse_args(argv)
    print("| workload | atoms | ours user s | ours wall s | ours MB | pracmln WCSP user s | wall s | MB "
          "| pracmln / ours (user) | same MAP cost |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|", flush=True)
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        for workload, make in workloads.MAP_WORKLOADS.items():
            if args.only and not any(workload.startswith(o) for o in args.only):
                continue
            command = make(directory)
            model, db = command[1], command[3]
            ours = run([str(support.EXE), *command], None)
            if isinstance(ours, str):
                print(f"| {workload} | - | {ours} | | | | | | | |", flush=True)
                continue
            user, wall, peak, out = ours
            world = json.loads(out)["world"]
            cells = [f"{user:.2f}", f"{wall:.2f}", f"{peak:.0f}"]
            theirs_cells, ratio, same = ["not run", "", ""], "-", "-"
            if not args.no_pracmln:
                grammar = _grammar(model)
                theirs = run([sys.executable, "-c", THEIRS, model, db, grammar], args.pracmln_timeout)
                if isinstance(theirs, str):
                    theirs_cells = [theirs, "", ""]
                else:
                    t_user, t_wall, t_peak, t_out = theirs
                    theirs_cells = [f"{t_user:.2f}", f"{t_wall:.2f}", f"{t_peak:.0f}"]
                    ratio = f"{t_user / user:.1f}x"
                    same = "yes" if cost(model, db, json.loads(t_out)) == cost(model, db, world) else "NO"
            print(f"| {workload} | {len(world):,} | " + " | ".join(cells + theirs_cells) + f" | {ratio} | {same} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
