"""A domain paid for once (pracmln_poss.model.reduction, docs/domains.md): the lifted
theory of a model whose large domain is searched as a few constants and one
representative is the theory of the whole grounding, byte for byte, at every size; and a
shortcut broken on purpose is caught."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import InconsistentModelError, PossError
from pracmln_poss.formats import dumps, loads
from pracmln_poss.logic.syntax import parse_formula
from pracmln_poss.model import reduction as reduction_module
from pracmln_poss.model.first_order import EvidenceLiteral, FirstOrderMLN, FormulaTemplate, Predicate
from pracmln_poss.model.grounding import ground
from pracmln_poss.model.reduction import NotReduced, Reduction, reduction
from pracmln_poss.transformations import transform_mln
from pracmln_poss.weights import INF, Resolution

from .support import ROOT, examples, run_cli

UNARY = ["s(x)", "c(x)", "s(x) => c(x)", "!s(x) v c(x)", "s(x) ^ c(x)", "s(x) <=> c(x)"]
"""Formulas of one person."""
NAMED = ["s(A) => s(x)", "c(A) ^ s(x)", "f(A, x) => s(x)", "f(x, A) ^ c(x)", "s(A) v c(A)", "s(A)", "f(A, A)",
         "s(x) => (c(A) v c(x))"]
"""Formulas of a person and the named constant A (or of A alone)."""
PAIRS = ["f(x, y) => (s(x) <=> s(y))", "(f(x, y) ^ s(x)) => c(y)", "(f(x, y) ^ s(y)) => s(x)", "!f(x, y) v c(x)",
         "f(x, y) => !(c(x) ^ c(y))", "!f(x, x)", "(f(x, y) ^ f(y, x)) => (c(x) v s(y))"]
"""Formulas of two persons that the pair's own atom satisfies set false (with a positive
weight, or as hard ones)."""
WEIGHTS = [1, 2, 3, -1, -2, 2.5]


def model(formulas, n, evidence=(), k=1, a=True):
    """Persons ``A`` (named, when ``a``) and ``P1 .. Pn``, with ``s``, ``c`` of a person and
    ``f`` of two."""
    r = Resolution()
    persons = (["A"] if a else []) + (["B"] if any(args == ("B",) for _, args, _ in evidence) else []) + \
        [f"P{i}" for i in range(1, n + 1)]
    return FirstOrderMLN(
        predicates=(Predicate("c", ("person",)), Predicate("f", ("person", "person")), Predicate("s", ("person",))),
        domains=(("person", tuple(persons)),),
        formulas=tuple(FormulaTemplate(parse_formula(t), INF if w is None else r.to_int(w), t) for t, w in formulas),
        evidence=tuple(EvidenceLiteral(p, tuple(args), v) for p, args, v in evidence),
        resolution=r,
    )


def theories(m, k, **focus):
    """The lifted theory searched over the reduced model (as convert does) and over the
    whole grounding, each as its text (the reduced one without its note on the domains),
    or the error that stops it."""

    def text(**grounded):
        try:
            theory = transform_mln(m, "lifted", k=k, **focus, **grounded)
        except PossError as exc:  # (hard formulas the evidence contradicts: no theory either way)
            return f"{type(exc).__name__}: {exc}"
        return dumps(dataclasses.replace(theory, note=None))

    return text(), text(grounded=ground(m))


@st.composite
def reducible_models(draw):
    formulas = [(draw(st.sampled_from(UNARY)), draw(st.sampled_from(WEIGHTS)))]
    formulas += [(f, draw(st.sampled_from(WEIGHTS + [None])))
                 for f in draw(st.lists(st.sampled_from(NAMED), max_size=2, unique=True))]
    formulas += [(f, draw(st.sampled_from([1, 2, 3, None])))  # (tied weights, hard ones)
                 for f in draw(st.lists(st.sampled_from(PAIRS), min_size=1, max_size=3, unique=True))]
    formulas += [(f, draw(st.sampled_from(WEIGHTS))) for f in draw(st.lists(st.sampled_from(UNARY), max_size=2))]
    evidence = draw(st.lists(st.tuples(st.sampled_from(["s", "c"]), st.sampled_from([("A",), ("B",)]), st.booleans()),
                             max_size=2, unique_by=lambda e: e[:2]))
    if evidence and draw(st.booleans()):  # (B as A: two named constants interchangeable as written)
        evidence += [(p, ("B",), v) for p, args, v in evidence if args == ("A",)]
    return formulas, sorted(set(evidence))


FOCUS = st.fixed_dictionaries({}, optional={"evidence_preds": st.sampled_from([["s"], ["s", "f"], ["f", "c"]]),
                                            "query_preds": st.sampled_from([["c"], ["s", "c"], ["f"]])})


@pytest.mark.slow
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reducible_models(), st.integers(min_value=6, max_value=8), FOCUS)
def test_the_reduced_search_writes_the_theory_of_the_whole_grounding(drawn, n, focus):
    """Random models of one person and of two (ties, negative weights, hard formulas,
    evidence on the named constant), focused or not, k = 1: the reduction applies, and
    its theory is the whole grounding's, at every size tried."""
    formulas, evidence = drawn
    m = model(formulas, n, evidence)
    try:
        ground(m)
    except InconsistentModelError:  # (a hard formula false for some grounding: no model to convert)
        return
    assert isinstance(reduction(m, 1), Reduction)
    reduced, whole = theories(m, 1, **focus)
    assert reduced == whole


