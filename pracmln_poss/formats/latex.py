"""LaTeX listings of possibilistic theories, in the style of the paper (Section 5).

One ``(formula, \\lambda_x)`` pair per line in an ``align*`` environment, grouped by
level (a comment line between levels), certain formulas last with certainty 1.  A
lifted theory's rules keep their variables, with a comment line per type above.
"""

from __future__ import annotations

__all__ = ["to_latex"]

from collections.abc import Callable, Iterator
from types import MappingProxyType

from ..errors import one_line
from ..logic.formula import And, Atom, Equals, Fold, Formula, Iff, Implies, Not, Or, PredAtom, Truth
from ..logic.syntax import compound
from ..model.signature import format_constants
from ..possibilistic.protocol import Theory
from ..weights import INF, format_weight
from .sections import by_level

_SPECIAL = MappingProxyType({"_": r"\_", "&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$", "{": r"\{", "}": r"\}",
            "\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"})
"""Every character LaTeX gives a meaning to, as text (a constant like ``A\\input/x`` must
stay a name)."""


def _escape(text: str) -> str:
    # (a control character or line break written as Python writes it in a string: a
    # line break would end the row, or begin a paragraph inside align*)
    return "".join(_SPECIAL.get(c, c) for c in one_line(text))


def _atom(name: str) -> str:
    pred, paren, args = name.partition("(")
    return _predicate(pred, args[:-1].split(",") if paren else [])


def _predicate(pred: str, args: list[str]) -> str:
    out = r"\textit{" + _escape(pred) + "}"
    if args:
        out += "(" + ", ".join(r"\textit{" + _escape(a) + "}" for a in args) + ")"
    return out


def latex_formula(f: Formula, name: Callable[[int], str] | None) -> str:
    """A formula in LaTeX math (``\\neg``, ``\\wedge``, ``\\vee``, ``\\rightarrow``, ``\\neq``);
    ``name`` names the atom ints of ground formulas."""

    return _LaTeX(name)(f)


def _equality(f: Equals, op: str) -> str:
    return r"\textit{" + _escape(f.left.name) + "} " + op + r" \textit{" + _escape(f.right.name) + "}"


def _part(f: Formula, text: str) -> str:
    return f"({text})" if compound(f) else text


class _LaTeX(Fold[str]):
    doing = "print"

    def __init__(self, name: Callable[[int], str] | None) -> None:
        self.name = name

    def atom(self, f: Atom) -> str:
        return _atom(self.name(f.index) if self.name is not None else f"x_{f.index}")

    def pred_atom(self, f: PredAtom) -> str:
        return _predicate(f.pred, [t.name for t in f.args])

    def equals(self, f: Equals) -> str:
        return _equality(f, "=")

    def truth(self, f: Truth) -> str:
        return r"\top" if f.value else r"\bot"

    def not_(self, f: Not, arg: str) -> str:
        return _equality(f.arg, r"\neq") if isinstance(f.arg, Equals) else r"\neg " + _part(f.arg, arg)

    def and_(self, f: And, parts: Iterator[str]) -> str:
        return r" \wedge ".join(map(_part, f.args, parts))

    def or_(self, f: Or, parts: Iterator[str]) -> str:
        return r" \vee ".join(map(_part, f.args, parts))

    def implies(self, f: Implies, left: str, right: str) -> str:
        return _part(f.left, left) + r" \rightarrow " + _part(f.right, right)

    def iff(self, f: Iff, left: str, right: str) -> str:
        return _part(f.left, left) + r" \leftrightarrow " + _part(f.right, right)


def to_latex(theory: Theory) -> str:
    """The theory, ground or lifted, as a LaTeX ``align*`` listing (deterministic)."""
    lines = []
    prefixes = theory.prefixes()
    for type_name, constants in theory.types:
        # (one line: a constant's line break would end the comment, and what follows be LaTeX)
        lines.append(one_line(f"% type {type_name} (variables {prefixes[type_name]}1, {prefixes[type_name]}2, ...): "
                              + format_constants(constants)))
    lines.append(r"\begin{align*}")
    rows: list[str] = []
    for level, group in by_level(theory):
        weight = "1" if level == INF else r"\lambda_{" + format_weight(level, theory.resolution) + "}"
        rows.append(f"% level {theory.steps_name(level)}")
        for pf in group:
            rows.append(f"&({latex_formula(pf.formula, getattr(theory, 'name', None))}, {weight}) \\\\")
    # no line break after the last row
    for i in range(len(rows) - 1, -1, -1):
        if rows[i].endswith(" \\\\"):
            rows[i] = rows[i][:-3]
            break
    lines.extend(rows)
    lines.append(r"\end{align*}")
    return "\n".join(lines) + "\n"
