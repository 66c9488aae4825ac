#!/usr/bin/env python3
"""Possibilistic query speed: one incremental solver and a binary search over levels.

A random theory of 1,000 clauses over 200 atoms in 50 levels, shaped like the rules
the transformations produce: a head literal and a body of 0 to 2 literals (clauses of
1, 2 or 3 literals, in proportions 10:45:45).  The whole theory is inconsistent, so queries drown.  Each query
adds 3 random evidence literals and asks a random literal.  (Uniform random 3-literal
clauses would put some cut at the 3-SAT phase transition, where a single SAT call
takes seconds whatever the reasoner does: a benchmark of the SAT solver, not of us.)  Printed beside the target
(at most ceil(log2 #levels) + 2 solver calls, under 5 ms per query) and beside a
naive reference that builds a fresh solver per cut and scans the levels upwards.

    python benchmarks/query.py [--queries 2000] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysat.solvers import Solver  # noqa: E402

from pracmln_poss.logic.formula import Atom, Not, Or  # noqa: E402
from pracmln_poss.possibilistic import PossibilisticFormula, PossibilisticTheory, Reasoner  # noqa: E402


def random_theory(rng: random.Random, clauses: int, atoms: int, levels: int) -> PossibilisticTheory:
    formulas = []
    for _ in range(clauses):
        lits = rng.sample(range(1, atoms + 1), rng.choices((1, 2, 3), weights=(10, 45, 45))[0])
        f = Or(tuple(Atom(a) if rng.random() < 0.5 else Not(Atom(a)) for a in lits))
        formulas.append(PossibilisticFormula(f, rng.randrange(levels) * 1_000_000))
    return PossibilisticTheory(tuple(f"p{i}" for i in range(1, atoms + 1)), tuple(formulas))


def naive_query(theory: PossibilisticTheory, evidence: list[int], query: int) -> tuple[bool, int]:
    """Reference: a fresh solver per cut, levels scanned from the bottom."""
    calls = 0
    for level in theory.levels():
        clauses = [[(a.index if isinstance(a, Atom) else -a.arg.index) for a in pf.formula.args]
                   for pf in theory.formulas if pf.level >= level]
        with Solver(name="g3", bootstrap_with=clauses) as s:
            calls += 1
            if s.solve(assumptions=evidence):
                calls += 1
                return not s.solve(assumptions=evidence + [-query]), calls
    return True, calls


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--naive-queries", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    theory = random_theory(rng, 1000, 200, 50)
    n_levels = len(theory.levels())
    target_calls = math.ceil(math.log2(n_levels)) + 2
    queries = []
    for _ in range(args.queries):
        ev_atoms = rng.sample(range(1, 201), 4)
        evidence = [a if rng.random() < 0.5 else -a for a in ev_atoms[:3]]
        queries.append((evidence, ev_atoms[3] if rng.random() < 0.5 else -ev_atoms[3]))
    times, calls, cons = [], [], []
    index = {level: i for i, level in enumerate(theory.levels())}
    start = time.perf_counter()
    with Reasoner(theory) as reasoner:
        setup = time.perf_counter() - start
        for evidence, q in queries:
            before = reasoner.calls
            t0 = time.perf_counter()
            result = reasoner.query(evidence, Atom(abs(q)) if q > 0 else Not(Atom(-q)))
            cons.append(index.get(result.consistency_steps, n_levels))
            times.append(time.perf_counter() - t0)
            calls.append(reasoner.calls - before)
    naive_times, naive_calls = [], []
    for evidence, q in queries[: args.naive_queries]:
        t0 = time.perf_counter()
        _, c = naive_query(theory, evidence, q)
        naive_times.append(time.perf_counter() - t0)
        naive_calls.append(c)
    ms = 1000
    print(f"theory: {len(theory)} clauses, {theory.n_atoms} atoms, {n_levels} levels; solver set-up {setup * ms:.1f} ms")
    print(f"consistency levels reached: {len(set(cons))} distinct, median index {statistics.median(cons):.0f} of {n_levels}")
    print("| | median ms/query | p95 ms/query | median calls | max calls |")
    print("|---|---:|---:|---:|---:|")
    print(f"| pracmln_poss reasoner ({len(times)} queries) | {statistics.median(times) * ms:.2f} | "
          f"{sorted(times)[int(0.95 * len(times))] * ms:.2f} | {statistics.median(calls):.0f} | {max(calls)} |")
    print(f"| naive: fresh solver per cut, linear scan ({len(naive_times)} queries) | "
          f"{statistics.median(naive_times) * ms:.2f} | {sorted(naive_times)[int(0.95 * len(naive_times))] * ms:.2f} | "
          f"{statistics.median(naive_calls):.0f} | {max(naive_calls)} |")
    print(f"| target | < 5 | | | {target_calls} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
