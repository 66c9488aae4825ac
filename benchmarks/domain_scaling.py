#!/usr/bin/env python3
"""Real domains: MAP and conversions as the domain grows, beside pracmln's own MAP.

Every run is a fresh process, whole (interpreter start-up, imports, grounding, output
included); peak MB is the largest resident size of its process tree.

1. ``map`` on the paper's smokers (``examples/paper/smokers.mln``) over n persons
   ``P1 ... Pn`` with the database ``s(P1)``, ``f(P1,P2)``, and pracmln's
   ``WCSPInference`` on the same two files in the same run; the MAP costs of both
   worlds are computed with our exact arithmetic and must be equal.
2. ``convert`` of the paper's smokers and of pracmln's learned smokers
   (``smokers.pracmln:wts.pybpll.smoking-train-smoking.mln``), both ``--domain-size
   person=N -k 2``, and of CORA (``--domain-size pap=N --domain-size per=N -k 2``), one
   process each: seconds, how many times the row before (n doubled), peak MB, the MAP
   engine's solver calls per backbone (median and largest), the rules written and whether
   they are those of the smallest n (the theory with its type and atom lines left out).
3. The other targets of the issue: CORA 4x4 at k = 3 and 4, pracmln's
   object-recognition (one cluster, focused on ``object``, k = 2), and ``map`` of
   object-recognition over three clusters without evidence beside pracmln's WCSP on a
   database that only declares the clusters.

    python benchmarks/domain_scaling.py [--map-sizes N ...] [--smokers-sizes N ...]
        [--learned-sizes N ...] [--cora-sizes N ...] [--skip-others] [--pracmln-max N]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from pathlib import Path

import support
from support import ROOT

sys.path.insert(0, str(ROOT))

PAPER = ROOT / "examples" / "paper"

OURS = r"""
import json, sys
from pracmln_poss.map import engine

calls = []
consequences = engine.MapEngine.consequences

def counted(self, *args, **kwargs):
    before = self.calls
    try:
        return consequences(self, *args, **kwargs)
    finally:
        calls.append(self.calls - before)

engine.MapEngine.consequences = counted
from pracmln_poss.cli import main

status = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump(calls, f)
sys.exit(status)
"""
"""Our command line in a child process, with the solver calls of every backbone written
to a file (the first argument)."""

THEIRS = r"""
import io, json, sys
from contextlib import redirect_stderr, redirect_stdout
from pracmln_poss.compat import import_pracmln

pracmln = import_pracmln()
from pracmln.mln.inference.wcspinfer import WCSPInference

with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
    mln = pracmln.MLN.load(sys.argv[1], grammar=sys.argv[3], logic="FirstOrderLogic")
    db = pracmln.Database.load(mln, sys.argv[2])[0]
    mrf = mln.ground(db)
    results = WCSPInference(mrf, queries=[str(a) for a in mrf.gndatoms]).run().results
print(json.dumps({str(atom): value for atom, value in results.items()}))
"""
"""pracmln's WCSPInference on a model and database: the world it finds, as JSON."""


def ours(args: list[str], tmp: Path) -> tuple[float, float, str, list[int]]:
    """Seconds, peak MB, standard output and solver calls per backbone of our command line."""
    calls_file = tmp / "calls.json"
    seconds, peak, out = support.measure([sys.executable, "-c", OURS, str(calls_file), *args], capture=True)
    return seconds, peak, out, json.loads(calls_file.read_text())


def theirs(model: Path | str, db: Path, grammar: str = "StandardGrammar") -> tuple[float, float, dict[str, bool]]:
    """Seconds, peak MB and MAP world of pracmln's WCSPInference."""
    seconds, peak, out = support.measure([sys.executable, "-c", THEIRS, str(model), str(db), grammar], capture=True)
    return seconds, peak, {name: value >= 0.5 for name, value in json.loads(out).items()}


def cost(model: Path | str, db: Path, world: dict[str, bool]) -> int | float:
    """The exact cost of a world (by atom name) in our ground model of the files."""
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.map.engine import World, world_cost
    from pracmln_poss.model.grounding import ground

    g = ground(load_model(model, db).model)
    values = [False] + [world.get(name, False) for name in g.atoms]
    return world_cost(g, World(tuple(values)))


def calls_text(calls: list[int]) -> str:
    return f"{statistics.median(calls):g} / {max(calls)}" if calls else "-"


def smokers_files(tmp: Path, n: int) -> tuple[Path, Path]:
    """The paper's smokers over ``P1 ... Pn`` and the database ``s(P1)``, ``f(P1,P2)``."""
    text = (PAPER / "smokers.mln").read_text()
    people = ", ".join(f"P{i}" for i in range(1, n + 1))
    model = tmp / f"smokers{n}.mln"
    model.write_text(re.sub(r"person = \{[^}]*\}", f"person = {{{people}}}", text))
    db = tmp / "smokers.db"
    db.write_text("s(P1)\nf(P1,P2)\n")
    return model, db


def map_rows(sizes: list[int], pracmln_max: int, tmp: Path) -> None:
    print("\n| MAP, smokers, n persons | atoms | pracmln_poss `map` s | peak MB | solver calls (backbone) "
          "| pracmln WCSP s | peak MB | same MAP cost |")
    print("|---:|---:|---:|---:|---:|---:|---:|:---:|", flush=True)
    for n in sizes:
        model, db = smokers_files(tmp, n)
        seconds, peak, out, calls = ours(["map", str(model), "--db", str(db), "--json"], tmp)
        world = json.loads(out)["world"]
        mine = cost(model, db, world)
        if n <= pracmln_max:
            t2, p2, other = theirs(model, db)
            same = "yes" if cost(model, db, other) == mine else "NO"
            theirs_text = f"{t2:.2f} | {p2:.0f}"
        else:
            theirs_text, same = "not run | -", "-"
        print(f"| {n} | {len(world)} | {seconds:.2f} | {peak:.0f} | {calls_text(calls)} | {theirs_text} | {same} |",
              flush=True)


