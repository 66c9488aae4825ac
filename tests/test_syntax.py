import pytest
from hypothesis import given

from pracmln_poss.errors import FormulaSyntaxError, PossError
from pracmln_poss.logic.formula import And, Constant, Equals, Exists, Implies, Not, Or, PredAtom, Variable
from pracmln_poss.logic.syntax import format_formula, parse_formula, parse_literal

from .strategies import formulas


def A(name, *args):
    return PredAtom(name, tuple(args))


def test_standard_grammar_binds_v_tighter_than_and():
    f = parse_formula("a ^ b v c")
    assert f == And((A("a"), Or((A("b"), A("c")))))


def test_prac_grammar_binds_and_tighter():
    f = parse_formula("a ^ b v c", "PRACGrammar")
    assert f == Or((And((A("a"), A("b"))), A("c")))


def test_variables_and_constants():
    x, t = Variable("x"), Constant("Tweety")
    assert parse_formula("bird(x) => flies(Tweety)") == Implies(A("bird", x), A("flies", t))
    assert parse_formula("bird(?x)", "PRACGrammar") == A("bird", Variable("?x"))
    assert parse_formula("bird(x)", ground=True) == A("bird", Constant("x"))


def test_exist_and_equality():
    f = parse_formula("EXIST y (f(x, y) ^ x != y)")
    x, y = Variable("x"), Variable("y")
    assert f == Exists((y,), And((A("f", x, y), Not(Equals(x, y)))))
    assert parse_formula("!(x =/= y)") == Not(Not(Equals(x, y)))


def test_literal():
    assert parse_literal("!Friends(Anna, Bob)") == (False, A("Friends", Constant("Anna"), Constant("Bob")))
    with pytest.raises(FormulaSyntaxError):
        parse_literal("a ^ b")


@pytest.mark.parametrize("bad", ["a ^", "a(x", "=> b", "a b", ""])
def test_malformed_formulas_name_the_text(bad):
    with pytest.raises(FormulaSyntaxError) as info:
        parse_formula(bad)
    assert isinstance(info.value, (PossError, ValueError))
    assert repr(bad.strip()) in str(info.value)


@given(formulas(4))
def test_printed_formulas_read_back_under_both_grammars(f):
    text = format_formula(f, lambda i: f"p{i}")
    for grammar in ("StandardGrammar", "PRACGrammar"):
        back = parse_formula(text, grammar, ground=True)
        assert format_formula(back) == format_formula(_named(f))


def _named(f):
    from pracmln_poss.atoms import map_leaves
    return map_leaves(f, lambda a: A(f"p{a.index}"))
