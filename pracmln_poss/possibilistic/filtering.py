"""Redundancy filtering (the paper's footnote on CORA), in both of its modes.

*aggressive*: remove, one at a time, a formula entailed by the other remaining
formulas of equal or higher level.  *conservative*: remove a formula only when the
remaining formulas of equal or higher level that are no longer than it entail it
(the result stays easier to read).  Either way every cut keeps its models: a
removed formula at level ``x`` is entailed by formulas kept at ``>= x``.

Formulas are tried lowest level first and, within a level, longest first (then in
theory order), so that long, derived rules go before the short ones that imply them.
One incremental SAT solver serves every check (an activation literal per formula).
"""

from __future__ import annotations

__all__ = ["FILTER_MODES", "FilterResult", "filter_redundant", "formula_length", "keep_flags"]

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar, overload

from .. import arguments
from ..errors import UnknownNameError
from ..logic.formula import Atom, Formula, PredAtom, conjunction, negate, walk
from ..stopping import SAT_SOLVER
from ..weights import INF
from .lifted_theory import LiftedTheory
from .selectors import SelectorSolver
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
    lengths = [formula_length(pf.formula) for pf in formulas]
    if isinstance(theory, LiftedTheory):
        groundings = [theory.groundings(pf) for pf in formulas]
        contents = [conjunction(g) for g in groundings]
        tests = [conjunction(g) if pf.steps == INF or not g else g[0] for pf, g in zip(formulas, groundings)]
    else:
        contents = tests = [pf.formula for pf in formulas]
    kept = keep_flags(len(theory.atoms), [pf.steps for pf in formulas], lengths, contents, tests, mode, solver)
    order = sorted(range(len(formulas)), key=lambda i: (formulas[i].steps, -lengths[i], i))
    return (tuple(pf for pf, k in zip(formulas, kept) if k), tuple(formulas[i] for i in order if not kept[i]))


def _check_mode(mode: str) -> None:
    if mode not in FILTER_MODES:
        raise UnknownNameError(f"unknown filter mode {mode!r}; valid: {', '.join(FILTER_MODES)}")


def keep_flags(
    n_atoms: int,
    levels: Sequence[Level],
    lengths: Sequence[int],
    contents: Sequence[Formula],
    tests: Sequence[Formula],
    mode: str,
    solver: str = SAT_SOLVER,
) -> list[bool]:
    """Which items to keep: item ``i`` (whose ground content is ``contents[i]``) is dropped
    when ``tests[i]`` follows from the remaining items of level ``>= levels[i]`` (in
    conservative mode only those no longer than it).  Lowest level first, longest first."""
    _check_mode(mode)
    kept = [True] * len(contents)
    if mode == "none":
        return kept
    order = sorted(range(len(contents)), key=lambda i: (levels[i], -lengths[i], i))
    with SelectorSolver(n_atoms, list(contents), solver) as sat:
        for i in order:
            support = [
                sat.selectors[j]
                for j in range(len(contents))
                if j != i and kept[j] and levels[j] >= levels[i] and (mode == "aggressive" or lengths[j] <= lengths[i])
            ]
            guard = sat.guard(negate(tests[i]))
            if not sat.satisfiable(support + [guard]):
                kept[i] = False
            sat.retire(guard)
    return kept
