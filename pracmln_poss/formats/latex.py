"""LaTeX listings of possibilistic theories, in the style of the paper (Section 5).

One ``(formula, \\lambda_x)`` pair per line in an ``align*`` environment, grouped by
level (a comment line between levels), certain formulas last with certainty 1.  A
lifted theory's rules keep their variables, with a comment line per type above.
"""

from __future__ import annotations

__all__ = ["to_latex"]

from collections.abc import Callable

from ..logic.formula import And, Atom, Equals, Formula, Iff, Implies, Not, Or, PredAtom, Truth
from ..possibilistic.protocol import Theory
from ..weights import INF, format_weight
from .sections import by_level

_SPECIAL = {"_": r"\_", "&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$", "{": r"\{", "}": r"\}",
            "\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
"""Every character LaTeX gives a meaning to, as text (a constant like ``A\\input/x`` must
stay a name)."""


def _escape(text: str) -> str:
    return "".join(_SPECIAL.get(c, c) for c in text)


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

    def go(g: Formula, wrap: bool) -> str:
        if isinstance(g, Atom):
            return _atom(name(g.index) if name is not None else f"x_{g.index}")
        if isinstance(g, PredAtom):
            return _predicate(g.pred, [t.name for t in g.args])
        if isinstance(g, Equals):
            return r"\textit{" + _escape(g.left.name) + r"} = \textit{" + _escape(g.right.name) + "}"
        if isinstance(g, Not) and isinstance(g.arg, Equals):
            return r"\textit{" + _escape(g.arg.left.name) + r"} \neq \textit{" + _escape(g.arg.right.name) + "}"
        if isinstance(g, Truth):
            return r"\top" if g.value else r"\bot"
        if isinstance(g, Not):
            return r"\neg " + go(g.arg, True)
        if isinstance(g, (And, Or)):
            op = r" \wedge " if isinstance(g, And) else r" \vee "
            text = op.join(go(a, True) for a in g.args)
        elif isinstance(g, (Implies, Iff)):
            op = r" \rightarrow " if isinstance(g, Implies) else r" \leftrightarrow "
            text = go(g.left, True) + op + go(g.right, True)
        else:
            raise TypeError(f"cannot print {g!r}")
        return f"({text})" if wrap else text

    return go(f, False)


def to_latex(theory: Theory) -> str:
    """The theory, ground or lifted, as a LaTeX ``align*`` listing (deterministic)."""
    lines = []
    prefixes = theory.prefixes()
    for type_name, constants in theory.types:
        lines.append(f"% type {type_name} (variables {prefixes[type_name]}1, {prefixes[type_name]}2, ...): "
                     + ", ".join(constants))
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
