import itertools

from hypothesis import example, given
from hypothesis import strategies as st

from pracmln_poss.logic.cnf import VarPool, clausify, clausify_under
from pracmln_poss.logic.formula import And, Atom, Iff, Implies, Not, Or, Truth, evaluate, substitute_atoms

from .strategies import formulas

N = 4


@given(formulas(N))
def test_clauses_are_equisatisfiable_projections(f):
    """Every model of f extends to a model of the clauses, and every model of the clauses satisfies f."""
    pool = VarPool(N)
    clauses = clausify(f, pool)
    aux = range(N + 1, pool.top + 1)
    for bits in itertools.product((False, True), repeat=N):
        base = (False, *bits)
        extended = [
            base + extra for extra in itertools.product((False, True), repeat=len(aux))
        ]
        sat = [w for w in extended if all(any(w[abs(l)] == (l > 0) for l in c) for c in clauses)]
        assert bool(sat) == evaluate(f, base)


@given(st.lists(st.tuples(formulas(N), st.lists(st.sampled_from([None, None, True, False]), min_size=N,
                                                 max_size=N)), min_size=1, max_size=8))
# (found on CI: a conjunction whose definitions are all tautologies takes a fresh variable
# that no clause names; the clause form counted only those named, and the next formula's
# fresh variables were one lower than clausify's)
@example([(Iff(Iff(Atom(1), Atom(1)), And((Atom(1), Not(Atom(1))))), [None] * N)])
def test_clause_forms_by_shape_are_those_of_each_formula(cases):
    """``clausify_under`` (one clause form per shape and known values, instantiated) gives
    what substituting the known atoms and clausifying each formula gives, variable for
    variable, fresh variables included, over a run of formulas sharing one pool."""
    direct, shared = VarPool(N), VarPool(N)
    for f, known in cases:
        def value(a, known=known):
            return known[a - 1]

        g = substitute_atoms(f, value)
        expected = (g, []) if isinstance(g, Truth) else (None, clausify(g, direct))
        assert clausify_under(f, value, shared) == expected
        assert shared.top == direct.top


_LITERALS = st.integers(1, N).flatmap(lambda a: st.sampled_from([Atom(a), Not(Atom(a))]))


@given(st.one_of(
    _LITERALS,
    st.lists(_LITERALS, min_size=1, max_size=5).map(lambda xs: Or(tuple(xs))),
    st.tuples(st.one_of(_LITERALS, st.lists(_LITERALS, min_size=1, max_size=4).map(lambda xs: And(tuple(xs)))),
              st.one_of(_LITERALS, st.lists(_LITERALS, min_size=1, max_size=4).map(lambda xs: Or(tuple(xs)))))
    .map(lambda lr: Implies(*lr)),
    formulas(N)))
def test_a_clause_as_written_is_clausified_as_the_general_way_does(f):
    """A literal, a disjunction of literals or an implication from literals to literals
    (a ground theory's rules) is made a clause directly: the clauses are those the
    general way (through the negation normal form) makes, literal for literal, repeats
    and tautologies included."""
    from pracmln_poss.logic.cnf import _clausify_nnf

    fast, general = VarPool(N), VarPool(N)
    assert clausify(f, fast) == _clausify_nnf(f, general)
    assert fast.top == general.top
