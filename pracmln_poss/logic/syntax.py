"""Reading and writing formulas in pracmln's formula syntax.

Connectives: ``!`` (not), ``^`` (and), ``v`` (or), ``=>``, ``<=>``, ``EXIST x, y (...)``,
``t1 = t2`` and ``t1 != t2`` (also pracmln's ``=/=``), and our own ``TRUE``/``FALSE``.  Precedence follows the grammar:
in pracmln's *StandardGrammar* ``v`` binds tighter than ``^``; in *PRACGrammar* (and in
ordinary logic) ``^`` binds tighter than ``v``.  Output is always parenthesised so that
it reads back the same under both grammars.

Terms: under the standard grammar, names starting with a lower-case letter are
variables and all others constants; under the PRAC grammar variables start with
``?``.  With ``ground=True`` every term is a constant and atoms may have no
arguments (``a => x``), which is how ground MLNs are written in Python.
"""

from __future__ import annotations

__all__ = [
    "GRAMMARS",
    "parse_formula",
    "parse_literal",
    "format_formula",
    "atom_name",
    "strip_comments",
]

import re
from functools import lru_cache
from typing import Callable

import pyparsing as pp

from ..errors import FormulaSyntaxError, SourcePosition, UnknownNameError
from .formula import (
    And,
    Atom,
    Constant,
    Equals,
    Exists,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    PredAtom,
    Term,
    Truth,
    Variable,
)

GRAMMARS = ("StandardGrammar", "PRACGrammar")

pp.ParserElement.enable_packrat()

_NAME_CHARS = pp.alphanums + "_-'"


@lru_cache(maxsize=None)
def _parser(grammar: str, ground: bool) -> pp.ParserElement:
    if grammar not in GRAMMARS:
        raise UnknownNameError(f"unknown grammar {grammar!r}; valid: {', '.join(GRAMMARS)}")
    prac = grammar == "PRACGrammar"

    def make_term(tok: str) -> Term:
        if ground:
            return Constant(tok)
        if prac:
            return Variable(tok) if tok.startswith("?") else Constant(tok)
        return Variable(tok) if tok[0].islower() else Constant(tok)

    keyword = pp.Keyword("v") | pp.Keyword("EXIST") | pp.Keyword("TRUE") | pp.Keyword("FALSE")
    # "v" is the "or" operator, except as a predicate name directly followed by "("
    name = pp.Regex(r"v(?=\s*\()") | (~keyword + pp.Word(pp.alphas + "_", _NAME_CHARS))
    quoted = pp.Combine(pp.Literal('"') + pp.CharsNotIn('"') + pp.Literal('"'))
    term_text = quoted | pp.Word(_NAME_CHARS + ("?" if prac else "")) | pp.Word("?", _NAME_CHARS)
    term = term_text.copy().set_parse_action(lambda t: make_term(t[0]))
    lpar, rpar = pp.Suppress("("), pp.Suppress(")")
    args = pp.Group(pp.Optional(pp.DelimitedList(term)))
    pred_atom = (name + pp.Optional(lpar + args + rpar, default=None)).set_parse_action(
        lambda t: PredAtom(t[0], tuple(t[1]) if t[1] is not None else ())
    )
    eq_op = pp.Literal("!=") | pp.Literal("=/=") | pp.Literal("=")
    equality = (term + eq_op + term).set_parse_action(
        lambda t: Equals(t[0], t[2]) if t[1] == "=" else Not(Equals(t[0], t[2]))
    )
    formula = pp.Forward()
    variable = pp.Word(pp.alphas + "?", _NAME_CHARS).set_parse_action(lambda t: Variable(t[0]))
    exist = (pp.Suppress(pp.Keyword("EXIST")) + pp.Group(pp.DelimitedList(variable)) + lpar + formula + rpar).set_parse_action(
        lambda t: Exists(tuple(t[0]), t[1])
    )
    truth = (pp.Keyword("TRUE") | pp.Keyword("FALSE")).set_parse_action(
        lambda t: Truth(t[0] == "TRUE")
    )
    operand = truth | exist | equality | pred_atom

    def fold(cls: Callable[..., Formula], assoc_right: bool = False):
        def action(t):  # t[0] = [a, a, ...] after suppressing the operator
            items = list(t[0])
            if cls in (And, Or):
                return cls(tuple(items))
            if assoc_right:
                out = items[-1]
                for item in reversed(items[:-1]):
                    out = cls(item, out)
                return out
            out = items[0]
            for item in items[1:]:
                out = cls(out, item)
            return out

        return action

    neg = (pp.Suppress("!"), 1, pp.OpAssoc.RIGHT, lambda t: Not(t[0][0]))
    conj = (pp.Suppress("^"), 2, pp.OpAssoc.LEFT, fold(And))
    disj = (pp.Suppress(pp.Keyword("v")), 2, pp.OpAssoc.LEFT, fold(Or))
    impl = (pp.Suppress("=>"), 2, pp.OpAssoc.LEFT, fold(Implies, assoc_right=True))
    iff = (pp.Suppress("<=>"), 2, pp.OpAssoc.LEFT, fold(Iff))
    levels = [neg, conj, disj] if prac else [neg, disj, conj]
    formula <<= pp.infix_notation(operand, levels + [impl, iff])
    return formula + pp.StringEnd()


