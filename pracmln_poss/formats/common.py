"""What the writers share: formulas grouped by level, ascending, certain ones last."""

from __future__ import annotations

__all__ = ["by_level", "level_sections"]

from typing import Callable

from ..logic.formula import Formula
from ..possibilistic.theory import Level, PossibilisticFormula, PossibilisticTheory
from ..weights import INF, Resolution, format_weight


def by_level(theory: PossibilisticTheory) -> list[tuple[Level, list[PossibilisticFormula]]]:
    """The theory's formulas grouped by level (ascending, ``INF`` last), theory order within."""
    groups: dict[Level, list[PossibilisticFormula]] = {}
    for pf in theory.formulas:
        groups.setdefault(pf.level, []).append(pf)
    return sorted(groups.items(), key=lambda item: item[0])


def level_sections(
    groups: list[tuple[Level, list[PossibilisticFormula]]],
    resolution: Resolution,
    show: Callable[[Formula], str],
) -> list[str]:
    """The text-format lines of the level groups: a comment per level, then
    ``LEVEL  FORMULA  // from: ORIGIN`` per formula."""
    lines: list[str] = []
    for level, formulas in groups:
        lines.append("")
        lines.append("// certain (level 1)" if level == INF else f"// level lambda_{format_weight(level, resolution)}")
        for pf in formulas:
            text = f"{format_weight(pf.level, resolution)}  {show(pf.formula)}"
            if pf.origin:
                text += f"  // from: {pf.origin}"
            lines.append(text)
    return lines
