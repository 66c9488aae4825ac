import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pracmln_poss.errors import FormulaSyntaxError
from pracmln_poss.logic.formula import And, Constant, Equals, Exists, Implies, Not, Or, PredAtom, Variable
from pracmln_poss.logic.syntax import MAX_DEPTH, format_formula, parse_formula, parse_literal

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
    assert repr(bad.strip()) in str(info.value)


@given(formulas(4))
def test_printed_formulas_read_back_under_both_grammars(f):
    text = format_formula(f, lambda i: f"p{i}")
    for grammar in ("StandardGrammar", "PRACGrammar"):
        back = parse_formula(text, grammar, ground=True)
        assert format_formula(back) == format_formula(_named(f))


def _named(f):
    from pracmln_poss.logic.leaves import map_leaves
    return map_leaves(f, lambda a: A(f"p{a.index}"))


_TOKENS = ["a", "b(x)", "c(X, ?y)", "v(x)", "v (x)", "p", "Tweety", "x", "?z", "!", "^", " v ", "=>", "<=>",
           "(", ")", "=", "!=", "=/=", ",", "EXIST y", "EXIST y, ?w", "TRUE", "FALSE", '"q r"', "q(A,B)", "p()"]


@given(st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=8), st.sampled_from(["", " ", "  "]))
def test_parser_reads_every_text_as_the_pyparsing_grammar_does(tokens, joiner):
    """The hand-written parser against the pyparsing grammar it replaced
    (tests/reference_syntax.py): same tree, or both refuse the text.  One difference is
    intended: under PRACGrammar and in ground formulas, constants may hold ``!`` and
    ``?`` inside (pracmln's PRACGrammar reads ``ja!_``; see the test below), where the
    old grammar split the word."""
    import re

    from .reference_syntax import parse as reference

    text = joiner.join(tokens)
    inner_marks = re.search(r"[A-Za-z0-9_'?\-][!?](?!=)", text) is not None
    for grammar in ("StandardGrammar", "PRACGrammar"):
        for ground in (False, True):
            if inner_marks and (ground or grammar == "PRACGrammar"):
                continue
            expected = reference(text, grammar, ground)
            try:
                got = parse_formula(text, grammar, ground=ground)
            except FormulaSyntaxError:
                got = None
            assert got == expected, (text, grammar, ground)


def test_prac_constants_take_pracmlns_wider_characters():
    c = parse_formula("g(?c,ja!_) ^ h(?c,FLAKES_00.000_) ^ ?c != ?d", "PRACGrammar")
    assert c == And((A("g", Variable("?c"), Constant("ja!_")), A("h", Variable("?c"), Constant("FLAKES_00.000_")),
                     Not(Equals(Variable("?c"), Variable("?d")))))
    assert parse_formula("g(http://x.org/a)", ground=True) == A("g", Constant("http://x.org/a"))
    for bad in ("a!", "g.h(A)", "p(x.y)"):  # predicate names and StandardGrammar terms stay narrow
        with pytest.raises(FormulaSyntaxError):
            parse_formula(bad, ground=bad == "a!")


@pytest.mark.parametrize("text", ["!" * 1000 + "a", "(" * 1000 + "a" + ")" * 1000, "!(" * 600 + "a" + ")" * 600])
def test_deep_nesting_is_a_clear_error_not_a_recursion_error(text):
    with pytest.raises(FormulaSyntaxError, match=f"deeper than {MAX_DEPTH} levels"):
        parse_formula(text)


def test_nesting_up_to_the_limit_reads():
    depth = MAX_DEPTH - 1
    assert parse_formula("(" * depth + "a" + ")" * depth) == A("a")
    f = parse_formula("!" * MAX_DEPTH + "a")
    for _ in range(MAX_DEPTH):
        assert isinstance(f, Not)
        f = f.arg
    assert f == A("a")


def test_parsing_leaves_pyparsing_as_it_was():
    """Importing the package must not switch on pyparsing's packrat cache (it slows
    pracmln's own parser 2.5x in the user's process)."""
    import pyparsing as pp

    assert not pp.ParserElement._packratEnabled


_LEAF_TOKENS = _TOKENS + ["a(x,y)", "c1 != c2", "c1=c2", "x =/= y", "ja!_(x)", "b(x!y)", "v(", "(v", "o(Cluster1,Spatula)",
                          "pe2", "!!", " ", "\t", "EXIST(x)", "TRUE(x)", "p (x)", "q(A , B)"]


@given(st.lists(st.sampled_from(_LEAF_TOKENS), min_size=1, max_size=10), st.sampled_from(["", " ", "  "]))
def test_parsing_over_whole_leaves_is_parse_formula_or_gives_up(tokens, joiner):
    """parse_with_leaves (a theory file's reader: each atom's text read once) gives the
    tree parse_formula(ground=True) gives, with its leaves mapped, or gives up (None, or
    the leaf's own error): it never reads a text that parse_formula refuses, nor reads
    one otherwise."""
    from pracmln_poss.logic.formula import map_terms
    from pracmln_poss.logic.syntax import parse_with_leaves

    def leaf(f):  # (a renaming of terms, as a lifted theory's reader types its variables)
        return map_terms(f, lambda t: Variable(t.name, "T") if t.name.startswith("c") else t)

    text = joiner.join(tokens)
    try:
        expected = leaf(parse_formula(text, ground=True))
    except FormulaSyntaxError:
        expected = None
    leaves = {}
    try:
        got = parse_with_leaves(text, leaves, leaf)
    except FormulaSyntaxError:
        got = None
    if got is not None:
        assert got == expected, text
        assert parse_with_leaves(text, leaves, leaf) == expected  # (and again from what it kept)


