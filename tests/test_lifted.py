"""Interchangeable constants and evidence sets up to renaming."""

from __future__ import annotations

import itertools
import json

from pracmln_poss.logic.syntax import parse_formula
from pracmln_poss.map import open_engine
from pracmln_poss.model.first_order import EvidenceLiteral, FirstOrderMLN, FormulaTemplate, Predicate
from pracmln_poss.model.grounding import ground
from pracmln_poss.search.canonical import canonical
from pracmln_poss.search.evidence import literal_sets
from pracmln_poss.search.interchangeability import find_symmetry
from pracmln_poss.search.optima_pass import all_optima
from pracmln_poss.search.representatives import representatives
from pracmln_poss.search.rule_search import RuleSearch
from pracmln_poss.search.workers import ChunkRunner
from pracmln_poss.transformations import LiftedOptions
from pracmln_poss.weights import INF, Resolution

from .reference import assert_same_cuts


def model(preds, domains, formulas, evidence=()):
    r = Resolution()
    return FirstOrderMLN(
        predicates=tuple(Predicate(n, tuple(d)) for n, d in preds),
        domains=tuple((k, tuple(v)) for k, v in domains.items()),
        formulas=tuple(FormulaTemplate(parse_formula(t), INF if w is None else r.to_int(w), t) for t, w in formulas),
        evidence=tuple(EvidenceLiteral(p, tuple(a), v) for p, a, v in evidence),
        resolution=r,
    )


SMOKERS = dict(
    preds=[("f", ["p", "p"]), ("s", ["p"]), ("c", ["p"])],
    domains={"p": ["A", "B", "C"]},
    formulas=[("!s(a) v !f(a, b) v s(b)", 10), ("!s(a) v c(a)", 10), ("!f(a, b) v f(b, a)", None), ("!f(a, a)", None)],
)


def test_all_persons_of_the_smokers_are_interchangeable():
    m = model(**SMOKERS)
    sym = find_symmetry(ground(m), m.domain_map)
    assert sym.classes == (("A", "B", "C"),)


def test_named_constants_and_evidence_stand_alone():
    m = model(**{**SMOKERS, "formulas": SMOKERS["formulas"] + [("s(A)", 1)]})
    assert find_symmetry(ground(m), m.domain_map).classes == (("A",), ("B", "C"))
    m = model(**SMOKERS, evidence=[("s", ["C"], True)])
    assert find_symmetry(ground(m), m.domain_map).classes == (("A", "B"), ("C",))


def orbit_key(e, g, classes):
    """Brute force: the smallest image of e under all renamings within classes."""
    best = None
    for perms in itertools.product(*(itertools.permutations(c) for c in classes)):
        mapping = {}
        for cls, perm in zip(classes, perms):
            mapping.update(zip(cls, perm))
        image = []
        for l in e:
            pred, _, rest = g.name(abs(l)).partition("(")
            args = rest[:-1].split(",") if rest else []
            a = g.atom(f"{pred}({','.join(mapping[x] for x in args)})" if args else pred)
            image.append(a if l > 0 else -a)
        image = tuple(sorted(image, key=lambda l: (abs(l), l)))
        best = image if best is None or image < best else best
    return best


def test_representatives_cover_every_class_exactly_once():
    m = model(**SMOKERS)
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    with open_engine(g) as engine:
        free = [a for a in range(1, g.n_atoms + 1) if a not in engine.fixed]  # f(x, x) is fixed
    assert len(free) == g.n_atoms - 3
    for k in range(0, 4):
        reps = list(representatives(sym, k, free))
        keys = [orbit_key(e, g, sym.classes) for e in reps]
        assert len(set(keys)) == len(keys)  # one per class
        all_keys = {orbit_key(e, g, sym.classes) for e in literal_sets(len(free), k)
                    for e in [tuple(free[abs(l) - 1] * (1 if l > 0 else -1) for l in e)]}
        assert set(keys) == all_keys  # every class
        assert all(canonical(e, sym) == e for e in reps)
        # the rule search finds them itself, in chunks, with the optima: the same list
        with open_engine(g) as engine:
            search = RuleSearch(mln=g, options=LiftedOptions(k=k), backend=engine.name, symmetry=sym)
            found, _ = all_optima(search, ChunkRunner(search, engine), None, None, None)
        assert list(found) == reps


