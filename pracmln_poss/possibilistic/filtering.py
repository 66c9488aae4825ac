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

__all__ = ["FILTER_MODES", "FilterResult", "filter_redundant", "formula_length", "redundant_order"]

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import UnknownNameError
from ..logic.formula import Atom, Formula, PredAtom, negate, walk
from .selectors import SelectorSolver
from .theory import Level, PossibilisticFormula, PossibilisticTheory

FILTER_MODES = ("none", "conservative", "aggressive")


@dataclass(frozen=True)
class FilterResult:
    """The filtered theory and the formulas removed, in removal order."""

    theory: PossibilisticTheory
    removed: tuple[PossibilisticFormula, ...]


def formula_length(f: Formula) -> int:
    """The number of atom occurrences: the length of a clause or rule."""
    return sum(1 for g in walk(f) if isinstance(g, (Atom, PredAtom)))


def filter_redundant(theory: PossibilisticTheory, mode: str = "aggressive", solver: str = "g3") -> FilterResult:
    """Remove redundant formulas; the result has the same cuts up to logical equivalence.

    :raises UnknownNameError: for a mode not in :data:`FILTER_MODES`.
    """
    formulas = theory.formulas
    kept = redundant_order(
        theory.n_atoms,
        [pf.level for pf in formulas],
        [formula_length(pf.formula) for pf in formulas],
        [pf.formula for pf in formulas],
        [pf.formula for pf in formulas],
        mode,
        solver,
    )
    order = sorted(range(len(formulas)), key=lambda i: (formulas[i].level, -formula_length(formulas[i].formula), i))
    removed = tuple(formulas[i] for i in order if not kept[i])
    return FilterResult(theory.with_formulas(pf for pf, k in zip(formulas, kept) if k), removed)


def redundant_order(
    n_atoms: int,
    levels: Sequence[Level],
    lengths: Sequence[int],
    contents: Sequence[Formula],
    tests: Sequence[Formula],
    mode: str,
    solver: str = "g3",
) -> list[bool]:
    """Which items to keep: item ``i`` (whose ground content is ``contents[i]``) is dropped
    when ``tests[i]`` follows from the remaining items of level ``>= levels[i]`` (in
    conservative mode only those no longer than it).  Lowest level first, longest first."""
    if mode not in FILTER_MODES:
        raise UnknownNameError(f"unknown filter mode {mode!r}; valid: {', '.join(FILTER_MODES)}")
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