@given(formulas(4), st.sampled_from([" ", "", "  "]))
def test_the_writers_formulas_are_read_over_whole_leaves(f, space):
    """What the writers print (atoms with arguments, ``!=``, every connective) is read by
    parse_with_leaves, as parse_formula reads it: a theory file's rules take the fast way."""
    from pracmln_poss.logic.syntax import parse_with_leaves

    text = format_formula(f, lambda i: f"p(A{i}, c{i})" if i % 2 else f"c{i} != A{i}").replace(" ", space or " ")
    got = parse_with_leaves(text, {}, lambda leaf: leaf)
    if "TRUE" not in text and "FALSE" not in text:
        assert got is not None, text
    assert got is None or got == parse_formula(text, ground=True)


@given(st.lists(st.lists(st.sampled_from(_LEAF_TOKENS), min_size=1, max_size=8), min_size=1, max_size=6),
       st.sampled_from(["", " ", "  "]))
def test_parsing_by_shape_is_parse_formula_or_gives_up(texts, joiner):
    """parse_with_leaves with ``shapes`` kept across texts (a theory file's reader: the
    connectives of one shape parsed once) reads every text as parse_formula does or
    gives up, whatever texts of the same or another shape came before; a leaf written
    twice is two places (``p(a) v p(a)`` then ``p(a) v p(b)``)."""
    from pracmln_poss.logic.syntax import parse_with_leaves

    shapes, leaves = {}, {}
    for tokens in texts + [["p(x)", " v ", "p(x)"], ["p(x)", " v ", "p(y)"], ["q(A , B)", "^", "!", "q(A , B)"],
                           ["q(A , B)", "^", "!", "r(A)"]]:
        text = joiner.join(tokens)
        try:
            expected = parse_formula(text, ground=True)
        except FormulaSyntaxError:
            expected = None
        try:
            got = parse_with_leaves(text, leaves, lambda leaf: leaf, shapes)
        except FormulaSyntaxError:
            got = None
        if got is not None:
            assert got == expected, text
        elif expected is not None and "TRUE" not in text and "FALSE" not in text and "EXIST" not in text:
            # (the plain texts the old way reads are read by shape too)
            assert parse_with_leaves(text, {}, lambda leaf: leaf) is None, text


_LINE_PIECES = ["a", " ", "//", "/", "*", "/*", "*/", '"', "\n", "\x0b", "\x0c", "\u2028", "x y", "\t", "0  p(A)",
                "// from: {q(B)}", "//from:", " from: ", "// c\x0bd", '"a // b"', "// from: {r(C)}  "]


@example(["0 p(A)", "// c\x0bd", "\n", "e"])
@example(["a", '"a // b"', "// c"])
@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=30))
def test_numbered_lines_line_by_line_is_the_whole_text_reading(pieces):
    """numbered_lines strips a text line by line when no comment can span lines, and
    gives what stripping the whole text at once (as it did before) gives, positions
    included."""
    from pracmln_poss.sources import _whole_text_lines, numbered_lines

    text = "".join(pieces)
    assert list(numbered_lines(text, "f")) == list(_whole_text_lines(text, "f")), repr(text)


@example(["0  p(A)", "// from: {r(C)}  "])
@example(["0  p(A)", "//", " from: ", "x"])
@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=12))
def test_a_lines_origin_is_the_from_comments_reading(pieces):
    """A rule line's origin (read without a regular expression in the common case) is
    what the ``// from:`` pattern reads from the line."""
    from pracmln_poss.formats.sections import _ORIGIN, _origin

    line = "".join(pieces).replace("\n", " ")
    found = _ORIGIN.search(line)
    assert _origin(line) == (found.group(1) if found else None), repr(line)


@pytest.mark.parametrize("leaves", [False, True])
def test_a_long_text_is_parsed_without_holding_all_its_tokens(leaves, monkeypatch):
    """The parser takes tokens from the tokenizer as it needs them and lets go of those it
    consumed: a line of a million atoms held them all as a list of several hundred MB.
    Measured here as the most tokens held at once, with batches of 8, while reading 2,000
    atoms (10,000 tokens), directly and as parse_with_leaves reads a long rule."""
    from pracmln_poss.logic import syntax

    monkeypatch.setattr(syntax, "_BATCH", 8)
    held = [0]
    peek = syntax._Parser.peek

    def counting(self, ahead=0):
        held[0] = max(held[0], len(self.tokens))
        return peek(self, ahead)

    monkeypatch.setattr(syntax._Parser, "peek", counting)
    atoms = [PredAtom("q", (Constant(f"C{i}"),)) for i in range(2000)]
    text = " v ".join(f"q(C{i})" for i in range(2000))
    if leaves:
        got = syntax.parse_with_leaves(text, {}, lambda f: f, {})
    else:
        got = parse_formula(text, ground=True)
    assert got == Or(tuple(atoms))
    assert held[0] <= 8 + 2