SMALL = [
    dict(preds=[("s", ["p"]), ("c", ["p"])], domains={"p": ["A", "B", "C"]},
         formulas=[("s(a) => c(a)", 2), ("s(a) ^ s(b) ^ a != b => !c(a)", 1), ("c(a)", -1)]),
    dict(preds=[("f", ["p", "p"]), ("s", ["p"])], domains={"p": ["A", "B"]},
         formulas=[("!s(a) v !f(a, b) v s(b)", 2), ("s(a)", -1), ("!f(a, a)", None)]),
    dict(preds=[("r", ["p", "q"]), ("t", ["q"])], domains={"p": ["A", "B"], "q": ["X", "Y"]},
         formulas=[("r(a, x) => t(x)", 1), ("t(x)", -2), ("r(A, x)", 1)]),
    # two types with the same initial: their variables must not collide
    dict(preds=[("wrote", ["per", "pap"]), ("cat", ["pap"])], domains={"per": ["S", "J"], "pap": ["P", "Q"]},
         formulas=[("wrote(a, x) ^ wrote(a, y) ^ cat(x) => cat(y)", 1), ("cat(x)", -1)]),
]


import pytest  # noqa: E402

from pracmln_poss.transformations import DefaultsOptions  # noqa: E402
from pracmln_poss.transformations.defaults import defaults  # noqa: E402
from pracmln_poss.transformations.lifted import ground_schemas, lifted_schemas  # noqa: E402


@pytest.mark.parametrize("case", range(len(SMALL)))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_grounded_lifted_schemas_equal_transformation_3(case, k):
    m = model(**SMALL[case])
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    lifted = ground_schemas(g, sym, lifted_schemas(g, sym, LiftedOptions(k=k, long_blocking=True)))
    reference = defaults(g, DefaultsOptions(k=k))
    assert_same_cuts(lifted, reference)


@pytest.mark.parametrize("case", range(len(SMALL)))
def test_short_blocking_rules_keep_proposition_2(case):
    from pracmln_poss.insight.verify import verify

    m = model(**SMALL[case])
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    for k in (1, 2):
        theory = ground_schemas(g, sym, lifted_schemas(g, sym, LiftedOptions(k=k)))
        assert verify(theory, g, k).ok


from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pracmln_poss.transformations import transform_mln  # noqa: E402

from .support import examples  # noqa: E402


@st.composite
def first_order_mlns(draw):
    """1-2 domains, unary and binary predicates, few ground atoms (brute force stays
    cheap); the two domains may share a constant, and formulas may name constants
    (a shared one included, through either domain's predicate)."""
    two = draw(st.booleans())
    domains = {"p": ["A", "B", "C"][: draw(st.integers(2, 3))]}
    if two:
        domains["q"] = ["A", "X"] if draw(st.booleans()) else ["X", "Y"]
    preds = [("s", ["p"]), ("t", ["q" if two else "p"])]
    if len(domains["p"]) == 2:
        preds.append(("f", ["p", "p"]))
    variables = {"p": ["a", "b"], "q": ["x"]}
    literals = []
    for name, doms in preds:
        for combo in itertools.product(*(variables[d] for d in doms)):
            literals.append(f"{name}({', '.join(combo)})")
        literals.append(f"{name}({', '.join(domains[d][0] for d in doms)})")  # a named constant
    formulas = []
    for _ in range(draw(st.integers(1, 3))):
        lits = draw(st.lists(st.sampled_from(literals), min_size=1, max_size=3, unique=True))
        text = " v ".join(("!" if draw(st.booleans()) else "") + l for l in lits)
        weight = draw(st.sampled_from([1, 1, 2, -1, -2, None]))
        formulas.append((text, weight))
    return model(preds, domains, formulas)


def _interactions_up_to_renaming(m, k):
    """The interacting pairs the digests of ``m``'s lifted and ground transformations find,
    each up to renaming the interchangeable constants."""
    from pracmln_poss.insight.digest import digest_of
    from pracmln_poss.logic.syntax import split_atom

    g = ground(m)
    classes = [c for c in find_symmetry(g, m.domain_map).classes if len(c) > 1]
    renamings = [dict(zip(itertools.chain(*classes), itertools.chain(*images)))
                 for images in itertools.product(*(itertools.permutations(c) for c in classes))]

    def renamed(literal, to):
        pred, args = split_atom(literal.removeprefix("!"))
        text = f"{pred}({','.join(to.get(a, a) for a in args)})" if args else pred
        return ("!" if literal.startswith("!") else "") + text

    def up_to_renaming(origin):
        return min(tuple(sorted(renamed(literal, to) for literal in origin)) for to in renamings)

    lifted = digest_of(transform_mln(m, "lifted", k=k))
    assert lifted.uncompared == 0
    reference = digest_of(defaults(g, DefaultsOptions(k=k)))
    return ({up_to_renaming(origin) for origin, _ in lifted.interactions},
            {up_to_renaming(origin) for origin, _ in reference.interactions})


@settings(max_examples=examples(60), deadline=None)
@given(first_order_mlns(), st.integers(1, 2))
def test_a_lifted_digest_finds_the_interacting_pairs_its_grounding_finds(m, k):
    """The digest of a lifted theory compares every pair with its literals, though a
    pair's literal need not be its own class's representative (its changes are carried
    over by the renaming): the pairs it finds interacting are, up to renaming the
    interchangeable constants, those the digest of the ground transformation finds
    among all pairs."""
    from .reference import MapReference

    assume(MapReference(ground(m)).consistent)
    lifted, reference = _interactions_up_to_renaming(m, k)
    assert lifted == reference