def test_two_large_domains_and_the_pairs_across_them():
    """Persons and things, each reduced: the pairs of a person and a thing (``has``)
    satisfied by ``has`` false, as the pairs of persons by ``f`` false."""
    r = Resolution()
    texts = [("has(x, t) => (s(x) <=> big(t))", 2), ("big(t)", -1), ("s(x) => c(x)", 1), ("f(x, y) => (s(x) <=> s(y))", 1),
             ("(has(x, t) ^ has(y, t)) => f(x, y)", 1)]
    m = FirstOrderMLN(
        predicates=(Predicate("big", ("thing",)), Predicate("c", ("person",)), Predicate("f", ("person", "person")),
                    Predicate("has", ("person", "thing")), Predicate("s", ("person",))),
        domains=(("person", tuple(f"P{i}" for i in range(1, 8))), ("thing", tuple(f"T{i}" for i in range(1, 7)))),
        formulas=tuple(FormulaTemplate(parse_formula(t), r.to_int(w), t) for t, w in texts[:4]),
        resolution=r)
    found = reduction(m, 1)
    assert isinstance(found, Reduction) and [d for d, *_ in found.domains] == ["person", "thing"]
    reduced, whole = theories(m, 1)
    assert reduced == whole
    three = dataclasses.replace(m, formulas=m.formulas + (FormulaTemplate(parse_formula(texts[4][0]), 1, texts[4][0]),))
    assert isinstance(reduction(three, 1), NotReduced)  # (three variables over them)


@pytest.mark.slow
@pytest.mark.parametrize("n", [8, 9])
def test_at_k_2_too(n):
    m = model([("s(x) => c(x)", 1), ("f(x, y) => (s(x) <=> s(y))", 2), ("s(A) => s(x)", 1), ("s(A)", 3),
               ("(f(x, y) ^ s(x)) => c(y)", 1)], n)
    assert isinstance(reduction(m, 2), Reduction)
    reduced, whole = theories(m, 2)
    assert reduced == whole


BALANCE = [("s(A) => s(x)", 1), ("!s(x)", 1), ("s(A)", 5.5), ("f(x, y) => (s(x) <=> s(y))", 2)]
"""``s(A)`` is worth 5.5 and costs 1 for each other person: true below 6 of them, false
from 6 on (the reduced model keeps 4 of the 7 and one representative)."""


def test_the_representative_weighs_as_many_constants_as_it_stands_for(monkeypatch):
    """Counted as one constant, the representative makes 5 persons of 7, and the MAP
    world without evidence makes s(A) true; counted as what it stands for, false."""
    m = model(BALANCE, 7)
    found = reduction(m, 1)
    assert isinstance(found, Reduction) and found.multiplicity == {"P7": 3}
    reduced, whole = theories(m, 1)
    assert reduced == whole and "0  !s(A)  // from: {}" in whole
    monkeypatch.setattr(Reduction, "multiplicity", property(lambda self: {rep: 1 for rep in self.representatives}))
    broken, _ = theories(m, 1)
    assert broken != whole


