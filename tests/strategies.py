"""Hypothesis strategies: small random ground MLNs with ties, hard, negative and non-clausal formulas."""

from __future__ import annotations

from hypothesis import strategies as st

from pracmln_poss.logic.formula import And, Atom, Formula, Iff, Implies, Not, Or
from pracmln_poss.model.ground_mln import GroundMLN, WeightedFormula
from pracmln_poss.weights import INF


def formulas(n_atoms: int, max_depth: int = 2) -> st.SearchStrategy[Formula]:
    atom = st.integers(1, n_atoms).map(Atom)
    lit = st.one_of(atom, atom.map(Not))

    def extend(children: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return st.one_of(
            children.map(Not),
            st.tuples(children, children).map(lambda t: And(t)),
            st.lists(children, min_size=2, max_size=3).map(lambda t: Or(tuple(t))),
            st.tuples(children, children).map(lambda t: Implies(*t)),
            st.tuples(children, children).map(lambda t: Iff(*t)),
        )

    return st.recursive(lit, extend, max_leaves=4)


# few distinct weights, so that ties between worlds are common
WEIGHTS = st.sampled_from([1, 1, 2, 2, 3, 5, -1, -2, -3, 0])


@st.composite
def ground_mlns(draw, min_atoms: int = 1, max_atoms: int = 5, max_formulas: int = 6) -> GroundMLN:
    n = draw(st.integers(min_atoms, max_atoms))
    count = draw(st.integers(0, max_formulas))
    out = []
    for _ in range(count):
        f = draw(formulas(n))
        hard = draw(st.integers(0, 9)) == 0
        w = INF if hard else draw(WEIGHTS)
        out.append(WeightedFormula(f, w))
    names = tuple(f"p{i}" for i in range(1, n + 1))
    return GroundMLN.create(names, out)


@st.composite
def literal_sets(draw, n_atoms: int, max_size: int = 3) -> tuple[int, ...]:
    atoms = draw(st.lists(st.integers(1, n_atoms), unique=True, max_size=min(max_size, n_atoms)))
    return tuple(a if draw(st.booleans()) else -a for a in atoms)


LEVELS = st.sampled_from([0, 0, 1, 2, 2, 3, 5, INF])


@st.composite
def theories(draw, max_atoms: int = 5, max_formulas: int = 7):
    from pracmln_poss.possibilistic import PossibilisticFormula, PossibilisticTheory

    n = draw(st.integers(1, max_atoms))
    count = draw(st.integers(0, max_formulas))
    out = [PossibilisticFormula(draw(formulas(n)), draw(LEVELS)) for _ in range(count)]
    return PossibilisticTheory(tuple(f"p{i}" for i in range(1, n + 1)), tuple(out))


@st.composite
def mlns_with_groups(draw, max_atoms: int = 8, max_formulas: int = 8) -> GroundMLN:
    """Ground MLNs with functional constraints as the grounding writes them: blocks of
    atoms of which exactly one (or at most one) holds, a hard disjunction and pairwise
    ``!(a ^ b)``; then random formulas, some over the blocks' atoms."""
    n = draw(st.integers(4, max_atoms))
    atoms = draw(st.permutations(range(1, n + 1)))
    out = []
    start = 0
    for _ in range(draw(st.integers(1, 2))):
        exactly = draw(st.booleans())  # exactly one, else at most one (a group from 3 atoms)
        size = draw(st.integers(2 if exactly else 3, 4))
        block = atoms[start : start + size]
        start += size
        if len(block) < size:
            break
        if exactly:
            out.append(WeightedFormula(Or(tuple(Atom(a) for a in block)), INF))
        for i, a in enumerate(block):
            for b in block[i + 1 :]:
                out.append(WeightedFormula(Not(And((Atom(a), Atom(b)))), INF))
    for _ in range(draw(st.integers(0, max_formulas))):
        f = draw(formulas(n))
        hard = draw(st.integers(0, 12)) == 0
        out.append(WeightedFormula(f, INF if hard else draw(WEIGHTS)))
    return GroundMLN.create(tuple(f"p{i}" for i in range(1, n + 1)), out)