def test_a_lifted_digest_carries_another_object_over_to_the_pair_s_other_literal():
    """``!t(A)`` says ``f(A,x)`` for every other object ``x``; in the pair
    ``{s(B), !t(A)}`` that other object is ``B``, so the pair's ``f(A,B)`` is what
    ``!t(A)`` says already, and nothing interacts (compared with ``f(A,x)`` for an
    unobserved ``x``, it looked new)."""
    m = model([("s", ["p"]), ("t", ["p"]), ("f", ["p", "p"])], {"p": ["A", "B"]},
              [("t(a) v f(a, b)", 1), ("!s(a)", 1), ("!s(a)", 1)])
    assert _interactions_up_to_renaming(m, 2) == (set(), set())


def test_a_lifted_digest_tells_a_default_from_what_only_looks_like_one():
    """With no evidence ``f(x,x)`` holds for every ``x``; the pair ``{!f(A,A), !s(A)}``
    concludes ``f(A,y)`` for the other object ``y``, which no default says and neither
    literal alone does (Hypothesis found it: every variable read alike, ``f(A,y)`` passed
    for the default ``f(x,x)``, and the pair for one that changes nothing)."""
    m = model([("s", ["p"]), ("f", ["p", "p"])], {"p": ["A", "B"]},
              [("s(a) v f(a, a) v f(a, b)", 1), ("!s(a)", 1)])
    lifted, reference = _interactions_up_to_renaming(m, 2)
    assert lifted == reference and ("!f(A,A)", "!s(A)") in lifted


def test_a_pair_whose_literals_say_opposite_things_decides_for_itself():
    """``!s(B)`` alone says ``!s(A)``, ``s(C)`` alone says ``s(A)``; the pair concludes
    ``s(A)``, which is its own choice whichever order its literals are written in (the
    later literal's change was taken as given: ``{s(B), !s(C)}`` interacted and
    ``{!s(B), s(C)}``, the same pair up to renaming, did not; Hypothesis found it)."""
    m = model([("s", ["p"]), ("t", ["q"])], {"p": ["A", "B", "C"], "q": ["X", "Y"]},
              [("s(a) v !s(b) v s(A)", 1), ("t(x)", 1), ("s(a) v !s(b)", 1)])
    lifted, reference = _interactions_up_to_renaming(m, 2)
    assert lifted == reference == {("!s(B)", "s(C)")}


def test_a_constant_in_two_domains_and_named_in_formulas():
    """Regression (a KeyError once): ``A`` is both an object and a location."""
    m = model([("at", ["obj", "loc"]), ("near", ["loc", "loc"])], {"obj": ["A", "B"], "loc": ["A", "C"]},
              [("!at(x, y) v !near(y, z) v at(x, z)", 1), ("at(x, y)", -0.5), ("near(A, C)", 2)])
    for k in (1, 2):
        assert_same_cuts(transform_mln(m, "lifted", k=k).ground(), defaults(ground(m), DefaultsOptions(k=k)))


@settings(max_examples=examples(25), deadline=None)
@given(first_order_mlns(), st.integers(1, 3))
def test_random_first_order_mlns_grounded_lifted_equals_transformation_3(m, k):
    g = ground(m)
    from .reference import MapReference

    assume(MapReference(g).consistent)
    # the whole pipeline: search, variabilize (hard rules first-order), ground back
    from pracmln_poss.transformations import transform_mln

    lifted = transform_mln(m, "lifted", k=k, long_blocking=True).ground()
    reference = defaults(g, DefaultsOptions(k=k))
    assert_same_cuts(lifted, reference)


@pytest.mark.parametrize("case", range(len(SMALL)))
@pytest.mark.parametrize("k", [1, 2])
def test_variabilized_rules_ground_back_to_the_schemas(case, k):
    from pracmln_poss.transformations.variabilize import lift

    m = model(**SMALL[case])
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    schemas = lifted_schemas(g, sym, LiftedOptions(k=k, long_blocking=True))
    lifted = lift(g, sym, schemas).ground()
    reference = ground_schemas(g, sym, schemas)
    assert_same_cuts(lifted, reference)