def test_a_pair_that_costs_something_keeps_the_domain_whole(monkeypatch):
    """``s(x) ^ s(y)`` rewards every pair of smokers: the persons are not independent,
    and the domain is ground whole (said in the theory).  Accepted anyway, the theory is
    wrong: of 7 persons, all smoke (the 42 pairs are worth more than 7 times 5.5); the
    reduced model has 36 pairs' worth (those of the 4 kept and the representative), and
    none does."""
    m = model([("s(x) ^ s(y) ^ x != y", 1), ("!s(x)", 5.5), ("c(x)", 1)], 7, a=False)
    found = reduction(m, 1)
    assert isinstance(found, NotReduced) and "not independent" in found.reason
    theory = transform_mln(m, "lifted", k=1)
    assert theory.note is not None and "ground whole" in theory.note
    assert dumps(dataclasses.replace(theory, note=None)) == theories(m, 1)[1]
    monkeypatch.setattr(reduction_module, "_coupled_pair", lambda *args: None)
    accepted = reduction(m, 1)
    assert isinstance(accepted, Reduction)
    reduced, whole = theories(m, 1)
    assert reduced != whole


@pytest.mark.parametrize("formula, why", [
    ("(f(x, y) ^ f(y, z)) => f(x, z)", "has 3 variables over them"),
    ("EXIST y (f(x, y))", "quantifies over one"),
])
def test_what_keeps_a_domain_whole_is_said(formula, why):
    m = model([(formula, 1), ("s(x)", 1)], 8)
    found = reduction(m, 1)
    assert isinstance(found, NotReduced) and why in found.reason, found


def test_a_functional_predicate_over_the_domain_keeps_it_whole():
    m = model([("s(x)", 1)], 8)
    m = dataclasses.replace(m, predicates=m.predicates + (Predicate("g", ("person", "person"), functional=1),))
    found = reduction(m, 1)
    assert isinstance(found, NotReduced) and "functional" in found.reason


def test_small_domains_are_not_reduced():
    assert reduction(model(BALANCE, 5), 1) is None  # (4 kept of 5: nothing to gain)


def test_the_theory_of_a_large_domain_is_small_and_reads_back():
    """Over 4,096 persons: a few hundred bytes of header, the domain as a range, the
    note on what was searched; read back (not grounded), written again, the same bytes."""
    m = model(BALANCE, 4096)
    theory = transform_mln(m, "lifted", k=1)
    text = dumps(theory)
    assert "#domain person = A, P{1..4096}" in text and "#type person1 p = P{1..4096}" in text
    assert "// domains: person: 4,097 constants, 5 of them searched and the other 4,092 priced as one" in text
    assert len(text) < 4000
    again = loads(text, ground=False)
    assert dumps(again) == text and len(again.atoms) == 4097 * 4097 + 2 * 4097
    assert dumps(loads(dumps(theory, "json"), ground=False), "json") == dumps(theory, "json")


LEARNED = "tests/data/pracmln/smokers/mlns/wts.pybpll.smoking-train-smoking.mln"
"""pracmln's learned smokers (its smokers project)."""


def _rules(text):
    return [line for line in text.splitlines() if line and not line.startswith(("#", "//"))]


def test_the_learned_smokers_over_4096_persons_convert_without_force(pracmln, tmp_path):
    """The whole grounding would have 16.8 million atoms (refused above a million): the
    search grounds 7 persons and writes, in a file of a few KB, the 14 rules the whole
    grounding gives over 128 persons; ``show`` reads it."""
    out = {}
    for n in (128, 4096):
        path = tmp_path / f"s{n}.theory"
        code, _, err = run_cli("convert", ROOT / LEARNED, "--domain-size", f"person={n}", "-k", "2", "-o", path)
        assert code == 0, err
        out[n] = path.read_text()
    assert "// domains: person: 4,096 constants, 6 of them searched and the other 4,090 priced as one" in out[4096]
    assert "#domain person = Person{1..4096}" in out[4096] and len(out[4096]) < 10_000
    assert _rules(out[4096]) == _rules(out[128]) and len(_rules(out[128])) == 14
    from pracmln_poss.bridge.loader import load_model

    m = load_model(ROOT / LEARNED, domain_sizes={"person": 128}).model
    whole = transform_mln(m, "lifted", k=2, grounded=ground(m))
    assert _rules(dumps(whole)) == _rules(out[128])
    code, shown, err = run_cli("show", tmp_path / "s4096.theory")
    assert code == 0 and "type person (variables p1, p2, ...): Person{1..4096}" in shown, err
