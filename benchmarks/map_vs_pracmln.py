#!/usr/bin/env python3
"""End-to-end MAP inference: pracmln_poss (RC2) against pracmln's WCSPInference.

A smokers MLN (``Smokes(x) => Cancer(x)``, ``Friends(x,y) => (Smokes(x) <=> Smokes(y))``)
over n persons, with random evidence: every Friends atom (each pair friends with
probability 0.1) and Smokes of a third of the persons.  Both sides parse the same
.mln/.db files, ground and solve; the pracmln world's cost is computed with our
exact arithmetic and must equal our optimum.  Times are wall-clock seconds for
the whole pipeline (pracmln's import excluded on both sides: it is shared).

    python benchmarks/map_vs_pracmln.py [--sizes 20 40 80 160] [--seed 0] [--pracmln-max 160]
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pracmln_poss.bridge.loader import load_model  # noqa: E402
from pracmln_poss.compat import import_pracmln  # noqa: E402
from pracmln_poss.grounding import ground  # noqa: E402
from pracmln_poss.map import open_engine  # noqa: E402
from pracmln_poss.map.engine import (
    World,  # noqa: E402
    world_cost,  # noqa: E402
)
from pracmln_poss.weights import format_weight  # noqa: E402

MLN = """\
Smokes(person)
Cancer(person)
Friends(person, person)

1.126769 Smokes(x) => Cancer(x)
1.577776 Friends(x, y) => (Smokes(x) <=> Smokes(y))
"""


def write_problem(directory: Path, n: int, rng: random.Random) -> tuple[Path, Path]:
    people = [f"P{i}" for i in range(n)]
    lines = []
    for a in people:
        for b in people:
            lines.append(("" if rng.random() < 0.1 else "!") + f"Friends({a},{b})")
    for a in rng.sample(people, n // 3):
        lines.append(("" if rng.random() < 0.5 else "!") + f"Smokes({a})")
    mln, db = directory / f"smokers{n}.mln", directory / f"smokers{n}.db"
    mln.write_text(MLN)
    db.write_text("\n".join(lines) + "\n")
    return mln, db


def ours(mln: Path, db: Path):
    start = time.perf_counter()
    g = ground(load_model(mln, db).model)
    with open_engine(g) as engine:
        optimum = engine.optimum()
    return time.perf_counter() - start, g, optimum


def theirs(mln_path: Path, db_path: Path, g, engine_cost):
    pracmln = import_pracmln()
    from pracmln.mln.inference.wcspinfer import WCSPInference

    start = time.perf_counter()
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        mln = pracmln.MLN.load(str(mln_path), grammar="StandardGrammar", logic="FirstOrderLogic")
        db = pracmln.Database.load(mln, str(db_path))[0]
        mrf = mln.ground(db)
        queries = [str(a) for a in mrf.gndatoms]
        result = WCSPInference(mrf, queries=queries).run().results
    elapsed = time.perf_counter() - start
    values = [False] * (g.n_atoms + 1)
    for i, name in enumerate(g.atoms, 1):
        values[i] = bool(result.get(name, 0) >= 0.5)
    return elapsed, engine_cost(World(tuple(values)))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 40, 80, 160])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pracmln-max", type=int, default=160, help="largest n to run pracmln on")
    args = parser.parse_args(argv)
    import_pracmln()
    print("| n | atoms | soft groundings | pracmln_poss (s) | pracmln WCSPInference (s) | speed-up | MAP cost | same cost |")
    print("|---:|---:|---:|---:|---:|---:|---:|:---:|", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            mln, db = write_problem(Path(tmp), n, random.Random(args.seed + n))
            t_ours, g, optimum = ours(mln, db)
            cost_text = format_weight(optimum.cost, g.resolution)
            if n <= args.pracmln_max:
                t_theirs, cost = theirs(mln, db, g, lambda world: world_cost(g, world))  # noqa: B023 (called here)
                same = "yes" if cost == optimum.cost else f"NO ({format_weight(cost, g.resolution)})"
                theirs_text, ratio = f"{t_theirs:.2f}", f"{t_theirs / t_ours:.1f}x"
            else:
                theirs_text, ratio, same = "not run", "-", "-"
            print(
                f"| {n} | {g.n_atoms} | {len(g.soft)} | {t_ours:.2f} | {theirs_text} | {ratio} | {cost_text} | {same} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