def test_lifted_text_round_trip_with_a_split_domain_and_first_order_hard_rules():
    """A domain split into a named constant and a class (type q1) whose hard rule ranges
    over the whole domain (type q): the variables of both read back with their types."""
    from pracmln_poss.formats import dumps, loads
    from pracmln_poss.formats.json_format import read_json
    from pracmln_poss.formats.lifted_text import read_lifted_text
    from pracmln_poss.transformations import transform_mln

    m = model(
        preds=[("r", ["p", "q"]), ("t", ["q"])], domains={"p": ["A", "B"], "q": ["X", "Y", "Z"]},
        formulas=[("r(a, x) => t(x)", 1), ("t(X)", -2), ("!t(x) v !t(y) v x = y", None)],
    )
    lt = transform_mln(m, "lifted", k=2)
    assert dict(lt.types) == {"p": ("A", "B"), "q": ("X", "Y", "Z"), "q1": ("Y", "Z")}
    assert lt.prefixes() == {"p": "p", "q": "q_", "q1": "q1_"}
    text = dumps(lt)
    assert "inf  !t(q_1) v !t(q_2) v q_1 = q_2" in text and "q1_1" in text
    assert read_lifted_text(text) == lt and read_json(dumps(lt, "json")) == lt
    assert_same_cuts(loads(text), defaults(ground(m), DefaultsOptions(k=2)))


def test_lifted_text_round_trip_grounds_to_the_same_theory():
    from pracmln_poss.formats import loads
    from pracmln_poss.formats.lifted_text import read_lifted_text, write_lifted_text
    from pracmln_poss.transformations.variabilize import lift

    m = model(**SMALL[3])
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    lt = lift(g, sym, lifted_schemas(g, sym, LiftedOptions(k=2)))
    text = write_lifted_text(lt)
    assert "#type pap pa = P, Q" in text and "#type per pe = S, J" in text
    back = read_lifted_text(text)
    assert write_lifted_text(back) == text
    assert back.types == lt.types and back.atoms == lt.atoms
    grounded = loads(text)  # what query, explain, verify and show read
    reference = lt.ground()
    assert_same_cuts(grounded, reference)


@pytest.mark.parametrize("filtering, blocking", [("none", "short"), ("conservative", "short"),
                                                ("aggressive", "short"), ("none", "long")])
def test_convert_lifted_command_output_verifies(pracmln, capsys, tmp_path, filtering, blocking):
    from pracmln_poss.cli import main

    from .support import PAPER

    out = tmp_path / "smokers.theory"
    args = ["--domain", "person=Alice,Bob,Celine"]
    assert main(["convert", str(PAPER / "smokers.mln"), *args, "--method", "lifted", "-k", "2",
                 "--filter", filtering, "--blocking", blocking, "-o", str(out)]) == 0
    text = out.read_text()
    assert "#type person p = Alice, Bob, Celine" in text and "p1 != p2" in text
    assert main(["verify", str(out), "--mln", str(PAPER / "smokers.mln"), *args, "-k", "2"]) == 0
    assert "verified" in capsys.readouterr().out


def test_variable_prefixes_are_distinct_and_readable():
    from pracmln_poss.possibilistic.lifted_theory import variable_prefixes

    assert variable_prefixes(["person"]) == {"person": "p"}
    assert variable_prefixes(["per", "pap", "cat1", "cat2"]) == {"cat1": "cat1_", "cat2": "cat2_", "pap": "pa", "per": "pe"}


def test_lifted_json_and_latex(pracmln, capsys, tmp_path):
    """JSON keeps the types and reads back to the same theory; LaTeX shows variables and types."""
    from pracmln_poss.cli import main
    from pracmln_poss.formats import dumps, load_theory
    from pracmln_poss.formats.json_format import read_json
    from pracmln_poss.formats.lifted_text import read_lifted_text

    from .support import PAPER

    args = [str(PAPER / "smokers.mln"), "--domain", "person=Alice,Bob,Celine", "-k", "2", "--quiet"]
    text_file, json_file = tmp_path / "s.theory", tmp_path / "s.json"
    assert main(["convert", *args, "-o", str(text_file)]) == 0  # lifted is the default here
    assert main(["convert", *args, "--format", "json", "-o", str(json_file)]) == 0
    data = json.loads(json_file.read_text())
    assert data["types"] == [{"name": "person", "variable_prefix": "p", "constants": ["Alice", "Bob", "Celine"]}]
    assert "!f(p1,p2) v f(p2,p1)" in [f["formula"] for f in data["formulas"]]  # hard rules first-order
    lifted = read_json(json_file.read_text())
    assert lifted == read_lifted_text(text_file.read_text())
    assert dumps(lifted, "json") == json_file.read_text()
    assert_same_cuts(load_theory(json_file), load_theory(text_file))
    assert main(["query", str(json_file), "-e", "s(Alice)", "f(Alice,Bob)", "-q", "s(Bob)"]) == 0
    assert "entailed" in capsys.readouterr().out
    assert main(["convert", *args, "--format", "latex"]) == 0
    latex = capsys.readouterr().out
    made_by, _, latex = latex.partition("\n")
    assert made_by == f"% made by: pracmln-poss convert {PAPER / 'smokers.mln'} --domain person=Alice,Bob,Celine " \
                      "--method lifted -k 2 --filter none (the world left open)"
    assert latex.startswith("% type person (variables p1, p2, ...): Alice, Bob, Celine\n\\begin{align*}")
    assert r"\textit{p1} \neq \textit{p2}" in latex and r"\textit{f}(\textit{p1}, \textit{p2})" in latex


