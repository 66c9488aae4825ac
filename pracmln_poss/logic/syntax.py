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
    "MAX_DEPTH",
    "MAX_FORMULA_LENGTH",
    "check_length",
    "parse_formula",
    "parse_with_leaves",
    "Shapes",
    "SHAPED",
    "parse_literal",
    "format_formula",
    "compound",
    "atom_name",
    "strip_comments",
    "compact_atom",
    "split_atom",
    "split_names",
    "split_constants",
    "is_variable_name",
    "KEYWORDS",
]

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter

from ..errors import FormulaSyntaxError, SourcePosition, UnknownNameError
from .formula import (
    And,
    Atom,
    Constant,
    Equals,
    Exists,
    Fold,
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

KEYWORDS = frozenset(("EXIST", "TRUE", "FALSE"))
"""Words that are connectives unless ``(`` follows them (then a predicate so named)."""

MAX_DEPTH = 100
"""The deepest nesting of parentheses, negations and connectives a formula may have:
deeper ones are refused with a clear error instead of exhausting Python's stack."""

MAX_FORMULA_LENGTH = 1_000_000
"""The longest text of one formula, in characters, told before it is parsed: a formula
of 40 MB took 92 s and 3.9 GB before it ran out of memory; one of 2.5 MB (200,000
atoms) is parsed and ground in 6 s (no model or theory needs one so long)."""


def _token_pattern(word: str) -> re.Pattern[str]:
    return re.compile(
        r"""\s*(?:
            (?P<op><=>|=>|=/=|!=|=|!|\^|\(|\)|,)
          | (?P<quoted>"[^"]*")
          | (?P<word>""" + word + r""")
          | (?P<bad>\S)
        )""",
        re.VERBOSE,
    )


# pracmln's identifier characters: StandardGrammar's, and PRACGrammar's wider set
# (constants such as FLAKES_00.000_ or http://x), which ground formulas accept too
_TOKEN = _token_pattern(r"[A-Za-z0-9_'?-]+")
# (\w: letters and digits of every script, as a model's domain declarations take them)
_WIDE_CHARS = r"\w'?\-.:;$~\\/"
_WIDE_TOKEN = _token_pattern(rf"[{_WIDE_CHARS}](?:[{_WIDE_CHARS}]|!(?!=))*")  # ja!_ but not a!=b
_PREDICATE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_'-]*")
# (possessive: nothing that may follow a word in these patterns starts with a word's
# character or a "!" not before "=", so giving characters back never makes a match, and
# not trying saves the time it takes at every position of a long word; runs of
# characters at once, for the same reason)
_WIDE_WORD = rf"[{_WIDE_CHARS}](?:[{_WIDE_CHARS}]++|!(?!=))*+"
# A ground formula's atoms and equalities as single tokens (``leaf``), its connectives
# as the parser's tokens; anything else (keywords, quotes, atoms without arguments, a
# ``v`` not followed by a space or parenthesis) is ``bad``: parse_with_leaves gives up
_LEAF = (rf"""[A-Za-z_][A-Za-z0-9_'-]*\s*\(\s*{_WIDE_WORD}(?:\s*,\s*{_WIDE_WORD})*\s*\)(?![{_WIDE_CHARS}])
            | {_WIDE_WORD}\s*(?:!=|=/=|=)\s*{_WIDE_WORD}""")
_LEAF_TOKEN = re.compile(
    rf"""\s*(?:
        (?P<leaf>{_LEAF})
      | (?P<op><=>|=>|!(?!=)|\^|\(|\))
      | (?P<word>v)(?=[\s()])
      | (?P<bad>\S)
    )""",
    re.VERBOSE,
)
# (a text cut at its leaves: the pieces between them, then the leaves, alternately; no
# leaf token follows a word's character, so no cut is tried there)
_LEAF_SPLIT = re.compile(f"(?<![{_WIDE_CHARS}])({_LEAF})", re.VERBOSE)
_EQ_OPS = frozenset(("=", "!=", "=/="))


class _Unexpected(Exception):
    """Where parsing stopped (an index into the text)."""

    def __init__(self, loc: int, reason: str | None = None) -> None:
        self.loc = loc
        self.reason = reason


def _tokens(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[str, str, int]]:
    """``(kind, text, start)`` triples of ``pattern``'s groups (``_TOKEN``'s: ``op``,
    ``quoted``, ``word``; ``_LEAF_TOKEN``'s: each atom and equality one ``leaf``), then
    ``end`` twice, so that the parser may look one token past the last; ``_Unexpected``
    at a ``bad`` one, when the parser comes to it."""
    for m in pattern.finditer(text):
        kind = m.lastgroup
        if kind == "bad" or kind is None:
            raise _Unexpected(m.start("bad"))
        yield kind, m.group(kind), m.start(kind)
    n = len(text)
    yield "end", "", n
    yield "end", "", n


_BATCH = 1024
"""Tokens the parser takes from the tokenizer at a time: a long text's tokens are never
all held at once (a line of a million atoms held them as a list of several hundred MB)."""


class _Parser:
    """Recursive descent over the tokens; precedence as pracmln's grammars have it.

    ``iff < implies < (and, or in the grammar's order) < not``; ``=>`` groups to the
    right, ``<=>`` to the left; ``v`` before ``(`` in an operand's place is a predicate
    named ``v``.
    """

    def __init__(self, text: str, prac: bool, ground: bool, leaves: dict[str, Formula] | None = None,
                 make_leaf: Callable[[str], Formula] | None = None,
                 tokens: list[tuple[str, str, int]] | None = None) -> None:
        # (the formulas of the ``leaf`` tokens by text, and how to make one not there yet)
        self.leaves = leaves
        self.make_leaf = make_leaf
        pattern = _LEAF_TOKEN if leaves is not None else _WIDE_TOKEN if prac or ground else _TOKEN
        # (the tokens from ``i`` on are the text's next ones; more are taken from the
        # tokenizer as they are needed, those consumed let go: see peek)
        self.source = iter(()) if tokens is not None else _tokens(text, pattern)
        self.tokens = tokens if tokens is not None else []
        self.i = 0
        self.prac = prac
        self.grammar = "PRACGrammar" if prac else "StandardGrammar"
        self.ground = ground
        self.depth = 0
        # the binary connectives from loosest to tightest
        self.levels = ("<=>", "=>", "v", "^") if prac else ("<=>", "=>", "^", "v")

    def peek(self, ahead: int = 0) -> tuple[str, str, int]:
        """The token at hand (``ahead`` 0) or the next (1); never past the ``end`` tokens,
        which no rule consumes."""
        try:
            return self.tokens[self.i + ahead]
        except IndexError:
            del self.tokens[:self.i]
            self.i = 0
            self.tokens += islice(self.source, _BATCH)
            return self.tokens[ahead]

    def at_operator(self, op: str) -> bool:
        kind, text, _ = self.peek()
        return text == op and (kind == "op" or (kind == "word" and op == "v"))

    def at_atom_parenthesis(self) -> bool:
        """Whether the word at hand is followed by ``(`` (a predicate's arguments)."""
        kind, text, _ = self.peek(1)
        return kind == "op" and text == "("

    def expect(self, op: str) -> None:
        if not self.at_operator(op):
            raise _Unexpected(self.peek()[2])
        self.i += 1

    def formula(self) -> Formula:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Unexpected(self.peek()[2], f"formula nests deeper than {MAX_DEPTH} levels")
        try:
            return self.binary(0)
        finally:
            self.depth -= 1

    def operator_level(self) -> int:
        """The level of the binary connective at hand (index into ``levels``), or -1."""
        kind, text, _ = self.peek()
        if kind == "op" or (kind == "word" and text == "v"):
            try:
                return self.levels.index(text)
            except ValueError:
                return -1
        return -1

    def binary(self, lowest: int) -> Formula:
        """Precedence climbing over the connectives of level ``lowest`` and tighter; a
        run of one connective becomes one node (n-ary ``^``/``v``, ``=>`` grouped to the
        right, ``<=>`` to the left)."""
        left = self.unary()
        while True:
            level = self.operator_level()
            if level < lowest:
                return left
            op = self.levels[level]
            items = [left]
            while self.operator_level() == level:
                self.i += 1
                items.append(self.binary(level + 1))
                if op in ("=>", "<=>") and len(items) > MAX_DEPTH:  # (a chain of these nests one deeper each)
                    raise _Unexpected(self.peek()[2], f"formula nests deeper than {MAX_DEPTH} levels")
            left = _fold(op, items)

    def unary(self) -> Formula:
        negations = 0
        while self.at_operator("!"):
            self.i += 1
            negations += 1
            if negations > MAX_DEPTH:
                raise _Unexpected(self.peek()[2], f"formula nests deeper than {MAX_DEPTH} levels")
        out = self.operand()
        for _ in range(negations):
            out = Not(out)
        return out

    def operand(self) -> Formula:
        kind, text, loc = self.peek()
        if kind == "leaf" and self.leaves is not None:
            self.i += 1
            got = self.leaves.get(text)
            if got is None and self.make_leaf is not None:
                got = self.leaves[text] = self.make_leaf(text)
            if got is None:
                raise _Unexpected(loc)
            return got
        if kind == "op" and text == "(":
            self.i += 1
            inner = self.formula()
            self.expect(")")
            return inner
        # (a predicate may be named as a keyword: its "(" tells it apart)
        keyword = kind == "word" and text in KEYWORDS and not self.at_atom_parenthesis()
        if keyword and text in ("TRUE", "FALSE"):
            self.i += 1
            return Truth(text == "TRUE")
        if keyword and text == "EXIST":
            self.i += 1
            return self.exist()
        if self.peek(1)[0] == "op" and self.peek(1)[1] in _EQ_OPS:
            return self.equality()
        if kind != "word":
            raise _Unexpected(loc)
        if text == "v" and self.peek(1)[1] != "(":
            raise _Unexpected(loc)
        if not _PREDICATE_NAME.fullmatch(text):  # the wider characters are for constants only
            raise _Unexpected(loc)
        self.i += 1
        args: list[Term] = []
        if self.at_operator("("):
            self.i += 1
            if not self.at_operator(")"):
                args.append(self.term())
                while self.at_operator(","):
                    self.i += 1
                    args.append(self.term())
            self.expect(")")
        return PredAtom(text, tuple(args))

    def term(self) -> Term:
        kind, text, loc = self.peek()
        if kind == "quoted" or (kind == "word" and (self.prac or "?" not in text[1:])):
            self.i += 1
            if self.ground or kind == "quoted":
                return Constant(text)
            return Variable(text) if is_variable_name(text, self.grammar) else Constant(text)
        raise _Unexpected(loc)

    def equality(self) -> Formula:
        left = self.term()
        op = self.peek()[1]
        self.i += 1
        right = self.term()
        eq = Equals(left, right)
        return eq if op == "=" else Not(eq)

    def exist(self) -> Formula:
        names: list[Variable] = []
        while True:
            kind, text, loc = self.peek()
            if kind != "word" or not (text[0].isalpha() or text[0] == "?"):
                raise _Unexpected(loc)
            self.i += 1
            names.append(Variable(text))
            if not self.at_operator(","):
                break
            self.i += 1
        self.expect("(")
        body = self.formula()
        self.expect(")")
        return Exists(tuple(names), body)


def _fold(op: str, items: list[Formula]) -> Formula:
    if op == "^":
        return And(tuple(items))
    if op == "v":
        return Or(tuple(items))
    if op == "=>":
        out = items[-1]
        for item in reversed(items[:-1]):
            out = Implies(item, out)
        return out
    out = items[0]
    for item in items[1:]:
        out = Iff(out, item)
    return out


def check_length(text: str, position: SourcePosition | None = None) -> None:
    """Refuse a formula longer than :data:`MAX_FORMULA_LENGTH` before any parser reads it.

    :raises FormulaSyntaxError: naming its length and ``position``."""
    if len(text) > MAX_FORMULA_LENGTH:
        raise FormulaSyntaxError(f"a formula of {len(text):,} characters, more than {MAX_FORMULA_LENGTH:,} (split it "
                                 "into several formulas)", position or SourcePosition(text=text))


def parse_formula(
    text: str,
    grammar: str = "StandardGrammar",
    *,
    ground: bool = False,
    position: SourcePosition | None = None,
) -> Formula:
    """Parse a formula written in pracmln syntax into a first-order formula tree.

    :raises FormulaSyntaxError: naming the text and the column of the problem, or the
        nesting depth when it exceeds :data:`MAX_DEPTH`.
    """
    if grammar not in GRAMMARS:
        raise UnknownNameError(f"unknown grammar {grammar!r}; valid: {', '.join(GRAMMARS)}")
    check_length(text, position)
    try:
        parser = _Parser(text, grammar == "PRACGrammar", ground)
        out = parser.formula()
        if parser.peek()[0] != "end":
            raise _Unexpected(parser.peek()[2])
        return out
    except _Unexpected as exc:
        pos = position or SourcePosition(text=text if len(text) <= 200 else text[:200] + "...")
        if exc.reason:
            raise FormulaSyntaxError(f"cannot parse formula {text.strip()[:60]!r}: {exc.reason}", pos) from None
        rest = text[exc.loc:].strip()
        where = f"unexpected {rest[:20]!r}" if rest else "unexpected end of text"
        col = text.count("\n", 0, exc.loc) and exc.loc - text.rfind("\n", 0, exc.loc) or exc.loc + 1
        raise FormulaSyntaxError(
            f"cannot parse formula {text.strip()!r}: {where} at column {col}", pos
        ) from None


SHAPED = 4096
"""The longest text :func:`parse_with_leaves` reads by its shape (a rule's text is some
tens of characters)."""

Shapes = dict[tuple[str, ...], tuple[Callable[[Sequence[Formula]], Formula], tuple[str, ...]] | None]
"""What :func:`parse_with_leaves` keeps per shape of a text (the pieces between its
leaves): a function of the leaves making its tree, and the key prefix of each leaf."""


def parse_with_leaves(text: str, leaves: dict[str, Formula], leaf: Callable[[Formula], Formula],
                      shapes: Shapes | None = None) -> Formula | None:
    """``parse_formula(text, ground=True)`` with each atom and equality ``a`` replaced by
    ``leaf(a)`` (a function of the leaf alone, such as a renaming of its terms), or None
    when ``text`` is not a plain ground formula of atoms, equalities and ``! ^ v => <=>``
    with parentheses (then parse_formula reads it, or says what is wrong).

    What makes it fast: each distinct text of a leaf is parsed and given to ``leaf`` once,
    ``leaves`` keeping the outcome across calls, and the connectives are parsed over
    whole leaves.  The connectives are parsed by parse_formula's parser, and each leaf's
    text by parse_formula itself, so the tree is the one parse_formula makes, leaf by leaf.

    With ``shapes`` (kept by the caller across calls), the connectives of texts that
    differ only in their leaves are parsed once: a text is cut at its leaves by the
    leaf pattern the parser's tokens use, and the pieces between them (its shape) name
    a builder made from the first text of that shape.  A leaf negated right away is
    kept negated (in ``leaves`` as ``"!" + text``, which no leaf's text is), so that the
    rules share one ``Not`` of it as they share the leaf; and the two sides of a text's
    one ``=>`` are read (and shared) as wholes (:func:`_halves`): the rules of an
    evidence set share its premise.  Why that is the same parse: no
    leaf starts at a connective's character or a space, so cutting at the leftmost leaf
    matches finds exactly the tokenizer's leaf tokens; and the tokens between two leaves
    depend only on the piece between them (a leaf, never a space or parenthesis, follows
    it), so texts of one shape have one token sequence up to their leaves.

    A text longer than :data:`SHAPED` is parsed as it is (its shape would be as long as
    it, and shared by no other text).
    """
    if shapes is not None and len(text) <= SHAPED:
        arrow = text.find("=>")
        if arrow > 0 and text[arrow - 1] == " " and text.count("=>") == 1 and "<=>" not in text:
            halves = _halves(text[:arrow], text[arrow + 2:], leaves, leaf, shapes)
            if halves is not None:
                return Implies(*halves)
        parts = _LEAF_SPLIT.split(text)
        shape = tuple(parts[0::2])
        if shape in shapes:
            build = shapes[shape]
        else:
            build = shapes[shape] = _shape_builder(text, parts[1::2])
        if build is not None:
            make, prefixes = build
            texts = parts[1::2]
            try:
                found = [leaves[p + t] for p, t in zip(prefixes, texts)]
            except KeyError:  # (a leaf not read before, or not negated before)
                for p, t in zip(prefixes, texts):
                    if t not in leaves:
                        leaves[t] = leaf(parse_formula(t, ground=True))
                    if p and p + t not in leaves:
                        leaves[p + t] = Not(leaves[t])
                found = [leaves[p + t] for p, t in zip(prefixes, texts)]
            return make(found)
    parser = _Parser(text, False, True, leaves, lambda t: leaf(parse_formula(t, ground=True)))
    try:
        out = parser.formula()
        return out if parser.peek()[0] == "end" else None
    except _Unexpected:
        return None


@dataclass(frozen=True, slots=True)
class _Slot:
    """The place of a text's ``index``-th leaf in the tree of its shape."""

    index: int


def _halves(premise: str, conclusion: str, leaves: dict[str, Formula], leaf: Callable[[Formula], Formula],
            shapes: Shapes) -> tuple[Formula, Formula] | None:
    """The trees of the two sides of a text's one ``=>``, each read once (kept in
    ``leaves`` under its text, which no leaf's is: the premise ends with a space, the
    conclusion starts with one); None when either is not plain.

    Why ``Implies(premise, conclusion)`` is the text's tree: with no other ``=>`` and no
    ``<=>``, and a space before the arrow, the text's tokens are the premise's, the
    arrow, then the conclusion's (no token's pattern looks past the space, and none
    starts at ``=``); a premise that parses alone has its parentheses balanced, so the
    arrow is the loosest connective at the top, with each side's tree as it is alone."""
    sides = []
    for side in (premise, conclusion):
        got = leaves.get(side)
        if got is None:
            got = parse_with_leaves(side, leaves, leaf, shapes)
            if got is None:
                return None
            leaves[side] = got
        sides.append(got)
    return sides[0], sides[1]


def _shape_builder(text: str, leaf_texts: Sequence[str]
                   ) -> tuple[Callable[[Sequence[Formula]], Formula], tuple[str, ...]] | None:
    """A function of a text's leaves (in order, each negated where its prefix is ``!``)
    making the tree parse_formula makes of it, for every text of ``text``'s shape, with
    those prefixes; None when ``text`` is not plain (see :func:`parse_with_leaves`) or
    its tokens' leaves are not ``leaf_texts``."""
    try:
        tokens = list(_tokens(text, _LEAF_TOKEN))
    except _Unexpected:
        return None
    places = [i for i, (kind, _, _) in enumerate(tokens) if kind == "leaf"]
    if [tokens[i][1] for i in places] != list(leaf_texts):
        return None
    for n, i in enumerate(places):  # (by place, not by text: a leaf written twice is two slots)
        tokens[i] = ("leaf", str(n), tokens[i][2])
    slots = {str(n): _Slot(n) for n in range(len(places))}
    parser = _Parser(text, False, True, slots, tokens=tokens)  # type: ignore[arg-type]
    try:
        tree = parser.formula()
    except _Unexpected:
        return None
    if parser.peek()[0] != "end":
        return None
    negated: set[int] = set()
    return _builder(tree, negated), tuple("!" if n in negated else "" for n in range(len(places)))


def _builder(tree: Formula | _Slot, negated: set[int]) -> Callable[[Sequence[Formula]], Formula]:
    """The function of the leaves that makes ``tree`` with each slot filled (a slot is
    taken by an ``itemgetter``, and the slots of one connective at once: no Python call
    per leaf); a negated slot is given negated (its index put in ``negated``)."""
    if isinstance(tree, _Slot):
        return itemgetter(tree.index)
    if isinstance(tree, Not) and isinstance(tree.arg, _Slot):
        negated.add(tree.arg.index)
        return itemgetter(tree.arg.index)
    if isinstance(tree, Not):
        arg = _builder(tree.arg, negated)
        return lambda found: Not(arg(found))
    if isinstance(tree, (And, Or)):
        kind = type(tree)
        args = [a.arg if isinstance(a, Not) and isinstance(a.arg, _Slot) else a for a in tree.args]
        if len(args) > 1 and all(isinstance(a, _Slot) for a in args):
            negated.update(a.arg.index for a in tree.args if isinstance(a, Not))  # type: ignore[union-attr]
            take = itemgetter(*(a.index for a in args))  # type: ignore[union-attr]
            return lambda found: kind(take(found))
        parts = tuple(_builder(a, negated) for a in tree.args)
        return lambda found: kind(tuple([a(found) for a in parts]))
    if isinstance(tree, (Implies, Iff)):
        pair, left, right = type(tree), _builder(tree.left, negated), _builder(tree.right, negated)
        return lambda found: pair(left(found), right(found))
    raise TypeError(f"not a connective of a plain formula: {tree!r}")


_SIMPLE_LITERAL = re.compile(r"^\s*(!?)\s*([A-Za-z_][\w'-]*)\s*(?:\(([\w'\s,-]*)\))?\s*$")


def parse_literal(text: str, grammar: str = "StandardGrammar") -> tuple[bool, PredAtom]:
    """Parse a ground literal ``[!]pred(C1, ...)``; returns ``(positive, atom)``."""
    m = _SIMPLE_LITERAL.match(text)  # the common case, without the full grammar (fast)
    if m and m.group(2) != "v" and not (m.group(2) in KEYWORDS and m.group(3) is None):
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


_COMMENT_OR_QUOTED = re.compile(r'("[^"\n]*")|/\*.*?\*/|//[^\n]*', re.DOTALL)


def strip_comments(text: str) -> str:
    """Remove ``//`` and ``/* */`` comments, keeping every newline (so line numbers hold)
    and every quoted constant as it is (``"A // B"`` is a name, not a comment)."""

    def blank(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return match.group(1)
        comment = match.group(0)
        return "" if comment.startswith("//") else re.sub(r"[^\n]", " ", comment)

    return _COMMENT_OR_QUOTED.sub(blank, text) if "/" in text else text


_OUTSIDE_QUOTES = re.compile(r'("[^"]*")|\s+')
_NAME = re.compile(r'(?:"[^"]*"|[^\s"])+')
_CONSTANT = re.compile(r'\s*((?:"[^"]*"|[^\s,"])(?:"[^"]*"|[^,"])*?)\s*(?:,|$)')


def compact_atom(name: str) -> str:
    """An atom name with the white space outside quoted constants removed (``p(A, B)``
    -> ``p(A,B)``; ``p("Anna Smith")`` keeps its space)."""
    if '"' not in name:
        return name.replace(" ", "") if " " in name else name
    return _OUTSIDE_QUOTES.sub(lambda m: m.group(1) or "", name)


def split_atom(atom: str) -> tuple[str, tuple[str, ...]]:
    """A ground atom name as its predicate and arguments (``f(A,B)`` -> ``("f", ("A",
    "B"))``; a quoted constant may hold a comma)."""
    pred, paren, rest = atom.partition("(")
    if not (paren and rest.endswith(")")):
        return pred, ()
    inner = rest[:-1]
    if '"' not in inner:
        return pred, tuple(inner.split(","))
    return pred, tuple(m.group(1) for m in _CONSTANT.finditer(inner) if m.group(1))


def split_names(text: str) -> list[str]:
    """Names separated by white space, a quoted part (``p("Anna Smith")``) kept whole."""
    return _NAME.findall(text)


def split_constants(text: str) -> list[str] | None:
    """Constants separated by commas (``A, "B, C", D`` -> ``A``, ``"B, C"``, ``D``), empty
    ones dropped; None when a quote is left open."""
    if text.count('"') % 2:
        return None
    if '"' not in text:
        return [c.strip() for c in text.split(",") if c.strip()]
    return [m.group(1) for m in _CONSTANT.finditer(text) if m.group(1)]


def is_variable_name(name: str, grammar: str = "StandardGrammar") -> bool:
    """Whether a term so written is a variable in ``grammar`` (lower-case first letter in
    the standard grammar, ``?`` first in pracmln's PRAC grammar; never a quoted one)."""
    if not name or name.startswith('"'):
        return False
    return name.startswith("?") if grammar == "PRACGrammar" else name[0].islower()


def atom_name(pred: str, args: tuple[str, ...]) -> str:
    """The canonical name of a ground atom: ``pred(A,B)``, or ``pred`` without arguments."""
    return f"{pred}({','.join(args)})" if args else pred


def _term(t: Term) -> str:
    return t.name


def format_formula(f: Formula, name: Callable[[int], str] | None = None, shown: dict[int, str] | None = None) -> str:
    """Print a formula in pracmln syntax, parenthesised to read back under either grammar.

    :param name: maps atom ints to names, for ground formulas with :class:`~pracmln_poss.logic.formula.Atom` leaves.
    :param shown: a memo of the text of subformulas by ``id``, for printing many
        formulas that share them (a theory's literals and premises): the caller keeps
        every formula printed with it alive while it uses the memo.
    """

    return _Printer(name, shown)(f)


def compound(f: Formula) -> bool:
    """Whether ``f`` is printed inside parentheses as a part of another formula."""
    return isinstance(f, (And, Or, Implies, Iff))


class _Printer(Fold[str]):
    doing = "print"

    def __init__(self, name: Callable[[int], str] | None, shown: dict[int, str] | None) -> None:
        self.name, self.shown = name, shown

    def __call__(self, f: Formula) -> str:
        # a rule's own text is not worth keeping; its parts are (the premise of many rules)
        if self.shown is None or isinstance(f, (Implies, Iff)):
            return super().__call__(f)
        known = self.shown.get(id(f))
        if known is None:
            known = self.shown[id(f)] = super().__call__(f)
        return known

    def _joined(self, args: Sequence[Formula], texts: Iterable[str], op: str) -> str:
        # every compound part gets parentheses: the text reads back to the same tree
        return op.join(f"({t})" if compound(a) else t for a, t in zip(args, texts))

    def atom(self, f: Atom) -> str:
        return self.name(f.index) if self.name else f"#{f.index}"

    def pred_atom(self, f: PredAtom) -> str:
        return atom_name(f.pred, tuple(_term(a) for a in f.args))

    def equals(self, f: Equals) -> str:
        return f"{_term(f.left)} = {_term(f.right)}"

    def truth(self, f: Truth) -> str:
        return "TRUE" if f.value else "FALSE"

    def not_(self, f: Not, arg: str) -> str:
        if isinstance(f.arg, Equals):
            return f"{_term(f.arg.left)} != {_term(f.arg.right)}"
        return "!" + arg if isinstance(f.arg, (Atom, PredAtom)) else f"!({arg})"

    def and_(self, f: And, parts: Iterator[str]) -> str:
        return self._joined(f.args, parts, " ^ ")

    def or_(self, f: Or, parts: Iterator[str]) -> str:
        return self._joined(f.args, parts, " v ")

    def implies(self, f: Implies, left: str, right: str) -> str:
        return self._joined((f.left, f.right), (left, right), " => ")

    def iff(self, f: Iff, left: str, right: str) -> str:
        return self._joined((f.left, f.right), (left, right), " <=> ")

    def exists(self, f: Exists, body: str) -> str:
        return f"EXIST {', '.join(v.name for v in f.variables)} ({body})"
