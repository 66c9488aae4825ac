#!/usr/bin/env python3
"""pracmln's own example projects: loading, MAP and focused conversion, beside pracmln.

Every ``*.pracmln`` project in pracmln's installed data directory
(``pracmln.utils.locs.examples``, found at run time; nothing is copied here):

1. **MAP**: ``pracmln-poss map PROJECT --json`` (the project's model, database and
   grammar; a MAP world *and* the backbone) in a fresh process, against pracmln's
   ``MLN.load`` + ``Database.load`` + ``WCSPInference`` on the same files in another
   fresh process (or the error it gives). Both worlds are priced with exact integer
   arithmetic on our grounding: the costs must be equal. Load times are measured
   inside each process (ours: read and ground; pracmln: ``MLN.load`` + ``Database.load``).
2. **Convert**: ``pracmln-poss convert PROJECT -k K`` focused on the project's query
   predicates (its ``query.conf``), k = 1 and 2, with a small domain where the project
   has no database (object-recognition: one cluster): rules, levels, seconds, peak MB.
3. **Loading at scale**: generated models of 2,000 / 8,000 / 20,000 learned-style
   formulas, ours against pracmln's ``MLN.load``, whole process.

All times are whole process (interpreter start-up and imports included)::

    python benchmarks/pracmln_examples.py [--only NAME ...] [--skip-convert] [--timeout S]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pracmln_poss.compat import import_pracmln  # noqa: E402

EXE = Path(sys.executable).parent / "pracmln-poss"

# projects without a database get small domains for the conversion
SMALL_DOMAINS = {"object-recognition": ["--domain-size", "cluster=1"]}
EVIDENCE_PREDS = {  # evidence over the other predicates, as a user of the project would ask
    "object-recognition": "color,goggles,goggles_Logo,goggles_Product,goggles_Text,scene,shape",
}

PRACMLN_MAP = r"""
import json, sys, time, io, contextlib
t0 = time.perf_counter()
from pracmln_poss.compat import import_pracmln
pracmln = import_pracmln()
from pracmln.mln.inference.wcspinfer import WCSPInference
project, mln_name, db_name, grammar, closed = sys.argv[1:6]
out = {"import": time.perf_counter() - t0}
try:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        t = time.perf_counter()
        mln = pracmln.MLN.load(project + ":" + mln_name, grammar=grammar, logic="FirstOrderLogic")
        db = pracmln.Database.load(mln, project + ":" + db_name)[0] if db_name != "-" else pracmln.Database(mln)
        out["load"] = time.perf_counter() - t
        mrf = mln.ground(db)
        # the project's closed world, as pracmln's query tool applies it (cw: the
        # predicates other than the queries; every atom is asked for, so named here)
        result = WCSPInference(mrf, queries=[str(a) for a in mrf.gndatoms],
                               cw_preds=[p for p in closed.split(",") if p]).run().results
    out["world"] = {name: value >= 0.5 for name, value in result.items()}
except Exception as exc:
    out["error"] = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:80]
