"""The pyparsing grammar our formula parser replaced, kept as an independent reference.

:func:`parse` is the pyparsing reading of pracmln formula syntax that
:mod:`pracmln_poss.logic.syntax` used before its hand-written parser; the tests check
that both read every formula alike.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pyparsing as pp

from pracmln_poss.logic.formula import (
    And,
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


_NAME_CHARS = pp.alphanums + "_-'"


@cache
def _parser(grammar: str, ground: bool) -> pp.ParserElement:
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


def parse(text: str, grammar: str = "StandardGrammar", ground: bool = False) -> Formula | None:
    """The formula tree, or None when the grammar does not read ``text``."""
    try:
        return _parser(grammar, ground).parse_string(text, parse_all=True)[0]
    except pp.ParseBaseException:
        return None
