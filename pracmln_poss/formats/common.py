"""What the writers share: formulas grouped by level, ascending, certain ones last."""

from __future__ import annotations

__all__ = ["by_level"]

from ..possibilistic.theory import Level, PossibilisticFormula, PossibilisticTheory


def by_level(theory: PossibilisticTheory) -> list[tuple[Level, list[PossibilisticFormula]]]:
    """The theory's formulas grouped by level (ascending, ``INF`` last), theory order within."""
    groups: dict[Level, list[PossibilisticFormula]] = {}
    for pf in theory.formulas:
        groups.setdefault(pf.level, []).append(pf)
    return sorted(groups.items(), key=lambda item: item[0])
