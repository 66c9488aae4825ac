"""The text format of possibilistic theories: one formula per line, grouped by level.

::

    // pracmln_poss possibilistic theory: 3 formulas in 2 levels
    #resolution 1e-06
    #atoms bird(T) flies(T) penguin(T)

    // level lambda_0.5
    0.5  bird(T) => flies(T)  // from: {bird(T)}

    // certain (inf)
    inf  penguin(T) => bird(T)

Each formula line is ``LEVEL  FORMULA``: the level in the model's weight units (the
penalty ``x`` of ``lambda_x``) or ``inf`` for certain formulas, then the formula in
pracmln syntax, always parenthesised so that both pracmln grammars read it the same.
A trailing ``// from: ...`` comment records where the formula came from.  Other
``//`` and ``/* */`` comments are ignored.  ``#resolution`` fixes the unit of exact
levels; ``#atoms`` lists the atoms in order (atoms mentioned by no formula included).
Writing then reading gives the same theory, with formulas grouped by level.
"""

from __future__ import annotations

__all__ = ["write_text", "read_text"]


from ..errors import FormulaSyntaxError, PossError, UnknownNameError, WeightError
from ..logic.leaves import intern_atoms
from ..logic.syntax import parse_formula, split_names
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory
from ..sources import numbered_lines
from ..version import __version__
from ..weights import Resolution
from .sections import by_level, check_header, check_names, counted, level_sections, made_by_of, split_formula_line


def write_text(theory: PossibilisticTheory) -> str:
    """The theory in the text format (deterministic: same theory, same bytes)."""
    check_names(theory.atoms)
    groups = by_level(theory)
    lines = [
        f"// pracmln_poss {__version__} possibilistic theory: "
        f"{len(theory):,} formulas in {counted(len(groups), 'level')}",
        f"#resolution {theory.resolution}",
        "#atoms " + " ".join(theory.atoms),
    ]
    lines.extend(level_sections(groups, theory.resolution, theory.format))
    return "\n".join(lines) + "\n"


def read_text(text: str, source: str | None = None) -> PossibilisticTheory:
    """Read a theory written by :func:`write_text` (or by hand).

    :raises PossError: naming the line and its text for anything malformed.
    """
    resolution = Resolution()
    names: dict[str, int] = {}
    declared = False  # an #atoms line fixes the atoms: any other name is an error
    formulas: list[PossibilisticFormula] = []
    seen_formula = False
    for pos, body in numbered_lines(text, source):
        if body.startswith("#"):
            directive, _, value = body.partition(" ")
            if directive == "#resolution":
                if seen_formula:
                    raise FormulaSyntaxError("#resolution must come before the formulas", pos)
                try:
                    resolution = Resolution(value.strip())
                except WeightError as exc:
                    raise WeightError(exc.message, pos) from None
            elif directive == "#atoms":
                declared = True
                for name in split_names(value):
                    names.setdefault(name, len(names) + 1)
            else:
                raise FormulaSyntaxError(f"unknown directive {directive!r} (known: #resolution, #atoms)", pos)
            continue
        level, formula_text, origin = split_formula_line(body, pos, resolution)
        tree = parse_formula(formula_text, ground=True, position=pos)
        before = len(names)
        try:
            ground = intern_atoms(tree, names)
        except PossError as exc:
            raise exc.at(pos) from None
        if declared and len(names) > before:
            new = list(names)[before:]
            raise UnknownNameError(
                f"{new[0]} is not an atom of the theory (not in its #atoms line); a ground theory has no "
                "variables, and a lifted one needs its #type lines",
                pos,
            )
        formulas.append(PossibilisticFormula(ground, level, origin, resolution))
        seen_formula = True
    check_header(text, len(formulas), len({pf.steps for pf in formulas}), source, declared)
    return PossibilisticTheory(tuple(names), tuple(formulas), resolution, made_by_of(text))