def test_lifted_needs_the_first_order_model():
    from pracmln_poss.errors import ModelError
    from pracmln_poss.transformations import default_method, transform_mln

    m = model(**SMOKERS)
    assert default_method(m) == "lifted" and default_method(ground(m)) == "defaults"
    with pytest.raises(ModelError, match="first-order model"):
        transform_mln(ground(m), "lifted")
    lt = transform_mln(m, k=1)
    assert lt.types == (("p", ("A", "B", "C")),)
    assert [lt.format(pf.formula) for pf in lt.formulas if pf.steps == INF] == ["!f(p1,p2) v f(p2,p1)", "!f(p1,p1)"]
    assert_same_cuts(lt.ground(), defaults(ground(m), DefaultsOptions(k=1)))


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_canonical_form_is_a_renaming_invariant(data):
    """canonical(pi(E)) == canonical(E) for every renaming pi, and canonical(E) renames E."""
    m = model(preds=[("f", ["p", "p"]), ("r", ["p", "q"]), ("s", ["p"])],
              domains={"p": ["A", "B", "C", "D"], "q": ["X", "Y", "Z"]},
              formulas=[("!s(a) v !f(a, b) v s(b)", 1), ("r(a, x) => s(a)", 1), ("r(a, X)", 2)])
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    assert sym.classes == (("A", "B", "C", "D"), ("X",), ("Y", "Z"))
    atoms = st.integers(1, g.n_atoms)
    e = tuple(data.draw(st.lists(st.builds(lambda a, pos: a if pos else -a, atoms, st.booleans()),
                                 max_size=4, unique_by=abs)))
    perm = {}
    for cls in sym.classes:
        perm.update(zip(cls, data.draw(st.permutations(cls))))
    renamed = tuple(g.atom(f"{pred}({','.join(perm[c] for c in args)})") * (1 if l > 0 else -1)
                    for l in e for pred, args in [sym.atom_info[abs(l)]])
    assert canonical(renamed, sym) == canonical(e, sym)
    assert orbit_key(e, g, sym.classes) == orbit_key(canonical(e, sym), g, sym.classes)  # same class


def test_convert_long_blocking_rules(pracmln, capsys):
    """--blocking long writes not (AND E ^ AND X(E)); the default short form not AND E."""
    from pracmln_poss.cli import main

    from .support import PAPER

    outputs = {}
    for blocking in ("short", "long"):
        assert main(["convert", str(PAPER / "birds-jetpack.mln"), "-k", "2", "--blocking", blocking]) == 0
        outputs[blocking] = [l for l in capsys.readouterr().out.splitlines() if "from: blocking {bird(Tweety), !flies" in l]
    assert outputs["short"] == ["1  !bird(Tweety) v flies(Tweety)  // from: blocking {bird(Tweety), !flies(Tweety)}"]
    assert outputs["long"] == [
        "1  !bird(Tweety) v flies(Tweety) v hasJetPack(Tweety)  // from: blocking {bird(Tweety), !flies(Tweety)}"
    ]  # X({bird, !flies}) adds hasJetPack: the paper's listing has this rule


@settings(max_examples=examples(25), deadline=None)
@given(first_order_mlns(), st.integers(1, 2), st.data())
def test_focused_lifted_grounds_to_focused_transformation_3(m, k, data):
    g = ground(m)
    from .reference import MapReference

    assume(MapReference(g).consistent)
    from pracmln_poss.transformations import transform_mln

    preds = [p.name for p in m.predicates]
    evidence = data.draw(st.none() | st.lists(st.sampled_from(preds), min_size=1, unique=True))
    query = data.draw(st.none() | st.lists(st.sampled_from(preds), min_size=1, unique=True))
    lifted = transform_mln(m, "lifted", k=k, long_blocking=True, evidence_preds=evidence, query_preds=query).ground()
    reference = transform_mln(g, "defaults", k=k, evidence_preds=evidence, query_preds=query)
    assert_same_cuts(lifted, reference)


def _renamings_of(sym):
    """Every renaming within the interchangeable classes (brute force)."""
    for perms in itertools.product(*(itertools.permutations(c) for c in sym.classes)):
        mapping = {}
        for cls, perm in zip(sym.classes, perms):
            mapping.update(zip(cls, perm))
        yield mapping


def _renamed_literal(lit, mapping, g, sym):
    pred, args = sym.atom_info[abs(lit)]
    a = g.atom(f"{pred}({','.join(mapping[c] for c in args)})" if args else pred)
    return a if lit > 0 else -a