def parse_formula(
    text: str,
    grammar: str = "StandardGrammar",
    *,
    ground: bool = False,
    position: SourcePosition | None = None,
) -> Formula:
    """Parse a formula written in pracmln syntax into a first-order formula tree.

    :raises FormulaSyntaxError: naming the text and the column of the problem.
    """
    try:
        return _parser(grammar, ground).parse_string(text, parse_all=True)[0]
    except pp.ParseBaseException as exc:
        pos = position or SourcePosition(text=text)
        rest = text[exc.loc:].strip()
        where = f"unexpected {rest[:20]!r}" if rest else "unexpected end of text"
        raise FormulaSyntaxError(
            f"cannot parse formula {text.strip()!r}: {where} at column {exc.col}", pos
        ) from None


_SIMPLE_LITERAL = re.compile(r"^\s*(!?)\s*([A-Za-z_][\w'-]*)\s*(?:\(([\w'\s,-]*)\))?\s*$")


def parse_literal(text: str, grammar: str = "StandardGrammar") -> tuple[bool, PredAtom]:
    """Parse a ground literal ``[!]pred(C1, ...)``; returns ``(positive, atom)``."""
    m = _SIMPLE_LITERAL.match(text)  # the common case, without the full grammar (fast)
    if m and m.group(2) not in ("v", "EXIST", "TRUE", "FALSE"):
        args = m.group(3)
        names = tuple(a.strip() for a in args.split(",")) if args is not None else ()
        if all(names):
            return not m.group(1), PredAtom(m.group(2), tuple(Constant(a) for a in names))
    f = parse_formula(text, grammar, ground=True)
    positive = True
    while isinstance(f, Not):
        positive, f = not positive, f.arg
    if not isinstance(f, PredAtom):
        raise FormulaSyntaxError(f"{text.strip()!r} is not a literal")
    return positive, f


def strip_comments(text: str) -> str:
    """Remove ``//`` and ``/* */`` comments, keeping every newline (so line numbers hold)."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    text = re.sub(r"/\*.*?\*/", blank, text, flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", text)


def atom_name(pred: str, args: tuple[str, ...]) -> str:
    """The canonical name of a ground atom: ``pred(A,B)``, or ``pred`` without arguments."""
    return f"{pred}({','.join(args)})" if args else pred


def _term(t: Term) -> str:
    return t.name


_PREC = {Iff: 1, Implies: 2, Or: 3, And: 3, Not: 5}


def format_formula(f: Formula, name: Callable[[int], str] | None = None) -> str:
    """Print a formula in pracmln syntax, parenthesised to read back under either grammar.

    :param name: maps atom ints to names, for ground formulas with :class:`Atom` leaves.
    """

    def go(g: Formula, parent: int) -> str:
        if isinstance(g, Atom):
            return name(g.index) if name else f"#{g.index}"
        if isinstance(g, PredAtom):
            return atom_name(g.pred, tuple(_term(a) for a in g.args))
        if isinstance(g, Equals):
            return f"{_term(g.left)} = {_term(g.right)}"
        if isinstance(g, Truth):
            return "TRUE" if g.value else "FALSE"
        if isinstance(g, Not):
            if isinstance(g.arg, Equals):
                return f"{_term(g.arg.left)} != {_term(g.arg.right)}"
            if isinstance(g.arg, (Atom, PredAtom)):
                return "!" + go(g.arg, 5)
            return f"!({go(g.arg, 0)})"
        if isinstance(g, Exists):
            names = ", ".join(v.name for v in g.variables)
            return f"EXIST {names} ({go(g.body, 0)})"
        if isinstance(g, (And, Or)):
            op = " ^ " if isinstance(g, And) else " v "
            # every compound child gets parentheses: the text reads back to the same tree
            text = op.join(go(a, 4) for a in g.args)
            return f"({text})" if parent >= 4 else text
        if isinstance(g, (Implies, Iff)):
            op = " => " if isinstance(g, Implies) else " <=> "
            text = go(g.left, 4) + op + go(g.right, 4)
            return f"({text})" if parent >= 1 else text
        raise TypeError(f"cannot print {g!r}")

    return go(f, 0)
