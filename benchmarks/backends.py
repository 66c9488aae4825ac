#!/usr/bin/env python3
"""The MAP backends side by side: the measurements behind ``--backend auto``.

For each instance, the calls a conversion makes (optima under evidence sets of one or
two literals, drawn with a fixed seed) are run by every backend in a fresh process,
with a time limit; the table gives milliseconds per call (the loop only: model loading
and the backend's construction are reported apart), whether all backends found the
same optimal costs, and what ``auto`` picks.

Instances: pracmln's object-recognition (learned, 1,719 distinct weights) over 1 to 6
clusters and with its test database; meals with either database (19,591 formulas); the
dense and sparse smokers of ``benchmarks/workloads.py``; the paper's CORA (11 distinct
weights) and smokers.  pracmln's examples are found in its installed data directory.

    python benchmarks/backends.py [--calls N] [--timeout S] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import workloads

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BACKENDS = ["oll", "rc2", "toulbar2", "cpsat"]

CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from pracmln_poss.bridge.loader import load_model
from pracmln_poss.model.grounding import ground
from pracmln_poss.map import open_engine, choose_backend
from pracmln_poss.map.instance import build_instance
model, db, sizes, backend, n = sys.argv[2], sys.argv[3] or None, json.loads(sys.argv[4]), sys.argv[5], int(sys.argv[6])
t = time.perf_counter()
gmln = ground(load_model(model, db, domain_sizes=sizes).model)
instance = build_instance(gmln)
loaded = time.perf_counter() - t
rng = random.Random(0)
free = list(range(1, gmln.n_atoms + 1))
calls = [[]] + [[s * a for s, a in zip((rng.choice((1, -1)), rng.choice((1, -1))), rng.sample(free, 2))][: 1 + i % 2]
                for i in range(n - 1)]
t = time.perf_counter()
engine = open_engine(gmln, backend)
built = time.perf_counter() - t
costs = []
t = time.perf_counter()
with engine:
    for evidence in calls:
        found = engine.find_optimum(evidence)
        costs.append(None if found is None else found.cost)
        print(json.dumps({"done": len(costs)}), flush=True)
loop = time.perf_counter() - t
print(json.dumps({"atoms": gmln.n_atoms, "variables": instance.top, "soft": len(instance.soft),
                  "weights": instance.distinct_weights, "auto": choose_backend(instance), "load": loaded,
                  "build": built, "per_call": loop / len(calls), "costs": costs}))
"""


def instances(directory: Path) -> dict[str, tuple[str, str, dict[str, int]]]:
    """name -> (model, database or '', domain sizes); generated files go to ``directory``."""
    examples = workloads.pracmln_examples()
    orec = examples / "object-recognition" / "object-recognition.pracmln"
    model = f"{orec}:learnt.cll.scenes-new-object-detection.mln"
    meals = examples / "meals" / "meals.pracmln"
    paper = ROOT / "examples" / "paper"
    out: dict[str, tuple[str, str, dict[str, int]]] = {
        f"object-recognition, {n} cluster{'s' if n > 1 else ''}": (model, "", {"cluster": n}) for n in range(1, 7)}
    out["object-recognition, test.db"] = (model, f"{orec}:test.db", {})
    for db in ("query1.db", "query2.db"):
        out[f"meals, {db}"] = (f"{meals}:meals_any_for.mln", f"{meals}:{db}", {})
    for n in (80, 160):
        dense, dense_db = workloads.write_dense_smokers(directory, n)
        out[f"dense smokers, n = {n}"] = (str(dense), str(dense_db), {})
    for n in (64, 128):
        sparse, sparse_db = workloads.write_sparse_smokers(directory, n)
        out[f"sparse smokers, n = {n}"] = (str(sparse), str(sparse_db), {})
    out["CORA (paper)"] = (str(paper / "cora.mln"), "", {})
    out["smokers (paper)"] = (str(paper / "smokers.mln"), "", {})
    return out


def run(model: str, db: str, sizes: dict[str, int], backend: str, calls: int, timeout: float) -> dict | str:
    """The child's report, or how it failed."""
    cmd = [sys.executable, "-c", CHILD, str(ROOT), model, db, json.dumps(sizes), backend, str(calls)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        done = [json.loads(l)["done"] for l in (exc.stdout or b"").decode().splitlines() if l.startswith('{"done"')]
        return f"> {timeout:.0f} s ({max(done, default=0)} calls)"
    if out.returncode != 0:
        return "error: " + (out.stderr.strip().splitlines() or ["?"])[-1][:60]
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=200, help="optimum calls per instance (default 200)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per backend and instance (default 120)")
    parser.add_argument("--only", nargs="+", help="instances whose name starts with one of these")
    args = parser.parse_args(argv)
    print("| instance | atoms | vars | soft clauses | distinct weights | auto | "
          + " | ".join(f"{b} ms/call" for b in BACKENDS) + " | same costs |")
    print("|---|---|---|---|---|---|" + "---|" * len(BACKENDS) + "---|")
    with tempfile.TemporaryDirectory(prefix="pracmln-poss-backends-") as directory:
        rows(args, instances(Path(directory)))
    return 0


def rows(args: argparse.Namespace, table: dict[str, tuple[str, str, dict[str, int]]]) -> None:
    """One row per instance."""
    for name, (model, db, sizes) in table.items():
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        results = {b: run(model, db, sizes, b, args.calls, args.timeout) for b in BACKENDS}
        done = [r for r in results.values() if isinstance(r, dict)]
        if not done:  # (what the instance is, only a finished child reports)
            print(f"| {name} | - | - | - | - | - | " + " | ".join(str(r) for r in results.values()) + " | - |",
                  flush=True)
            continue
        info = done[0]
        cells = [f"{r['per_call'] * 1000:.1f}" if isinstance(r, dict) else r for r in results.values()]
        same = "yes" if all(r["costs"] == info["costs"] for r in done) else "NO"
        print(f"| {name} | {info['atoms']} | {info['variables']} | {info['soft']} | {info['weights']} | "
              f"{info['auto']} | " + " | ".join(cells) + f" | {same} |", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