@settings(max_examples=examples(60), deadline=None)
@given(first_order_mlns(), st.integers(0, 3))
def test_representatives_of_random_models_cover_every_class_once(m, k):
    """The representatives grown one literal at a time (by a literal of the largest
    shape only) are one per renaming class, every class, each its canonical form."""
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    reps = list(representatives(sym, k))
    keys = [orbit_key(e, g, sym.classes) for e in reps]
    assert len(set(keys)) == len(keys)
    assert set(keys) == {orbit_key(e, g, sym.classes) for e in literal_sets(g.n_atoms, k)}
    assert all(canonical(e, sym) == e for e in reps)


RICH = dict(preds=[("f", ["p", "p"]), ("r", ["p", "q"]), ("s", ["p"])],
            domains={"p": ["A", "B", "C", "D"], "q": ["X", "Y", "Z"]},
            formulas=[("!s(a) v !f(a, b) v s(b)", 1), ("r(a, x) => s(a)", 1), ("r(a, X)", 2)])


@settings(max_examples=examples(150), deadline=None)
@given(st.one_of(first_order_mlns(), st.just(model(**RICH))), st.data())
def test_one_conclusion_per_class_of_those_a_renaming_fixing_the_evidence_maps_together(m, data):
    """The lifted search keeps the first head literal of each orbit under the renamings
    that fix the evidence (cheap keys first, canonical forms where they leave it open):
    the same literals as the orbits found by brute force."""
    from pracmln_poss.search.rules_pass import AtomParts, one_per_class

    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    lits = st.builds(lambda a, pos: a if pos else -a, st.integers(1, g.n_atoms), st.booleans())
    e = tuple(sorted(data.draw(st.lists(lits, max_size=3, unique_by=abs)), key=abs))
    others = [a for a in range(1, g.n_atoms + 1) if a not in {abs(l) for l in e}]
    head = tuple(sorted(data.draw(st.lists(st.sampled_from([s * a for a in others for s in (1, -1)]) if others
                                           else st.nothing(), unique_by=abs)), key=abs))
    assert one_per_class(e, head, AtomParts(sym)) == _one_per_orbit(e, head, g, sym)


def _one_per_orbit(e, head, g, sym):
    """Brute force: the first literal of ``head`` in each orbit of the renamings fixing ``e``."""
    fixing = [mp for mp in _renamings_of(sym)
              if sorted(_renamed_literal(l, mp, g, sym) for l in e) == sorted(e)]
    kept: list[int] = []
    for lit in head:
        orbit = {_renamed_literal(lit, mp, g, sym) for mp in fixing}
        if not any(k in orbit for k in kept):
            kept.append(lit)
    return tuple(kept)


def test_one_conclusion_per_class_where_the_cheap_keys_leave_it_open():
    """In a cycle f(A,B), f(B,C), f(C,D), f(D,A) every constant is used alike, so every
    f literal has one shape; the renamings fixing it (rotations) keep reversed edges
    apart from diagonals: only canonical forms tell them apart."""
    from pracmln_poss.search.rules_pass import AtomParts, one_per_class

    m = model(**RICH)
    g = ground(m)
    sym = find_symmetry(g, m.domain_map)
    f = {(a, b): g.atom(f"f({a},{b})") for a in "ABCD" for b in "ABCD"}
    e = tuple(sorted((f["A", "B"], f["B", "C"], f["C", "D"], f["D", "A"])))
    head = tuple(sorted((f["A", "C"], f["B", "A"], f["B", "D"], f["C", "B"], -f["C", "A"], f["A", "A"]), key=abs))
    got = one_per_class(e, head, AtomParts(sym))
    assert got == _one_per_orbit(e, head, g, sym)
    assert {f["A", "C"], f["B", "D"]} & set(got) and {f["B", "A"], f["C", "B"]} & set(got)  # both kinds stay
    assert len(got) == 4


@settings(max_examples=examples(150), deadline=None)
@given(first_order_mlns(), st.data())
def test_classes_from_the_first_order_model_are_those_every_swap_test_finds(m, data):
    """Joining the constants the model does not name at once, and the named ones whose
    swap leaves the formulas and evidence as written, gives the maximal classes that
    testing every swap on the grounding gives: with evidence on random atoms, and with
    named constants the formulas treat alike (or not)."""
    from dataclasses import replace

    from pracmln_poss.logic.syntax import split_atom

    domain = m.domain_map["p"]
    if len(domain) > 2 and data.draw(st.booleans()):  # two named constants, alike or not
        weights = data.draw(st.sampled_from([(1, 1), (1, 2), (None, None)]))
        twins = tuple(FormulaTemplate(parse_formula(f"s({c}) v !s(a)"), INF if w is None else m.resolution.to_int(w),
                                      f"s({c})") for c, w in zip(domain[1:], weights))
        m = replace(m, formulas=m.formulas + twins)
    g = ground(m)
    atoms = data.draw(st.lists(st.integers(1, g.n_atoms), max_size=2, unique=True))
    evidence = tuple(EvidenceLiteral(*split_atom(g.atoms[a - 1]), data.draw(st.booleans())) for a in atoms)
    m = replace(m, evidence=evidence)
    g = ground(m)
    assert (find_symmetry(g, m.domain_map, m.named, m.swap_invariant).classes
            == find_symmetry(g, m.domain_map).classes)


