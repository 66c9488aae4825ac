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

__all__ = ["FILTER_MODES", "FilterResult", "filter_redundant", "formula_length"]

from dataclasses import dataclass

from ..errors import UnknownNameError
from ..logic.formula import Atom, Formula, negate, walk
from .selectors import SelectorSolver
from .theory import PossibilisticFormula, PossibilisticTheory

FILTER_MODES = ("none", "conservative", "aggressive")


@dataclass(frozen=True)
class FilterResult:
    """The filtered theory and the formulas removed, in removal order."""

    theory: PossibilisticTheory
    removed: tuple[PossibilisticFormula, ...]


def formula_length(f: Formula) -> int:
    """The number of atom occurrences: the length of a clause or rule."""
    return sum(1 for g in walk(f) if isinstance(g, Atom))


def filter_redundant(theory: PossibilisticTheory, mode: str = "aggressive", solver: str = "g3") -> FilterResult:
    """Remove redundant formulas; the result has the same cuts up to logical equivalence.

    :raises UnknownNameError: for a mode not in :data:`FILTER_MODES`.
    """
    if mode not in FILTER_MODES:
        raise UnknownNameError(f"unknown filter mode {mode!r}; valid: {', '.join(FILTER_MODES)}")
    if mode == "none":
        return FilterResult(theory, ())
    formulas = theory.formulas
    lengths = [formula_length(pf.formula) for pf in formulas]
    kept = [True] * len(formulas)
    order = sorted(range(len(formulas)), key=lambda i: (formulas[i].level, -lengths[i], i))
    removed: list[PossibilisticFormula] = []
    with SelectorSolver(theory.n_atoms, [pf.formula for pf in formulas], solver) as sat:
        for i in order:
            pf = formulas[i]
            support = [
                sat.selectors[j]
                for j in range(len(formulas))
                if j != i
                and kept[j]
                and formulas[j].level >= pf.level
                and (mode == "aggressive" or lengths[j] <= lengths[i])
            ]
            guard = sat.guard(negate(pf.formula))
            if not sat.satisfiable(support + [guard]):
                kept[i] = False
                removed.append(pf)
            sat.retire(guard)
    return FilterResult(theory.with_formulas(pf for pf, k in zip(formulas, kept) if k), tuple(removed))
