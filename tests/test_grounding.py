"""Grounding first-order models (no pracmln involved)."""

import itertools

import pytest

from pracmln_poss.errors import InconsistentModelError, ModelError
from pracmln_poss.logic.syntax import parse_formula
from pracmln_poss.map import open_engine
from pracmln_poss.model.first_order import EvidenceLiteral, FirstOrderMLN, FormulaTemplate, Predicate
from pracmln_poss.model.grounding import ground
from pracmln_poss.weights import INF, Resolution


def model(preds, domains, formulas, evidence=()):
    r = Resolution()
    return FirstOrderMLN(
        predicates=tuple(Predicate(n, tuple(d), *rest) for n, d, *rest in preds),
        domains=tuple((k, tuple(v)) for k, v in domains.items()),
        formulas=tuple(
            FormulaTemplate(parse_formula(t), INF if w is None else r.to_int(w), t) for t, w in formulas
        ),
        evidence=tuple(EvidenceLiteral(p, tuple(a), v) for p, a, v in evidence),
        resolution=r,
    )


def test_atoms_numbered_as_pracmln_does():
    m = model([("f", ["person", "person"]), ("s", ["person"])], {"person": ["A", "B"]}, [])
    g = ground(m)
    assert g.atoms == ("f(A,A)", "f(A,B)", "f(B,A)", "f(B,B)", "s(A)", "s(B)")


def test_one_grounding_per_assignment_and_equality_decided():
    m = model(
        [("f", ["p", "p"])],
        {"p": ["A", "B", "C"]},
        [("!f(x, y) v x = y", 1.5), ("!f(x, x)", None)],
    )
    g = ground(m)
    # x = y groundings are tautologies and dropped: 6 soft formulas remain
    assert len(g.soft) == 6 and all(wf.weight == 1_500_000 for wf in g.soft)
    assert len(g.hard) == 3


def test_exist_grounds_to_a_disjunction():
    m = model([("f", ["p", "p"]), ("s", ["p"])], {"p": ["A", "B"]}, [("s(x) => EXIST y (f(x, y))", 2)])
    g = ground(m)
    with open_engine(g) as eng:
        assert eng.entails(["s(A)"], "f(A,A) v f(A,B)")
        assert eng.penalty(["s(A)", "!f(A,A)", "!f(A,B)"]) == 2_000_000


def test_functional_and_soft_functional_arguments_are_hard_constraints():
    preds = [("cat", ["pap", "c"], 1, False), ("tag", ["pap", "c"], 1, True)]
    m = model(preds, {"pap": ["P"], "c": ["X", "Y", "Z"]}, [])
    g = ground(m)
    with open_engine(g) as eng:
        for values in itertools.product((False, True), repeat=3):
            ev = [("" if v else "!") + f"cat(P,{c})" for v, c in zip(values, "XYZ")]
            assert (eng.penalty(ev) == INF) == (sum(values) != 1)
            ev = [("" if v else "!") + f"tag(P,{c})" for v, c in zip(values, "XYZ")]
            assert (eng.penalty(ev) == INF) == (sum(values) > 1)


def test_evidence_becomes_hard_units():
    m = model([("s", ["p"])], {"p": ["A", "B"]}, [("s(x)", -1)], [("s", ["A"], True)])
    g = ground(m)
    with open_engine(g) as eng:
        assert eng.consequences([]) == {g.literal("s(A)"), g.literal("!s(B)")}


@pytest.mark.parametrize(
    "preds, domains, formulas, match",
    [
        ([("s", ["p"])], {"p": ["A"]}, [("t(x)", 1)], "unknown predicate 't'"),
        ([("s", ["p"])], {"p": ["A"]}, [("s(x, y)", 1)], "takes 1 argument"),
        ([("s", ["p"]), ("r", ["q"])], {"p": ["A"], "q": ["B"]}, [("s(x) v r(x)", 1)], "both as"),
        ([("s", ["p"])], {"p": []}, [("s(x)", 1)], "has no constants"),
        ([("s", ["p"])], {"p": ["A"]}, [("s(B)", 1)], "not in domain"),
    ],
)
def test_model_errors(preds, domains, formulas, match):
    with pytest.raises(ModelError, match=match):
        ground(model(preds, domains, formulas))


def test_hard_formula_false_in_a_grounding():
    with pytest.raises(InconsistentModelError, match="x=A"):
        ground(model([("s", ["p"])], {"p": ["A"]}, [("x != x ^ s(x)", None)]))


def test_a_functional_constraint_says_what_is_unique_for_what(tmp_path):
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.model.grounding import ground

    path = tmp_path / "f.mln"
    path.write_text("person = {A, B}\nplace = {X, Y}\nlivesIn(person, place!)\nat(place?)\n1 livesIn(A, X)\n")
    sources = {f.source for f in ground(load_model(path).model).hard}
    assert sources == {f"{path}:3: livesIn(person, place!): exactly one place for each person",
                       f"{path}:4: at(place?): at most one place"}