def test_unnamed_constants_of_a_large_domain_form_one_class_without_a_test():
    """Sixty persons, one named in a formula and one in the evidence: two singletons and
    one class of the 58 others."""
    people = [f"P{i}" for i in range(60)]
    m = model(**{**SMOKERS, "domains": {"p": people}, "formulas": SMOKERS["formulas"] + [("s(P3)", 1)]},
              evidence=[("c", ["P7"], True)])
    sym = find_symmetry(ground(m), m.domain_map, m.named, m.swap_invariant)
    assert sym.classes == (("P0", "P1", "P2", *people[4:7], *people[8:]), ("P3",), ("P7",))


@settings(max_examples=examples(100), deadline=None)
@given(first_order_mlns(), st.integers(0, 4), st.integers(1, 400))
def test_the_count_of_examined_sets_is_exact_or_a_bound_and_covers_the_classes(m, k, limit):
    """``examined`` with a limit answers the exact count when it is at most the limit, a
    count past the limit that the exact one reaches, or a bound above the exact one;
    the exact count is at least the number of classes (the search's representatives)."""
    from pracmln_poss.search.representatives import examined

    sym = find_symmetry(ground(m), m.domain_map, m.named, m.swap_invariant)
    exact, is_exact = examined(sym, k)
    assert is_exact and exact >= len(list(representatives(sym, k)))
    count, counted = examined(sym, k, None, limit)
    if not counted:
        assert count >= exact
    elif count <= limit:
        assert count == exact
    else:
        assert limit < count <= exact


@settings(max_examples=examples(100), deadline=None)
@given(st.one_of(first_order_mlns(), st.just(model(**RICH))), st.data())
def test_the_frame_has_the_smallest_atom_of_every_orbit_of_the_renamings_fixing_its_constants(m, data):
    """``frame_atoms(U)`` is exactly the smallest atom of each orbit under the renamings
    that fix every constant of ``U``, and ``in_frame`` maps any atom onto its orbit's
    (brute force over all renamings)."""
    g = ground(m)
    sym = find_symmetry(g, m.domain_map, m.named, m.swap_invariant)
    constants = sorted({c for cls in sym.classes for c in cls})
    chosen = data.draw(st.lists(st.sampled_from(constants), max_size=3, unique=True))
    used = {}
    for c in chosen:
        used.setdefault(sym.types[c], []).append(c)
    fixing = [r for r in _renamings_of(sym) if all(r[c] == c for c in chosen)]
    smallest = {a: min(_renamed_literal(a, r, g, sym) for r in fixing) for a in range(1, g.n_atoms + 1)}
    assert sym.frame_atoms(used) == sorted(set(smallest.values()))
    assert all(sym.in_frame(used, a) == smallest[a] for a in smallest)


@settings(max_examples=examples(40), deadline=None)
@given(first_order_mlns(), st.integers(1, 2))
def test_lifted_rules_over_frames_are_those_over_every_atom_and_verify(m, k):
    """The lifted search computing each X(E) over E's frame gives the schemas it gives over
    every atom, and its theory answers as MAP does (every question, brute force)."""
    from unittest import mock

    from pracmln_poss.insight.verify import verify
    from pracmln_poss.search.rule_search import RuleSearch

    from .reference import MapReference

    g = ground(m)
    assume(MapReference(g).consistent)
    sym = find_symmetry(g, m.domain_map, m.named, m.swap_invariant)
    framed = lifted_schemas(g, sym, LiftedOptions(k=k))
    with mock.patch.object(RuleSearch, "framed", property(lambda self: False)):
        everywhere = lifted_schemas(g, sym, LiftedOptions(k=k))
    assert framed == everywhere
    assert verify(ground_schemas(g, sym, framed), g, k).ok


def _grounded_in_three_walks(lt, pf):
    """A rule's groundings as the one-walk grounding replaced them: its variables bound,
    then its atoms numbered, then the result simplified (substitute_atoms)."""
    from pracmln_poss.logic.formula import Constant, Truth, Variable, map_terms, substitute_atoms, variables_of
    from pracmln_poss.logic.leaves import intern_atoms

    names = {n: i for i, n in enumerate(lt.atoms, 1)}
    types = dict(lt.types)
    variables = sorted(set(variables_of(pf.formula)), key=lambda v: v.name)
    out = []
    for values in itertools.product(*(types[v.domain or ""] for v in variables)):
        binding = {v.name: c for v, c in zip(variables, values)}
        bound = map_terms(pf.formula, lambda t, binding=binding: Constant(binding[t.name]) if isinstance(t, Variable) else t)
        grounded = substitute_atoms(intern_atoms(bound, names), lambda _a: None)
        assert len(names) == len(lt.atoms)
        if not (isinstance(grounded, Truth) and grounded.value):
            out.append(grounded)
    return out


