"""Redundancy filtering (the paper's footnote on CORA), in both of its modes.

*aggressive*: remove, one at a time, a formula entailed by the other remaining
formulas of equal or higher level.  *conservative*: remove a formula only when the
remaining formulas of equal or higher level that are no longer than it entail it
(the result stays easier to read).  Either way every cut keeps its models: a
removed formula at level ``x`` is entailed by formulas kept at ``>= x``.

Formulas are tried lowest level first and, within a level, longest first (then in
theory order), so that long, derived rules go before the short ones that imply them.
One incremental SAT solver serves every check; the levels are worked from the highest
down, which decides the same (see :func:`keep_flags`), so that each check costs about
its own level's size.
"""

from __future__ import annotations

__all__ = ["FILTER_MODES", "FilterResult", "filter_redundant", "formula_length", "keep_flags"]

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Generic, TypeVar, overload

from pysat.solvers import Solver

from .. import arguments, stopping
from ..errors import UnknownNameError
from ..logic.cnf import Clause, VarPool, clauses_of, clausify
from ..logic.formula import Atom, Formula, Implies, NodeMemo, PredAtom, conjunction, negate, walk
from ..stopping import SAT_SOLVER
from ..weights import INF
from .ground_clauses import ClauseGrounder
from .lifted_theory import LiftedTheory
from .theory import Level, PossibilisticFormula, PossibilisticTheory

T = TypeVar("T", PossibilisticTheory, LiftedTheory)

FILTER_MODES = ("none", "conservative", "aggressive")
"""The redundancy filters, by name."""


@dataclass(frozen=True)
class FilterResult(Generic[T]):
    """The filtered theory (of the type given) and the formulas removed, in removal order."""

    theory: T
    removed: tuple[PossibilisticFormula, ...]


def formula_length(f: Formula) -> int:
    """The number of atom occurrences: the length of a clause or rule."""
    return sum(1 for g in walk(f) if isinstance(g, (Atom, PredAtom)))


@overload
def filter_redundant(theory: PossibilisticTheory, mode: str = ..., solver: str = ...
                     ) -> FilterResult[PossibilisticTheory]: ...
@overload
def filter_redundant(theory: LiftedTheory, mode: str = ..., solver: str = ...) -> FilterResult[LiftedTheory]: ...
def filter_redundant(theory: PossibilisticTheory | LiftedTheory, mode: str = "aggressive", solver: str = SAT_SOLVER
                     ) -> FilterResult[PossibilisticTheory] | FilterResult[LiftedTheory]:
    """Remove redundant formulas; every cut of the result has the same models as before.

    A formula of a ground theory goes when the other remaining ones of equal or higher
    level entail it.  A first-order rule of a lifted theory goes when its groundings
    follow from the groundings of the other remaining rules.  For the rules of evidence
    classes (finite levels) one grounding is tested: their variables range over
    interchangeable constants and are pairwise distinct, so their groundings are images
    of each other under symmetries of the theory, and one follows exactly when all do.
    Certain rules (the MLN's hard formulas, over whole domains and without ``!=``) are
    tested with all their groundings.

    :raises UnknownNameError: for a mode not in :data:`FILTER_MODES`.
    """
    arguments.instance("theory", theory, PossibilisticTheory | LiftedTheory, "a PossibilisticTheory or a LiftedTheory")
    _check_mode(mode)
    if isinstance(theory, LiftedTheory):
        if mode == "none":
            return FilterResult(theory, ())  # nothing to ground
        kept, removed = _filter(theory, mode, solver)
        return FilterResult(replace(theory, formulas=kept), removed)
    kept, removed = _filter(theory, mode, solver)
    return FilterResult(theory.with_formulas(kept), removed)


def _filter(theory: PossibilisticTheory | LiftedTheory, mode: str, solver: str
            ) -> tuple[tuple[PossibilisticFormula, ...], tuple[PossibilisticFormula, ...]]:
    """The formulas kept, in theory order, and those removed, in removal order."""
    formulas = theory.formulas
    lengths = _lengths([pf.formula for pf in formulas])
    contents: list[Formula | list[Clause]] = []
    tests: list[Formula | list[Clause]] = []
    if isinstance(theory, LiftedTheory):
        grounder = ClauseGrounder(dict(theory.types), theory.atom_numbers)
        for pf, variables in zip(formulas, theory.rule_variables):
            made = None if pf.steps == INF else grounder.clauses(pf.formula, variables)
            if made is not None:  # (the rule's groundings as clauses, the first one as its test)
                clauses, first = made
                contents.append(clauses)
                tests.append(first)
                continue
            groundings = theory.groundings(pf)
            contents.append(conjunction(groundings))
            tests.append(conjunction(groundings) if pf.steps == INF or not groundings else groundings[0])
    else:
        tests = [pf.formula for pf in formulas]
        contents = list(tests)
    kept = keep_flags(len(theory.atoms), [pf.steps for pf in formulas], lengths, contents, tests, mode, solver)
    order = sorted(range(len(formulas)), key=lambda i: (formulas[i].steps, -lengths[i], i))
    return (tuple(pf for pf, k in zip(formulas, kept) if k), tuple(formulas[i] for i in order if not kept[i]))


