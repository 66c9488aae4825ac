#!/usr/bin/env python3
"""Interchangeable constants and canonical forms: ours beside a graph-automorphism tool.

igraph's ``automorphism_group`` and ``canonical_permutation`` (bliss, in C) are what the
field uses for both questions. This measures, in one run, on the same inputs:

1. finding the classes of interchangeable constants of a ground model: our
   ``find_symmetry`` (constants the first-order model does not name joined at once, the
   named ones swapped on the first-order model, else tested on the ground formulas that
   mention them) against bliss's automorphism group of the ground model as a coloured
   graph (one vertex per constant, atom, argument place and formula node), the graph's
   construction included (bliss gives orbits, which a swap test must still split);
2. the canonical forms of the evidence sets the lifted search examines: our
   ``canonical`` (each set once, no memo) against bliss's canonical labelling of each
   set as a small coloured graph (literals, argument places, constants coloured by
   class), construction included and the renaming back to a set left out.

igraph is not a dependency: install it where this runs (``pip install igraph``).

    python benchmarks/automorphisms.py
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial

from support import ROOT

sys.path.insert(0, str(ROOT))

from pracmln_poss import load_first_order  # noqa: E402
from pracmln_poss.logic.formula import Atom, children  # noqa: E402
from pracmln_poss.model.ground_mln import GroundMLN  # noqa: E402
from pracmln_poss.model.grounding import ground  # noqa: E402
from pracmln_poss.search.canonical import canonical  # noqa: E402
from pracmln_poss.search.interchangeability import find_symmetry  # noqa: E402
from pracmln_poss.search.representatives import candidates, set_order  # noqa: E402
from pracmln_poss.search.symmetry import Symmetry  # noqa: E402

PAPER = ROOT / "examples" / "paper"

CASES = [
    ("paper smokers, n = 128, k = 2", PAPER / "smokers.mln", {"person": 128}, 2),
    ("paper smokers, n = 512, k = 2", PAPER / "smokers.mln", {"person": 512}, 2),
    ("CORA 32x32, k = 2", PAPER / "cora.mln", {"pap": 32, "per": 32}, 2),
    ("CORA 4x4, k = 3", PAPER / "cora.mln", {"pap": 4, "per": 4}, 3),
]


class _Graph:
    """A vertex-coloured graph built up for igraph."""

    def __init__(self) -> None:
        self.colors: list[object] = []
        self.edges: list[tuple[int, int]] = []

    def vertex(self, color: object) -> int:
        self.colors.append(color)
        return len(self.colors) - 1

    def solve(self, ig: object, canonical_labelling: bool) -> object:
        palette = {c: i for i, c in enumerate(sorted(set(map(repr, self.colors))))}
        graph = ig.Graph(n=len(self.colors), edges=self.edges)  # type: ignore[attr-defined]
        colors = [palette[repr(c)] for c in self.colors]
        if canonical_labelling:
            return graph.canonical_permutation(color=colors)
        return graph.automorphism_group(color=colors)


def model_graph(g: GroundMLN, sym: Symmetry, domains: dict[str, tuple[str, ...]]) -> _Graph:
    graph = _Graph()
    const = {c: graph.vertex(("constant", d)) for d, cs in domains.items() for c in cs}
    atoms = [0]
    for pred, args in sym.atom_info[1:]:
        a = graph.vertex(("atom", pred))
        atoms.append(a)
        for i, c in enumerate(args):
            place = graph.vertex(("place", pred, i))
            graph.edges += [(a, place), (place, const[c])]
    for wf in g.soft + g.hard:
        stack = [(wf.formula, graph.vertex(("formula", wf.weight)))]
        while stack:
            f, parent = stack.pop()
            if isinstance(f, Atom):
                graph.edges.append((parent, atoms[f.index]))
                continue
            for part in children(f):
                v = graph.vertex(type(part).__name__) if not isinstance(part, Atom) else parent
                if v != parent:
                    graph.edges.append((parent, v))
                stack.append((part, v))
    return graph


def set_graph(e: tuple[int, ...], sym: Symmetry) -> _Graph:
    graph = _Graph()
    const: dict[str, int] = {}
    for lit in e:
        pred, args = sym.atom_info[abs(lit)]
        v = graph.vertex(("literal", lit > 0, pred))
        for i, c in enumerate(args):
            if c not in const:
                cls = sym.types[c]
                const[c] = graph.vertex(("class", cls) if len(sym.classes[cls]) > 1 else ("constant", c))
            place = graph.vertex(("place", pred, i))
            graph.edges += [(v, place), (place, const[c])]
    return graph


def examined_sets(sym: Symmetry, k: int) -> Iterator[tuple[int, ...]]:
    level: list[tuple[int, ...]] = [()]
    for size in range(1, k + 1):
        found = [c for rep in level for c in candidates(rep, sym)]
        yield from found
        if size < k:
            level = sorted({canonical(c, sym) for c in found}, key=set_order)


TIMEOUT = 120.0
"""Seconds a measurement of bliss gets (in a child process, killed after)."""


def _child(job: Callable[[], object], out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    start = time.perf_counter()
    found = job()
    out.put((time.perf_counter() - start, found))


def timed(job: Callable[[], object]) -> tuple[float | None, object]:
    """Seconds ``job`` takes in a forked child and what it returns, or None after :data:`TIMEOUT`."""
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=_child, args=(job, out))
    child.start()
    child.join(TIMEOUT)
    if child.is_alive():
        child.kill()
        child.join()
        return None, None
    return out.get()


def _generators(ig: object, g: GroundMLN, sym: Symmetry, domains: dict[str, tuple[str, ...]]) -> int:
    return len(model_graph(g, sym, domains).solve(ig, False))  # type: ignore[arg-type]


def _labellings(ig: object, sets: list[tuple[int, ...]], sym: Symmetry) -> None:
    for e in sets:
        set_graph(e, sym).solve(ig, True)


def shown(seconds: float | None) -> str:
    return f"> {TIMEOUT:.0f} (stopped)" if seconds is None else f"{seconds:.3f}"


def main() -> int:
    try:
        import igraph
    except ImportError:
        sys.exit("igraph is not installed here (pip install igraph): nothing to compare with")
    print("| question | ours s | bliss (igraph) s | what |")
    print("|---|---:|---:|---|", flush=True)
    for name, path, sizes, k in CASES:
        model = load_first_order(str(path), domain_sizes=sizes)
        g = ground(model, force=True)
        start = time.perf_counter()
        sym = find_symmetry(g, model.domain_map, model.named, model.swap_invariant)
        ours = time.perf_counter() - start
        theirs, generators = timed(partial(_generators, igraph, g, sym, dict(model.domain_map)))
        print(f"| classes, {name} | {ours:.3f} | {shown(theirs)} | {len(sym.classes)} classes; bliss: "
              f"{generators} generators |", flush=True)
        sets = list(examined_sets(sym, k))
        fresh = find_symmetry(g, model.domain_map, model.named, model.swap_invariant)
        canonical(sets[-1], fresh)  # (its tables of uses, built once per model, left out as bliss's import is)
        fresh.memo.clear()
        start = time.perf_counter()
        for e in sets:
            canonical(e, fresh)
        ours = time.perf_counter() - start
        theirs, _ = timed(partial(_labellings, igraph, sets, sym))
        print(f"| canonical forms, {name} | {ours:.3f} | {shown(theirs)} | {len(sets):,} sets |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
