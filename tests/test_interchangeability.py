""":func:`~pracmln_poss.search.interchangeability.find_symmetry` against brute force on
random first-order MLNs: every swap of two constants of a class maps the ground MLN
onto itself (every world to one of the same cost, the hard formulas' models to
theirs), and no two classes of a domain could be merged (a swap across them maps some
weighted ground formula to none equivalent of the same weight).  The semantic tests
take its classes as the truth, so they are checked here apart.

(Maximal by the formulas, not by the worlds: ``s(a) v s(A) v t(X)`` with ``s(A)`` given
holds in every world, so ``t(X)`` and ``t(Y)`` weigh alike there, yet the formulas tell
``X`` apart; classes finer than the worlds' are exact, only less compact.)"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import InconsistentModelError
from pracmln_poss.logic.formula import atoms_of, evaluate
from pracmln_poss.logic.syntax import split_atom
from pracmln_poss.model.first_order import EvidenceLiteral
from pracmln_poss.model.grounding import ground
from pracmln_poss.search.interchangeability import find_symmetry

from .reference import MapReference
from .support import examples
from .test_lifted import first_order_mlns


def _swaps_onto_itself(mln, c: str, d: str) -> bool:
    """Whether swapping constants ``c`` and ``d`` maps every world of ``mln`` to one of
    the same cost, and the worlds the hard formulas rule out to worlds they rule out."""
    image = _renamings(mln, c, d)
    if image is None:
        return False
    costs = dict(MapReference(mln).worlds)
    for world, cost in costs.items():
        moved = [False] * len(world)
        for atom in range(1, len(world)):
            moved[image[atom]] = world[atom]
        if costs.get(tuple(moved)) != cost:
            return False
    return True


def _renamings(mln, c: str, d: str) -> list[int] | None:
    """The atom permutation of swapping ``c`` and ``d`` (index 0 unused), or None where
    it takes an atom out of the model's atoms."""
    index = {name: i for i, name in enumerate(mln.atoms, 1)}
    image = [0]
    for name in mln.atoms:
        pred, args = split_atom(name)
        swapped = f"{pred}({','.join(d if a == c else c if a == d else a for a in args)})" if args else pred
        if swapped not in index:
            return None
        image.append(index[swapped])
    return image


def _truth_table(wf, rename=None):
    """A weighted formula as its weight and its models over the atoms it mentions, the
    atoms renamed by ``rename`` (brute force: every assignment of those atoms)."""
    atoms = sorted(atoms_of(wf.formula))
    models = set()
    for values in itertools.product((False, True), repeat=len(atoms)):
        world = [False] * (max(atoms, default=0) + 1)
        for atom, value in zip(atoms, values):
            world[atom] = value
        if evaluate(wf.formula, world):
            models.add(frozenset(((rename[a] if rename else a), v) for a, v in zip(atoms, values)))
    return wf.weight, frozenset(models)


def _formulas_onto_themselves(mln, c: str, d: str) -> bool:
    """Whether swapping ``c`` and ``d`` maps each weighted ground formula to an
    equivalent one of the same weight (the formulas as a multiset)."""
    image = _renamings(mln, c, d)
    if image is None:
        return False
    formulas = mln.soft + mln.hard
    return Counter(_truth_table(wf, image) for wf in formulas) == Counter(_truth_table(wf) for wf in formulas)


@st.composite
def first_order_mlns_with_evidence(draw):
    m = draw(first_order_mlns())
    atoms = [(p.name, args) for p in m.predicates if len(p.domains) == 1
             for args in itertools.product(*(m.domain_map[dom] for dom in p.domains))]
    evidence = draw(st.lists(st.sampled_from(atoms), max_size=2, unique=True))
    return dataclasses.replace(m, evidence=tuple(EvidenceLiteral(p, tuple(a), draw(st.booleans()))
                                                 for p, a in evidence))


@settings(max_examples=examples(150), deadline=None)
@given(first_order_mlns_with_evidence())
def test_the_classes_are_exactly_the_interchangeable_constants(m):
    try:
        g = ground(m)
    except InconsistentModelError:
        return
    if not MapReference(g).consistent:  # (no world at all: every swap maps none onto none)
        return
    classes = find_symmetry(g, m.domain_map, named=m.named, swap_invariant=m.swap_invariant).classes
    of = {c: cls for cls in classes for c in cls}
    shared = {c for c in of if sum(c in cs for cs in m.domain_map.values()) > 1}
    for cls in classes:  # (every swap inside a class: each class is one orbit of its swaps)
        for c, d in itertools.combinations(cls, 2):
            assert _swaps_onto_itself(g, c, d), (cls, c, d)
    for constants in m.domain_map.values():  # (no two classes of a domain merge; shared ones stand alone)
        firsts = list(dict.fromkeys(of[c][0] for c in constants if c not in shared))
        for c, d in itertools.combinations(firsts, 2):
            assert not _formulas_onto_themselves(g, c, d), (classes, c, d)


def test_a_shortcut_that_takes_equal_profiles_for_interchangeable_fails(monkeypatch):
    """The planted bug of #65's review (two constants with the same profile taken as
    interchangeable, their formulas never compared) is caught here."""
    from pracmln_poss.search import interchangeability

    from .test_lifted import model

    # (A and B each name a formula of the same weight and predicates, of different shape)
    m = model([("s", ["p"]), ("t", ["p"])], {"p": ["A", "B", "C"]},
              [("s(A) v t(B)", 1), ("s(B) v !t(A)", 1)])
    g = ground(m)
    monkeypatch.setattr(interchangeability, "_is_symmetry", lambda formulas, permute: True)
    classes = find_symmetry(g, m.domain_map, named=m.named, swap_invariant=m.swap_invariant).classes
    merged = [cls for cls in classes if {"A", "B"} <= set(cls)]
    assert merged and not _swaps_onto_itself(g, "A", "B") and not _formulas_onto_themselves(g, "A", "B")