def _lengths(formulas: Sequence[Formula]) -> list[int]:
    """:func:`formula_length` of each formula, that of each side of an ``=>`` once per
    side object (a read theory's rules share their sides)."""
    side = NodeMemo(formula_length)
    return [side(f.left) + side(f.right) if isinstance(f, Implies) else formula_length(f) for f in formulas]


def _negated(test: Formula | list[Clause], pool: VarPool) -> list[Clause]:
    """Clauses of the negation of a test: of a formula, Tseitin's; of clauses
    ``C1 ^ ... ^ Cm``, one of them false (``a_k`` says ``C_k`` is: its literals all false)."""
    if not isinstance(test, list):
        return clausify(negate(test), pool)
    if len(test) == 1:
        return [(-lit,) for lit in test[0]]
    out: list[Clause] = []
    chosen = []
    for clause in test:
        a = pool.new()
        chosen.append(a)
        out.extend((-a, -lit) for lit in clause)
    out.append(tuple(chosen))
    return out


def _check_mode(mode: str) -> None:
    if mode not in FILTER_MODES:
        raise UnknownNameError(f"unknown filter mode {mode!r}; valid: {', '.join(FILTER_MODES)}")


def keep_flags(
    n_atoms: int,
    levels: Sequence[Level],
    lengths: Sequence[int],
    contents: Sequence[Formula | list[Clause]],
    tests: Sequence[Formula | list[Clause]],
    mode: str,
    solver: str = SAT_SOLVER,
) -> list[bool]:
    """Which items to keep: item ``i`` (whose ground content is ``contents[i]``, a formula
    or its clauses over the atoms' numbers; ``tests[i]`` likewise) is dropped
    when ``tests[i]`` follows from the remaining items of level ``>= levels[i]`` (in
    conservative mode only those no longer than it), tried lowest level first and, within
    a level, longest first.

    The levels are worked from the highest down, which decides exactly what the lowest
    first would (``docs/filtering.md``): an item's question involves only its own level
    and those above, and the items kept above a level entail every item dropped there (by
    items no longer than it), so that asking with the kept ones or with all gives the
    same answer.  Worked downwards, what is kept above is final: it joins one SAT solver
    for good, switched on by one assumption (in conservative mode one per length), and
    only the items of the level at hand go in as assumptions.  Each question then costs
    about the size of its own level, not of the theory.
    """
    _check_mode(mode)
    kept = [True] * len(contents)
    if mode == "none":
        return kept
    order = sorted(range(len(contents)), key=lambda i: (levels[i], -lengths[i], i))
    bands = [list(band) for _, band in groupby(order, key=lambda i: levels[i])]
    conservative = mode == "conservative"
    pool = VarPool(n_atoms)
    # (conservative: gate[l] switches on the items kept above the level that are no longer
    # than l; assuming it assumes every shorter gate too)
    sizes = sorted(set(lengths))
    gate = {size: pool.new() for size in sizes} if conservative else {}
    with Solver(name=solver) as sat:
        for shorter, longer in zip(sizes, sizes[1:]) if conservative else ():
            sat.add_clause([-gate[longer], gate[shorter]])
        for band in reversed(bands):
            selector = {i: pool.new() for i in band}
            clauses = {i: clauses_of(contents[i], pool) for i in band}
            for i in band:
                for clause in clauses[i]:
                    sat.add_clause([*clause, -selector[i]])
            for place, i in enumerate(band):
                # the band is longest first: the items before i are no shorter, those after no longer
                support = [selector[j] for j in band[:place] if kept[j] and (not conservative or lengths[j] <= lengths[i])]
                support += [selector[j] for j in band[place + 1:]]
                guard = pool.new()
                for clause in _negated(tests[i], pool):
                    sat.add_clause([*clause, -guard])
                if not stopping.sat(sat, [*support, guard, *([gate[lengths[i]]] if conservative else [])]):
                    kept[i] = False
                sat.add_clause([-guard])
            for i in band:  # (the band is final: what it keeps joins every question below it)
                if kept[i] and not conservative:
                    sat.add_clause([selector[i]])
                    continue
                sat.add_clause([-selector[i]])
                if kept[i]:
                    for clause in clauses[i]:
                        sat.add_clause([*clause, -gate[lengths[i]]])
    return kept
