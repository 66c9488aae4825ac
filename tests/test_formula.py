"""The one walk over formulas (:class:`pracmln_poss.logic.formula.Fold`) and the folds made of
it, against a truth-table reference written here without it: the brute-force reference of the
other tests evaluates formulas with :func:`evaluate`, so evaluation is checked on its own."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import ModelError
from pracmln_poss.logic.formula import (
    BOTTOM,
    TOP,
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
    Truth,
    Variable,
    compile_ground,
    evaluate,
    map_terms,
    nnf,
    shape,
    substitute_atoms,
)
from pracmln_poss.logic.leaves import map_leaves

from .support import examples

N = 4
WORLDS = [(False, *bits) for bits in itertools.product((False, True), repeat=N)]


def truth(f: Formula, world) -> bool:
    """The reference: the connectives' truth tables, by hand."""
    match f:
        case Atom(index):
            return world[index]
        case Truth(value):
            return value
        case Not(arg):
            return not truth(arg, world)
        case And(args):
            return all([truth(a, world) for a in args])
        case Or(args):
            return any([truth(a, world) for a in args])
        case Implies(left, right):
            return not truth(left, world) or truth(right, world)
        case Iff(left, right):
            return truth(left, world) == truth(right, world)
    raise AssertionError(f)


def ground_formulas() -> st.SearchStrategy[Formula]:
    """Ground trees with constants, empty and long junctions, repeated parts."""
    leaf = st.one_of(st.integers(1, N).map(Atom), st.sampled_from([TOP, BOTTOM]))

    def extend(children: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return st.one_of(
            children.map(Not),
            st.lists(children, max_size=4).map(lambda t: And(tuple(t))),
            st.lists(children, max_size=4).map(lambda t: Or(tuple(t))),
            st.tuples(children, children).map(lambda t: Implies(*t)),
            st.tuples(children, children).map(lambda t: Iff(*t)),
        )

    return st.recursive(leaf, extend, max_leaves=8)


def connectives(f: Formula) -> set[type]:
    match f:
        case Not(arg):
            return {Not} | connectives(arg)
        case And(args) | Or(args):
            return {type(f)}.union(*map(connectives, args))
        case Implies(left, right) | Iff(left, right):
            return {type(f)} | connectives(left) | connectives(right)
    return {type(f)}


@settings(max_examples=examples(300))
@given(ground_formulas())
def test_evaluation_and_its_compiled_form_follow_the_truth_tables(f):
    for world in WORLDS:
        assert evaluate(f, world) == compile_ground(f)(world) == truth(f, world)


@settings(max_examples=examples(300))
@given(ground_formulas())
def test_nnf_keeps_the_truth_of_the_formula_and_of_its_negation(f):
    for positive in (True, False):
        g = nnf(f, positive)
        assert connectives(g) <= {And, Or, Atom, Truth, Not}
        assert all(isinstance(n.arg, Atom) for n in _nodes(g) if isinstance(n, Not))
        assert all(truth(g, world) == (truth(f, world) == positive) for world in WORLDS)


@settings(max_examples=examples(300))
@given(ground_formulas(), st.lists(st.sampled_from([None, True, False]), min_size=N, max_size=N))
def test_partial_evaluation_agrees_on_every_completion_and_decides_what_it_can(f, known):
    value = dict(zip(range(1, N + 1), known)).get
    g = substitute_atoms(f, value)
    completions = [w for w in WORLDS if all(v is None or w[a] == v for a, v in enumerate(known, 1))]
    assert all(truth(g, w) == truth(f, w) for w in completions)
    assert not any(isinstance(n, Atom) and value(n.index) is not None for n in _nodes(g))
    if not isinstance(g, Truth):
        assert TOP not in _nodes(g) and BOTTOM not in _nodes(g)
    if all(value(n.index) is not None for n in _nodes(f) if isinstance(n, Atom)):
        assert g == Truth(truth(f, completions[0]))


@settings(max_examples=examples(300))
@given(ground_formulas(), st.permutations(range(1, N + 1)))
def test_shape_is_the_tree_over_atoms_numbered_as_met(f, order):
    renamed = map_leaves(f, lambda a: Atom(order[a.index - 1]))
    key, atoms = shape(f)
    assert shape(renamed) == (key, tuple(order[a - 1] for a in atoms))
    assert shape(And((f, f)))[0] != shape(And((f, Not(f))))[0]
    two, one = Or((Atom(1), Atom(2))), Or((Atom(2), Atom(2)))
    assert shape(two) != shape(one) and shape(two)[0] == shape(Or((Atom(3), Atom(1))))[0]


def test_each_fold_refuses_the_nodes_it_cannot_take_and_names_what_it_was_doing():
    fo = Implies(PredAtom("p", (Variable("x"),)), Exists((Variable("y"),), Equals(Variable("x"), Variable("y"))))
    with pytest.raises(TypeError, match="cannot evaluate non-ground formula PredAtom"):
        evaluate(fo, WORLDS[0])
    with pytest.raises(TypeError, match="cannot take the NNF of non-ground formula"):
        nnf(fo)
    with pytest.raises(ModelError, match="EXIST is not allowed in a ground formula"):
        map_leaves(fo, lambda a: TOP)
    bound = map_terms(fo, lambda t: Constant("A") if t == Variable("x") else t)
    assert bound == Implies(PredAtom("p", (Constant("A"),)),
                            Exists((Variable("y"),), Equals(Constant("A"), Variable("y"))))


def _nodes(f: Formula) -> list[Formula]:
    match f:
        case Not(arg):
            return [f, *_nodes(arg)]
        case And(args) | Or(args):
            return [f, *(n for a in args for n in _nodes(a))]
        case Implies(left, right) | Iff(left, right):
            return [f, *_nodes(left), *_nodes(right)]
    return [f]