print(json.dumps(out))
"""

OUR_LOAD = r"""
import json, sys, time
from pracmln_poss.bridge.loader import load_model
from pracmln_poss.model.grounding import ground
t = time.perf_counter()
model = load_model(sys.argv[1], None if sys.argv[2] == "-" else sys.argv[2], grammar=sys.argv[3] if sys.argv[3] != "-" else None).model
g = ground(model)
print(json.dumps({"load": time.perf_counter() - t, "formulas": len(model.formulas), "atoms": g.n_atoms}))
"""

PRACMLN_LOAD = r"""
import json, sys, time, io, contextlib
from pracmln_poss.compat import import_pracmln
pracmln = import_pracmln()
t = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    mln = pracmln.MLN.load(sys.argv[1], grammar=sys.argv[2], logic="FirstOrderLogic")
print(json.dumps({"load": time.perf_counter() - t, "formulas": len(mln.formulas)}))
"""


def measure(cmd: list[str], timeout: float) -> tuple[float, float, str | None, str]:
    """Run ``cmd`` in a fresh process (through a wrapper that reports its child's peak
    memory): seconds, peak MB, stdout (None on timeout), stderr."""
    wrapper = (
        "import json, resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "try:\n"
        "    r = subprocess.run(sys.argv[2:], capture_output=True, text=True, timeout=float(sys.argv[1]))\n"
        "    out, err = r.stdout, r.stderr\n"
        "except subprocess.TimeoutExpired:\n"
        "    out, err = None, 'timeout'\n"
        "print(json.dumps([time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, out, err]))\n"
    )
    done = subprocess.run([sys.executable, "-c", wrapper, str(timeout), *cmd], capture_output=True, text=True, check=True)
    seconds, peak, out, err = json.loads(done.stdout)
    return seconds, peak, out, err


def projects(only: list[str] | None) -> list[Path]:
    import_pracmln()
    from pracmln.utils import locs

    found = sorted(Path(locs.examples).glob("*/*.pracmln"))
    return [p for p in found if not only or p.stem in only]


def map_rows(project: Path, timeout: float) -> str:
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.bridge.project import read_project
    from pracmln_poss.errors import PossError
    from pracmln_poss.map.engine import World, world_cost
    from pracmln_poss.model.closed_world import closed_predicates
    from pracmln_poss.model.grounding import ground
    from pracmln_poss.weights import format_weight

    settings = read_project(project).settings
    grammar = settings.grammar or "StandardGrammar"
    name = project.stem
    try:  # the project's closed world (our map applies it; pracmln is told the same)
        closed = closed_predicates(load_model(project).model, settings.cw, settings.cw_preds, settings.queries or ())
    except PossError:
        closed = ()
    ours_s, ours_mb, out, err = measure([str(EXE), "map", str(project), "--json", "--query-preds", "all"], timeout)
    load_s, _, load_out, _ = measure([sys.executable, "-c", OUR_LOAD, str(project), "-", "-"], timeout)
    theirs_s, theirs_mb, t_out, _ = measure(
        [sys.executable, "-c", PRACMLN_MAP, str(project), settings.mln or "-", settings.db or "-", grammar,
         ",".join(closed)], timeout
    )
    if out is None:
        ours = f"timeout ({timeout:.0f} s)"
    elif not out.strip():
        ours = "error: " + err.strip().splitlines()[-1][:70].replace("|", "/")
    else:
        ours = f"{ours_s:.2f}"
    ours_load = f"{json.loads(load_out)['load']:.2f}" if load_out and load_out.strip() else "-"
    theirs_info = json.loads(t_out) if t_out and t_out.strip() else {"error": "timeout" if t_out is None else "crashed"}
    theirs_load = f"{theirs_info['load']:.2f}" if "load" in theirs_info else "-"
    if "error" in theirs_info:
        theirs = "error: " + theirs_info["error"].replace("|", "/")
    else:
        theirs = f"{theirs_s:.2f}"
    same, cost = "-", "-"
    if out and out.strip() and "world" in theirs_info:
        try:
            g = ground(load_model(project, cw=None, cw_preds=None).model)
        except PossError:
            g = None
        if g is not None:
            mine = json.loads(out)["world"]
            ours_world = World((False, *(mine[n] for n in g.atoms)))
            their_world = World((False, *(theirs_info["world"].get(n, False) for n in g.atoms)))
            a, b = world_cost(g, ours_world), world_cost(g, their_world)
            cost = format_weight(a, g.resolution)
            same = "yes" if a == b else f"NO (pracmln's world costs {format_weight(b, g.resolution)})"
    shown_closed = ("cw: " if settings.cw else "cw_preds: ") + ", ".join(closed) if closed else "-"
    return (f"| {name} | {shown_closed} | {ours_load} | {theirs_load} | {ours} | {theirs} | {ours_mb:.0f} | "
            f"{theirs_mb:.0f} | {cost} | {same} |")


def convert_rows(project: Path, timeout: float, ks: list[int]) -> list[str]:
    from pracmln_poss.bridge.project import read_project

    settings = read_project(project).settings
    name = project.stem
    rows = []
    if not settings.queries:
        return [f"| {name} | - | - | - | - | - | - | no query predicates in query.conf |"]
    extra = []
    if name in SMALL_DOMAINS:
        extra = [f"{project}:{settings.mln}", *SMALL_DOMAINS[name]]
    else:
        extra = [str(project)]
    if name in EVIDENCE_PREDS:
        extra += ["--evidence-preds", EVIDENCE_PREDS[name]]
    for k in ks:
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "out.theory"
            seconds, peak, out, err = measure([str(EXE), "convert", *extra, "-k", str(k), "--quiet", "-o", str(target)],
                                              timeout)
            if out is None:
                rows.append(f"| {name} | {k} | {','.join(settings.queries)} | - | - | timeout ({timeout:.0f} s) | {peak:.0f} | |")
                continue
            if not target.exists():
                rows.append(f"| {name} | {k} | {','.join(settings.queries)} | - | - | - | {peak:.0f} | "
                            f"error: {err.strip().splitlines()[-1][:60] if err.strip() else '?'} |")
                continue
            header = target.read_text().splitlines()[0]
            words = header.split(":")[-1].split()
            rules, levels = words[0], words[3] if len(words) > 3 else "?"
            rows.append(f"| {name} | {k} | {','.join(settings.queries)} | {rules} | {levels} | {seconds:.1f} | {peak:.0f} | |")
    return rows


def generated_model(n: int, rng: random.Random) -> str:
    """A learned-style model: 6 predicates over 3 domains, ``n`` weighted conjunctions
    naming constants, each with its own weight."""
    lines = ["// generated: learned-style formulas"]
    colors = [f"C{i}" for i in range(40)]
    shapes = [f"S{i}" for i in range(40)]
    objects = [f"O{i}" for i in range(60)]
    lines += ["cluster = {K1, K2}", "color(cluster, col)", "shape(cluster, shp)", "object(cluster, obj!)",
              "near(cluster, cluster)", ""]
    for _ in range(n):
        weight = rng.uniform(-5, 5)
        parts = [f"color(c, {rng.choice(colors)})", f"shape(c, {rng.choice(shapes)})", f"object(c, {rng.choice(objects)})"]
        if rng.random() < 0.2:
            parts.append("near(c, d)")
        lines.append(f"{weight:.6f} {' ^ '.join(parts)}")
    return "\n".join(lines) + "\n"


def loading_rows(sizes: list[int], timeout: float) -> list[str]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"gen{n}.mln"
            path.write_text(generated_model(n, random.Random(n)))
            ours_s, ours_mb, out, _ = measure([sys.executable, "-c", OUR_LOAD, str(path), "-", "StandardGrammar"], timeout)
            theirs_s, theirs_mb, t_out, _ = measure([sys.executable, "-c", PRACMLN_LOAD, str(path), "StandardGrammar"], timeout)
            ours = f"{ours_s:.2f}" if out else "timeout" if out is None else "error"
            theirs = f"{theirs_s:.2f}" if t_out else "timeout" if t_out is None else "error"
            per = f"{1e6 * ours_s / n:.0f}" if out else "-"
            rows.append(f"| {n} | {ours} | {per} | {theirs} | {ours_mb:.0f} | {theirs_mb:.0f} |")
            print(rows[-1], flush=True)
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", help="project names (stems), e.g. object-recognition meals")
    parser.add_argument("--skip-map", action="store_true")
    parser.add_argument("--skip-convert", action="store_true")
    parser.add_argument("--skip-loading", action="store_true")
    parser.add_argument("-k", type=int, nargs="+", default=[1, 2], help="conversion sizes (default 1 2)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per process (default 600)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 8000, 20000])
    args = parser.parse_args(argv)
    found = projects(args.only)
    if not args.skip_map:
        print("MAP, whole process (ours: map --json, world and backbone; pracmln: MLN.load + Database.load + "
              "WCSPInference); load = read (+ ground, ours) inside the process")
        print("| project | closed world | load ours (s) | load pracmln (s) | MAP ours (s) | MAP pracmln (s) | ours MB "
              "| pracmln MB | MAP cost | same cost |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|:---:|", flush=True)
        for project in found:
            print(map_rows(project, args.timeout), flush=True)
    if not args.skip_convert:
        print("\nconvert, focused on the project's query predicates (whole process)")
        print("| project | k | query predicates | rules | levels | seconds | peak MB | note |")
        print("|---|---:|---|---:|---:|---:|---:|---|", flush=True)
        for project in found:
            for row in convert_rows(project, args.timeout, args.k):
                print(row, flush=True)
    if not args.skip_loading:
        print("\nloading generated models, whole process (ours: read + ground; pracmln: MLN.load)")
        print("| formulas | ours (s) | ours µs/formula | pracmln (s) | ours MB | pracmln MB |")
        print("|---:|---:|---:|---:|---:|---:|", flush=True)
        loading_rows(args.sizes, args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