def _rules(theory: str) -> tuple[int, list[str]]:
    """The rule count of a lifted theory's header and its lines without type and atom lines."""
    found = re.search(r"theory: ([\d,]+) rules", theory)
    lines = [line for line in theory.splitlines() if not line.startswith(("#type", "#atoms"))]
    return (int(found.group(1).replace(",", "")) if found else -1), lines


def convert_rows(title: str, cases: list[tuple[str, list[str]]], tmp: Path) -> None:
    print(f"\n| {title} | seconds | x row before | peak MB | solver calls per backbone (median / max) | rules "
          "| same rules |")
    print("|---|---:|---:|---:|---:|---:|:---:|", flush=True)
    first: list[str] | None = None
    before: float | None = None
    for name, args in cases:
        out = tmp / "out.theory"
        seconds, peak, _, calls = ours(["convert", *args, "--quiet", "--no-checkpoint", "-o", str(out)], tmp)
        count, lines = _rules(out.read_text())
        first = lines if first is None else first
        same = "yes" if lines == first else "NO"
        ratio = "-" if before is None else f"{seconds / before:.1f}"
        before = seconds
        print(f"| {name} | {seconds:.2f} | {ratio} | {peak:.0f} | {calls_text(calls)} | {count:,} | {same} |",
              flush=True)


def other_rows(tmp: Path) -> None:
    examples = support.pracmln_examples()
    orec = examples / "object-recognition" / "object-recognition.pracmln"
    model = f"{orec}:learnt.cll.scenes-new-object-detection.mln"
    evidence = "color,goggles,goggles_Logo,goggles_Product,goggles_Text,scene,shape"
    print("\n| conversion (one process) | seconds | peak MB | solver calls per backbone (median / max) | rules |")
    print("|---|---:|---:|---:|---:|", flush=True)
    for name, args in [
        ("CORA 4x4, k = 3", [str(PAPER / "cora.mln"), "-k", "3"]),
        ("CORA 4x4, k = 4", [str(PAPER / "cora.mln"), "-k", "4"]),
        ("object-recognition, 1 cluster, focused on object, k = 2",
         [model, "--domain-size", "cluster=1", "--evidence-preds", evidence, "-k", "2"]),
    ]:
        out = tmp / "out.theory"
        seconds, peak, _, calls = ours(["convert", *args, "-j", "1", "--quiet", "--no-checkpoint", "-o", str(out)],
                                       tmp)
        count, _ = _rules(out.read_text())
        print(f"| {name} | {seconds:.2f} | {peak:.0f} | {calls_text(calls)} | {count:,} |", flush=True)
    db = tmp / "clusters.db"
    db.write_text("cluster = {C1, C2, C3}\n")
    print("\n| MAP without evidence | pracmln_poss `map` s | peak MB | solver calls (backbone) | pracmln WCSP s "
          "| peak MB | same MAP cost |")
    print("|---|---:|---:|---:|---:|---:|:---:|", flush=True)
    # every atom, no closed world: the question pracmln's WCSP answers (a project's
    # defaults would close the world and show the query atoms only)
    seconds, peak, out, calls = ours(["map", model, "--db", str(db), "--json", "--no-cw", "--query-preds", "all"], tmp)
    mine = cost(model, db, json.loads(out)["world"])
    t2, p2, other = theirs(model, db, "PRACGrammar")
    same = "yes" if cost(model, db, other) == mine else "NO"
    print(f"| object-recognition, 3 clusters | {seconds:.2f} | {peak:.0f} | {calls_text(calls)} | {t2:.2f} | {p2:.0f} "
          f"| {same} |", flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--map-sizes", type=int, nargs="*", default=[16, 32, 64, 128, 256])
    parser.add_argument("--smokers-sizes", type=int, nargs="*", default=[16, 32, 64, 128, 256, 512])
    parser.add_argument("--learned-sizes", type=int, nargs="*", default=[32, 64, 128, 256, 512])
    parser.add_argument("--cora-sizes", type=int, nargs="*", default=[4, 8, 16, 32])
    parser.add_argument("--pracmln-max", type=int, default=128, help="largest n pracmln's WCSP runs on (default 128)")
    parser.add_argument("--skip-others", action="store_true", help="leave out section 3")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if args.map_sizes:
            map_rows(args.map_sizes, args.pracmln_max, tmp)
        if args.smokers_sizes:
            convert_rows("convert the paper's smokers, k = 2", [
                (f"n = {n}", [str(PAPER / "smokers.mln"), "--domain-size", f"person={n}", "-k", "2", "-j", "1"])
                for n in args.smokers_sizes], tmp)
        if args.learned_sizes:
            learned = support.pracmln_examples() / "smokers" / "smokers.pracmln"
            convert_rows("convert pracmln's learned smokers, k = 2", [
                (f"n = {n}", [f"{learned}:wts.pybpll.smoking-train-smoking.mln", "--domain-size", f"person={n}",
                              "-k", "2", "-j", "1"])
                for n in args.learned_sizes], tmp)
        if args.cora_sizes:
            convert_rows("convert CORA, n papers and n persons, k = 2", [
                (f"n = {n}", [str(PAPER / "cora.mln"), "--domain-size", f"pap={n}", "--domain-size", f"per={n}",
                              "-k", "2", "-j", "1"])
                for n in args.cora_sizes], tmp)
        if not args.skip_others:
            other_rows(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