@settings(max_examples=examples(25), deadline=None)
@given(first_order_mlns(), st.integers(1, 2))
def test_a_rule_is_grounded_in_one_walk_as_in_three(m, k):
    """The grounding of a lifted theory read from its file (atoms shared between rules,
    their groundings kept across rules) is, formula for formula, the grounding made in
    three walks; and the theory grounds to those, in rule order, repeats left out."""
    from pracmln_poss.formats.lifted_text import read_lifted_text, write_lifted_text
    from pracmln_poss.transformations import transform_mln

    g = ground(m)
    from .reference import MapReference

    assume(MapReference(g).consistent)
    lt = read_lifted_text(write_lifted_text(transform_mln(m, "lifted", k=k)))
    expected, seen = [], set()
    for pf in lt.formulas:
        assert lt.groundings(pf) == _grounded_in_three_walks(lt, pf)
        for grounded in _grounded_in_three_walks(lt, pf):
            if (grounded, pf.steps) not in seen:
                seen.add((grounded, pf.steps))
                expected.append((grounded, pf.steps))
    assert [(pf.formula, pf.steps) for pf in lt.ground().formulas] == expected


def test_a_rule_outside_the_theorys_atoms_is_refused():
    from pracmln_poss.errors import ModelError
    from pracmln_poss.formats.lifted_text import read_lifted_text

    lt = read_lifted_text("#atoms s(A) s(B)\n#type person p = A, B\n1  s(p1) => t(p1)\n")
    with pytest.raises(ModelError, match=r"mentions an atom outside the model"):
        lt.ground()


@settings(max_examples=examples(40), deadline=None)
@given(first_order_mlns(), st.integers(1, 2), st.data())
def test_a_lifted_theory_answers_on_its_clauses_as_its_grounding_does(m, k, data):
    """The reasoner over a lifted theory (its rules' ground clauses, no formula per
    grounding) gives every question the answer, consistency level and drowned formulas
    of the reasoner over the ground theory; and each rule's clauses made the
    ``premise => conclusion`` way are those the general way makes, in its order."""
    from pracmln_poss.errors import InconsistentEvidenceError
    from pracmln_poss.possibilistic.ground_clauses import ClauseGrounder
    from pracmln_poss.possibilistic.reasoner import Reasoner

    g = ground(m)
    from .reference import MapReference

    assume(MapReference(g).consistent)
    lifted = transform_mln(m, "lifted", k=k, long_blocking=data.draw(st.booleans()))
    fast, general = (ClauseGrounder(dict(lifted.types), lifted.atom_numbers) for _ in range(2))
    general._implication = lambda f, variables: None
    for pf, variables in zip(lifted.formulas, lifted.rule_variables):
        assert fast.clauses(pf.formula, variables) == general.clauses(pf.formula, variables), pf.formula
    grounded = lifted.ground()
    names = grounded.atoms
    literal = st.builds(lambda a, pos: a if pos else "!" + a, st.sampled_from(names), st.booleans())
    with Reasoner(lifted) as on_clauses, Reasoner(grounded) as on_formulas:
        assert on_clauses.level_steps == on_formulas.level_steps
        for _ in range(4):
            evidence = data.draw(st.lists(literal, max_size=k + 1, unique=True))
            query = data.draw(st.none() | literal | st.builds(lambda a, b: f"{a} v {b}", literal, literal))
            answers = []
            for reasoner in (on_clauses, on_formulas):
                try:
                    answers.append(reasoner.query(evidence, query))
                except InconsistentEvidenceError:
                    answers.append(None)
            assert answers[0] == answers[1], (evidence, query)
            if query is not None:
                q = query if " v " in query else query.lstrip("!")
                assert on_clauses.necessity_steps(q) == on_formulas.necessity_steps(q)


def test_a_lifted_theory_s_reasoner_keeps_the_limit_of_groundings(monkeypatch):
    from pracmln_poss.errors import ModelError
    from pracmln_poss.possibilistic import lifted_theory
    from pracmln_poss.possibilistic.reasoner import Reasoner

    lifted = transform_mln(model(**SMOKERS), "lifted", k=1)
    monkeypatch.setattr(lifted_theory, "MAX_GROUNDINGS", lifted.grounding_size() - 1)
    with pytest.raises(ModelError, match="force"):
        Reasoner(lifted)
    with Reasoner(lifted, force=True) as reasoner:
        assert reasoner.query(["s(A)"], "c(A)").entailed
