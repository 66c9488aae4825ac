"""The pracmln bridge: every bundled model loads, grounds like pracmln, and bad input is reported well."""

from __future__ import annotations

import dataclasses
import random
import textwrap
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from pracmln_poss.bridge.database import read_database
from pracmln_poss.bridge.loader import load_model
from pracmln_poss.errors import FormulaSyntaxError, ModelError, PossError, UnsupportedInputError, WeightError
from pracmln_poss.map import open_engine
from pracmln_poss.map.engine import World, world_cost
from pracmln_poss.model.grounding import ground
from pracmln_poss.possibilistic import possibilistic_inference

from .support import ANTARCTIC, DATA, PAPER, PRACMLN_DATA, examples, run_python, smokers_project

SMOKERS = PRACMLN_DATA / "smokers"
TWEETY = PRACMLN_DATA / "tweety"

CASES = [(p, None) for p in sorted([*PAPER.glob("*.mln"), ANTARCTIC])]
CASES += [(p, SMOKERS / "dbs" / "smoking-test-smaller.db") for p in sorted((SMOKERS / "mlns").glob("*.mln"))]
CASES += [(p, TWEETY / "dbs" / "query1.db") for p in sorted((TWEETY / "mlns").glob("*.mln"))]
CASES += [(TWEETY / "mlns" / "tweety-kreator.mln", TWEETY / "dbs" / "query2.db")]
CONSTRUCTS = DATA / "constructs"
CASES += [(CONSTRUCTS / "all-constructs.mln", CONSTRUCTS / "all-constructs.db")]


def _ids(case):
    mln, db = case
    return mln.stem + (f"+{db.stem}" if db else "")


def _pracmln_scores(pracmln, mln_path, db_path):
    """pracmln's own grounding: a function from an atom->bool dict to (score, hard ok)."""
    mln = load_model(mln_path, reader="pracmln").mln
    db = pracmln.Database.load(mln, str(db_path))[0] if db_path else pracmln.Database(mln)
    mrf = mln.ground(db)
    grounded = list(mrf.itergroundings())
    weights = [f.weight for f in mrf.formulas]
    names = [str(a) for a in mrf.gndatoms]

    def score(values: dict[str, bool]):
        vector = [1 if values[n] else 0 for n in names]
        total, hard_ok = 0.0, True
        for gf in grounded:
            w = weights[gf.idx]
            t = gf.truth(vector)
            if w == float("inf"):
                hard_ok &= t == 1
            else:
                total += w * t
        return total, hard_ok

    return score, set(names)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_grounding_agrees_with_pracmln(pracmln, case):
    mln_path, db_path = case
    loaded = load_model(mln_path, db_path)
    g = ground(loaded.model)
    score, pracmln_atoms = _pracmln_scores(pracmln, mln_path, db_path)
    assert pracmln_atoms <= set(g.atoms)
    rng = random.Random(1)
    step = float(g.resolution.step)
    with open_engine(g) as eng:
        samples = []
        for _ in range(200):
            values = [False] + [rng.random() < 0.5 for _ in g.atoms]
            for a, v in eng.fixed.items():
                values[a] = v
            _respect_functional_arguments(loaded.model, g, values, rng, eng.fixed)
            world = World(tuple(values))
            cost = eng.cost(world)
            named = {n: values[i] for i, n in enumerate(g.atoms, 1)}
            s, hard_ok = score(named)
            assert hard_ok == (cost != float("inf")), named
            if hard_ok:
                samples.append((cost, s))
        # our cost is a constant minus pracmln's score: their differences agree
        for (c1, s1), (c2, s2) in zip(samples, samples[1:]):
            assert (c1 - c2) * step == pytest.approx(s2 - s1, abs=1e-5 * (len(g.soft) + 1))


def _without_texts(model):
    """The model with the formulas' display texts blanked (pracmln prints them its own way)."""
    return dataclasses.replace(model, formulas=tuple(dataclasses.replace(f, text="") for f in model.formulas))


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_native_reader_reads_models_as_pracmln_does(pracmln, case):
    mln_path, db_path = case
    native = load_model(mln_path, db_path, reader="native")
    reference = load_model(mln_path, db_path, reader="pracmln")
    assert native.mln is None and reference.mln is not None
    assert _without_texts(native.model) == _without_texts(reference.model)


def _respect_functional_arguments(model, g, values, rng, fixed):
    """pracmln keeps functional arguments as mutex variables, not formulas: sample inside them."""
    for p in model.predicates:
        if p.functional is None:
            continue
        blocks = {}
        for i, name in enumerate(g.atoms, 1):
            pred, _, args = name.partition("(")
            if pred != p.name:
                continue
            args = args[:-1].split(",")
            key = tuple(a for j, a in enumerate(args) if j != p.functional)
            blocks.setdefault(key, []).append(i)
        for atoms in blocks.values():
            given = [a for a in atoms if fixed.get(a)]
            free = [a for a in atoms if a not in fixed]
            chosen = given[0] if given else rng.choice(free + ([None] if p.soft_functional else []))
            for a in atoms:
                values[a] = a == chosen


@pytest.mark.parametrize("case", [c for c in CASES if c[1]], ids=_ids)
def test_database_reader_agrees_with_pracmln(pracmln, case):
    mln_path, db_path = case
    loaded = load_model(mln_path, reader="pracmln")
    db = pracmln.Database.load(loaded.mln, str(db_path))[0]
    _domains, evidence = read_database(db_path)
    ours = {f"{e.pred}({','.join(e.args)})": e.value for e in evidence}
    theirs = {atom: bool(v) for atom, v in db.evidence.items() if v is not None}
    assert ours == theirs


def test_weight_expressions_and_negative_weights(pracmln):
    g = ground(load_model(TWEETY / "mlns" / "tweety-kreator.mln", TWEETY / "dbs" / "query2.db").model)
    # log(0.9/0.1) = 2.197225, log(0.01/0.99) < 0 becomes (not F, 4.59512)
    assert sorted({wf.weight for wf in g.soft}) == [2_197_225, 4_595_120]
    with open_engine(g) as eng:
        assert eng.entails([], "flies(Tweety)")  # query2.db says Tweety is no penguin
        assert eng.entails([], "!flies(Opus)")
        # without that evidence MAP makes Tweety a non-flying penguin: the reward for
        # penguin ^ !flies (4.6) beats the one for bird => flies (2.2)
        assert eng.entails(["!penguin(Tweety) v penguin(Tweety)"], "!flies(Tweety)") is False


def test_learned_float_weights_are_exact(pracmln):
    g = ground(load_model(SMOKERS / "mlns" / "learnt.bpll.smoking-train-smoking.mln",
                          SMOKERS / "dbs" / "smoking-test-smaller.db").model)
    assert {wf.weight for wf in g.soft} == {646_696, 1_519_900}


def test_zero_weights_are_dropped(pracmln):
    g = ground(load_model(SMOKERS / "mlns" / "smoking.mln", SMOKERS / "dbs" / "smoking-test-smaller.db").model)
    assert g.soft == ()


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip())
    return p


def test_prac_grammar(pracmln, tmp_path):
    p = write(tmp_path, "m.mln", """
        t = {A, B}
        p(t)
        q(t)
        r(t)
        1.5 p(?x) ^ q(?x) v r(?x)
        """)
    g = ground(load_model(p, grammar="PRACGrammar").model)
    assert len(g.soft) == 2
    # PRACGrammar: (p ^ q) v r, which a world with only r true satisfies (p ^ (q v r) would not)
    only_r = World.from_literals(g.n_atoms, [g.atom("r(A)"), g.atom("r(B)")])
    assert world_cost(g, only_r) == 0
    assert world_cost(g, World.from_literals(g.n_atoms, [])) == 2 * g.soft[0].weight


def test_functional_arguments_from_a_file(pracmln, tmp_path):
    p = write(tmp_path, "m.mln", """
        pap = {P}
        cat = {X, Y}
        category(pap, cat!)
        tag(pap, cat?)
        1 category(p, X)
        -1 tag(p, X)
        """)
    g = ground(load_model(p).model)
    with open_engine(g) as eng:
        assert eng.consequences([]) == {g.literal(l) for l in ["category(P,X)", "!category(P,Y)", "!tag(P,X)"]} | (
            eng.consequences([]) & {g.literal("tag(P,Y)"), g.literal("!tag(P,Y)")}
        )
        assert eng.penalty(["!category(P,X)", "!category(P,Y)"]) == float("inf")


@pytest.mark.parametrize(
    "text, error, where, match",
    [
        ("p(t)\n2 p(x) ^^ p(y)\n", FormulaSyntaxError, 2, "p(x) ^^ p(y)"),
        ("t = {A}\np(t)\n2 q(x)\n", ModelError, 3, "q"),
        ("t = {A}\np(t)\nfoo(x) => p(x)\n", FormulaSyntaxError, 3, "foo(x) => p(x)"),
        ("t = {A}\np(t)\nbanana p(x)\n", WeightError, 3, "banana"),
        ("t = {A}\n#fuzzy\np(t)\n1 p(x)\n", UnsupportedInputError, 2, "fuzzy"),
        ("p(t)\n1 p(x)\n", ModelError, 1, "no constants"),
    ],
)
def test_bad_models_name_file_line_and_text(pracmln, tmp_path, text, error, where, match):
    p = write(tmp_path, "bad.mln", text)
    with pytest.raises(error) as info:
        ground(load_model(p).model)
    message = str(info.value)
    assert f"bad.mln:{where}" in message
    assert match in message


@pytest.mark.parametrize(
    "text, where, match",
    [
        ("p(A)\np(A\n", 2, "p(A"),
        ("p(A)\n0.7 p(B)\n", 2, "soft evidence"),
        ("p(A)\n---\np(B)\n", 2, "several databases"),
        ("q(A)\n", 1, "undeclared predicate 'q'"),
    ],
)
def test_bad_databases_name_file_line_and_text(pracmln, tmp_path, text, where, match):
    m = write(tmp_path, "m.mln", "t = {A}\np(t)\n1 p(x)\n")
    d = write(tmp_path, "bad.db", text)
    with pytest.raises(PossError) as info:
        ground(load_model(m, d).model)
    assert f"bad.db:{where}" in str(info.value) and match in str(info.value)


def test_missing_file(pracmln, tmp_path):
    with pytest.raises(ModelError, match="cannot read model file"):
        load_model(tmp_path / "nope.mln")


def test_pracmln_imports_without_tkinter(pracmln):
    code = textwrap.dedent("""
        import sys
        class NoTk:
            def find_spec(self, name, path=None, target=None):
                if name == "tkinter" or name.startswith("tkinter.") or name == "_tkinter":
                    raise ImportError("no tkinter here")
        sys.meta_path.insert(0, NoTk())
        import pracmln_poss
        from pracmln_poss.compat import import_pracmln
        pracmln = import_pracmln()
        mln = pracmln.MLN(grammar="StandardGrammar")
        print("ok", type(mln).__name__)
    """)
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert "ok MLN" in out.stdout


@pytest.mark.alone
def test_dnutils_threads_join_on_every_supported_python(pracmln):
    """dnutils (pracmln's dependency) reads ``_thread._set_sentinel``, gone in Python 3.13;
    the stand-in must keep its meaning: ``join`` returns when the thread ends."""
    code = textwrap.dedent("""
        import time
        import pracmln_poss
        import pracmln
        from dnutils.threads import Thread
        t = Thread(target=lambda: time.sleep(0.1))
        t.start()
        t.join(10)
        print("alive" if t.is_alive() else "joined")
    """)
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "joined"


def test_sentinel_lock_is_released_when_its_thread_ends():
    import threading

    from pracmln_poss.compat import _set_sentinel

    box = []
    t = threading.Thread(target=lambda: box.append(_set_sentinel()) or box[0].acquire())
    t.start()
    t.join()
    assert box[0].acquire(timeout=5)  # released by the thread's end, not by anyone else


def test_to_possibilistic_is_added_to_pracmln_mln(pracmln):
    code = textwrap.dedent("""
        import sys
        import pracmln_poss
        assert "pracmln" not in sys.modules   # importing the plugin does not import pracmln
        import pracmln                         # and a plain import works on Python 3.11
        mln = pracmln.MLN.load("examples/paper/example5-defaults.mln", grammar="StandardGrammar")
        theory = mln.to_possibilistic(method="defaults", k=1, omit_redundant_blocking=False)
        print(len(theory), theory.levels())
        db = pracmln.Database(mln)
        db["a(T)"] = 0.0
        from pracmln_poss import possibilistic_inference
        print(possibilistic_inference(mln.to_possibilistic(db, method="exhaustive")).entails([], "b(T)"))
    """)
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["4 (0.0, 1.0)", "True"]


def test_to_possibilistic_when_pracmln_was_imported_first(pracmln):
    import pracmln_poss
    from pracmln_poss.bridge.plugin import install

    install()
    mln = pracmln.MLN.load(str(ANTARCTIC), grammar="StandardGrammar")
    theory = mln.to_possibilistic(method="defaults", k=1)
    assert possibilistic_inference(theory).entails(["antarcticBird(Tweety)"], "flies(Tweety)")
    assert not possibilistic_inference(theory).entails([], "antarcticBird(Tweety)")  # (entailing all would pass above)
    assert type(mln).to_possibilistic.__module__ == "pracmln_poss.bridge.plugin"
    assert set(pracmln_poss.METHODS) == {"exhaustive", "selective", "defaults", "lifted"}


def test_to_possibilistic_lifted_is_the_default_for_first_order_mlns(pracmln):
    from pracmln_poss.bridge.plugin import install
    from pracmln_poss.possibilistic.lifted_theory import LiftedTheory

    install()
    mln = pracmln.MLN.load(str(PAPER / "smokers.mln"), grammar="StandardGrammar")
    theory = mln.to_possibilistic(k=2, domains={"person": ["Ann", "Bob", "Cy"]}, filter="aggressive")
    assert isinstance(theory, LiftedTheory) and theory.types == (("person", ("Ann", "Bob", "Cy")),)
    # ground evidence and queries against the first-order theory
    assert possibilistic_inference(theory).entails(["s(Ann)", "f(Ann,Bob)"], "s(Bob)")
    assert not possibilistic_inference(theory).entails(["s(Ann)", "f(Ann,Bob)", "!c(Bob)"], "s(Bob)")
    assert len(theory.ground()) >= len(theory)


def test_to_possibilistic_names_the_line_of_a_bad_db_file(pracmln, tmp_path, capfd):
    """A ``.db`` file pracmln cannot parse, given by name to ``MLN.to_possibilistic``: our
    error with its file, line and text, and nothing printed (pracmln printed a traceback
    and failed on its own message: ``AttributeError: ... no attribute 'message'``)."""
    from pracmln_poss.bridge.plugin import install

    install()
    mln = pracmln.MLN.load(str(PAPER / "smokers.mln"), grammar="StandardGrammar")
    (tmp_path / "garbage.db").write_text("garbage (((\n")
    capfd.readouterr()
    with pytest.raises(FormulaSyntaxError, match=r"garbage\.db:1: garbage \(\(\(: expected a ground literal"):
        mln.to_possibilistic(str(tmp_path / "garbage.db"), k=1)
    assert capfd.readouterr() == ("", "")


_CONSTANTS = ["A", "B", "Cc", "D1"]


@st.composite
def _model_texts(draw):
    """Random model files in both grammars: domains declared or not, functional
    arguments, constants named in formulas, numeric and expression weights, hard
    formulas, comments and blank lines."""
    prac = draw(st.booleans())
    var = (lambda name: "?" + name) if prac else (lambda name: name)
    const = (lambda name: name.lower() + "k") if prac else (lambda name: name)
    lines = []
    domains = draw(st.lists(st.sampled_from(["t", "u", "w"]), min_size=1, max_size=3, unique=True))
    for d in domains:
        if draw(st.booleans()):
            lines.append(f"{d} = {{{', '.join(const(c) for c in draw(st.lists(st.sampled_from(_CONSTANTS), min_size=1, unique=True)))}}}")
    preds = {}
    for name in draw(st.lists(st.sampled_from(["p", "q", "rel", "Zed"]), min_size=1, max_size=4, unique=True)):
        args = draw(st.lists(st.sampled_from(domains), min_size=1, max_size=2))
        mark = draw(st.sampled_from(["", "", "!", "?"])) if len(args) == 2 else ""
        preds[name] = args
        lines.append(f"{name}({', '.join(args[:-1] + [args[-1] + mark])})")
        if draw(st.booleans()):
            lines.append("// a comment")
    names = sorted(preds)
    for _ in range(draw(st.integers(0, 5))):
        atoms = []
        for _ in range(draw(st.integers(1, 3))):
            p = draw(st.sampled_from(names))
            args = [var(f"x{preds[p].index(d)}{d}") if draw(st.booleans()) else const(draw(st.sampled_from(_CONSTANTS)))
                    for d in preds[p]]
            atoms.append(("!" if draw(st.booleans()) else "") + f"{p}({','.join(args)})")
        op = draw(st.sampled_from([" ^ ", " v ", " => "]))
        body = op.join(atoms) if op != " => " or len(atoms) < 2 else f"{atoms[0]} => ({' ^ '.join(atoms[1:])})"
        weight = draw(st.sampled_from(["1.5", "-0.25", "2", "log(0.9/0.1)", "logx(0.2)", ".", "0", "1e-3"]))
        lines.append(f"{body}." if weight == "." else f"{weight} {body}")
        if draw(st.booleans()):
            lines.append("")
    return "\n".join(lines) + "\n", "PRACGrammar" if prac else "StandardGrammar"


@settings(max_examples=examples(60))
@given(_model_texts())
def test_native_reader_agrees_with_pracmln_on_random_models(pracmln, tmp_path_factory, case):
    text, grammar = case
    path = tmp_path_factory.mktemp("models") / "m.mln"
    path.write_text(text)
    try:
        reference = load_model(path, grammar=grammar, reader="pracmln").model
    except PossError:
        reference = None
    event("pracmln reads it" if reference is not None else "pracmln refuses it")
    if reference is None:
        with pytest.raises(PossError):
            load_model(path, grammar=grammar)
        return
    native = load_model(path, grammar=grammar)
    assert native.mln is None, "the native reader should have read this model"
    assert _without_texts(native.model) == _without_texts(reference)


def test_a_project_gives_model_database_grammar_and_queries(tmp_path):
    project = smokers_project(tmp_path)
    loaded = load_model(project)
    plain = load_model(SMOKERS / "mlns" / "smoking.mln", SMOKERS / "dbs" / "smoking-test-smaller.db")
    def content(m):
        return (m.domains, [(p.name, p.domains, p.functional, p.soft_functional) for p in m.predicates],
                [(f.formula, f.weight) for f in m.formulas])

    assert content(loaded.model) == content(plain.model)
    assert [(e.pred, e.args, e.value) for e in loaded.model.evidence] == [
        (e.pred, e.args, e.value) for e in plain.model.evidence]
    assert loaded.settings.queries == ("Smokes", "Cancer")
    assert loaded.model.formulas[0].position.file == f"{project}:mlns/smoking.mln"
    # a file in the project, and a database from it
    other = load_model(f"{project}:learnt.bpll.smoking-train-smoking.mln", f"{project}:dbs/smoking-test.db")
    assert other.model.source == f"{project}:mlns/learnt.bpll.smoking-train-smoking.mln"
    assert any(e.position.file == f"{project}:dbs/smoking-test.db" for e in other.model.evidence)


@pytest.mark.parametrize("bad, match", [
    (":nosuch.mln", "no mln file 'nosuch.mln'; it has: learnt"),
    ("-missing", "no such project file"),
])
def test_bad_project_references_name_what_is_missing(tmp_path, bad, match):
    project = smokers_project(tmp_path)
    ref = f"{project}{bad}" if bad.startswith(":") else str(project).replace(".pracmln", bad + ".pracmln")
    with pytest.raises(ModelError, match=match):
        load_model(ref)


def test_project_without_query_conf_needs_a_named_model(tmp_path):
    project = smokers_project(tmp_path, conf=False)
    with pytest.raises(ModelError, match="names no model"):
        load_model(project)
    assert load_model(f"{project}:smoking.mln").settings.queries is None


def test_not_a_zip_is_a_clear_error(tmp_path):
    path = tmp_path / "broken.pracmln"
    path.write_text("not a zip")
    with pytest.raises(ModelError, match="zip archive"):
        load_model(path)


def test_domain_sizes_give_fresh_constants(tmp_path):
    model = load_model(SMOKERS / "mlns" / "smoking.mln", domain_sizes={"person": 3}).model
    assert model.domain_map["person"] == ("Person1", "Person2", "Person3")
    with pytest.raises(ModelError, match="'persn' is not a domain of the model; its domains: person"):
        load_model(SMOKERS / "mlns" / "smoking.mln", domain_sizes={"persn": 2})
    with pytest.raises(ModelError, match="not a valid constant"):
        load_model(SMOKERS / "mlns" / "smoking.mln", domains={"person": ["b c"]})


def test_fresh_constants_avoid_names_in_use():
    from pracmln_poss.bridge.loader import fresh_constants

    assert fresh_constants("person", 2, {"thing": ["Person1"]}) == ["Person_1", "Person_2"]
    assert fresh_constants("person", 2, {"person": ["Person1"]}) == ["Person1", "Person2"]


def test_a_database_declaring_an_unknown_domain_is_an_error(tmp_path):
    db = tmp_path / "d.db"
    db.write_text("persn = {X, Y}\n")
    with pytest.raises(ModelError, match=r"d.db:1.*'persn' is not a domain of the model"):
        load_model(SMOKERS / "mlns" / "smoking.mln", db)


@pytest.mark.alone
@pytest.mark.slow
def test_an_interrupt_while_pracmln_imports_wins(pracmln):
    """pracmln's import swallows KeyboardInterrupt in bare excepts; ours raises it after."""
    code = textwrap.dedent("""
        import importlib, os, signal, time
        import pracmln_poss
        from pracmln_poss import compat

        real = importlib.import_module

        def pracmln_like(name):
            # what pracmln's import does: Ctrl-C arrives inside a bare except
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.5)
            except:  # noqa: E722
                pass
            return real(name)

        importlib.import_module = pracmln_like
        try:
            compat.import_pracmln()
        except KeyboardInterrupt:
            print("interrupted")
        else:
            print("finished")
    """)
    out = run_python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "interrupted"


@settings(max_examples=examples(60), deadline=None)
@given(st.binary(min_size=1, max_size=4), st.integers(0, 10_000), st.booleans())
def test_any_bytes_in_a_model_or_database_give_a_clear_error(pracmln, tmp_path_factory, junk, where, bom):
    """Non-UTF-8 bytes anywhere in a model or database: a PossError naming the file (and
    the line), never a UnicodeDecodeError; a UTF-8 byte-order mark is accepted."""
    folder = tmp_path_factory.mktemp("bytes")
    model = (SMOKERS / "mlns" / "smoking.mln").read_bytes()
    db = (SMOKERS / "dbs" / "smoking-test-smaller.db").read_bytes()
    prefix = b"\xef\xbb\xbf" if bom else b""
    for name, data in (("m.mln", model), ("d.db", db)):
        at = where % (len(data) + 1)
        damaged = prefix + data[:at] + junk + data[at:]
        (folder / name).write_bytes(damaged)
        other = folder / ("d.db" if name == "m.mln" else "m.mln")
        other.write_bytes(prefix + (db if name == "m.mln" else model))
        try:
            load_model(folder / "m.mln", folder / "d.db")
        except PossError as exc:
            assert name in str(exc) or "d.db" in str(exc) or "m.mln" in str(exc)


def test_cora_under_pracmlns_default_grammar_has_constants_in_two_domains(pracmln):
    """Regression (a KeyError once): PRACGrammar reads cora's lower-case ``a, b, c`` as
    constants, named in formulas over both domains; the lifted conversion keeps them
    apart and still answers exactly (checked on a sample of questions)."""
    import pracmln_poss  # noqa: F401  (the plugin)
    from pracmln_poss.bridge.loader import from_pracmln
    from pracmln_poss.errors import PossWarning
    from pracmln_poss.insight.verify import verify
    from pracmln_poss.model.grounding import ground

    mln = pracmln.MLN.load(str(PAPER / "cora.mln"))
    with pytest.warns(PossWarning, match="constants a, b, c, d that nothing else does"):  # (and said so)
        model = from_pracmln(mln)
    seen = [c for _, cs in model.domains for c in set(cs)]
    assert {c for c in seen if seen.count(c) > 1} == {"a", "b", "c"}  # each in two domains
    with pytest.warns(PossWarning, match="read in PRACGrammar"):
        theory = mln.to_possibilistic(k=1)
    report = verify(theory.ground(), ground(model), 1, sample=200)
    assert report.ok and report.pairs_checked == 200


@pytest.mark.parametrize("reader", ["native", "pracmln"])
def test_a_project_model_includes_members_of_its_own_project(tmp_path, reader, pracmln):
    """``#include`` inside a project names a member of that project (read from the
    archive, nothing from the host), with the included lines' positions in messages."""
    import zipfile

    model = (SMOKERS / "mlns" / "smoking.mln").read_text()
    declarations = "\n".join(line for line in model.splitlines() if "(" in line and not line[:1].isdigit()
                             and not line.startswith("//") and "=>" not in line and "<=>" not in line)
    rest = "\n".join(line for line in model.splitlines() if line not in declarations.splitlines())
    path = tmp_path / "inc.pracmln"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mlns/declarations.mln", declarations + "\n")
        z.writestr("mlns/main.mln", '// the declarations are in their own file\n#include "declarations.mln"\n' + rest)
        z.writestr("mlns/broken.mln", '#include <declarations.mln>\n2 Smokes(x) =>\n')
        z.writestr("query.conf", '{"mln": "main.mln"}')
    loaded = load_model(path, reader=reader)
    plain = load_model(SMOKERS / "mlns" / "smoking.mln", reader=reader)
    assert [(f.formula, f.weight) for f in loaded.model.formulas] == [(f.formula, f.weight)
                                                                     for f in plain.model.formulas]
    assert [(p.name, p.domains) for p in loaded.model.predicates] == [(p.name, p.domains)
                                                                      for p in plain.model.predicates]
    formula_lines = {f.position.file for f in loaded.model.formulas}
    assert formula_lines == {f"{path}:mlns/main.mln"}
    with pytest.raises(PossError, match=r"inc\.pracmln:mlns/broken\.mln:2: 2 Smokes\(x\) =>"):
        load_model(f"{path}:broken.mln", reader="pracmln")
    (tmp_path / "outside.mln").write_text(declarations)
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("mlns/escape.mln", f'#include "{tmp_path / "outside.mln"}"\n' + rest)
        z.writestr("mlns/cycle.mln", '#include "cycle.mln"\n')
    with pytest.raises(ModelError, match="names a file outside this project"):
        load_model(f"{path}:escape.mln", reader=reader)
    with pytest.raises(ModelError, match="makes a cycle"):
        load_model(f"{path}:cycle.mln", reader=reader)


def test_variables_read_as_constants_in_the_prac_grammar_are_said_in_one_warning(pracmln, tmp_path):
    """pracmln's ``MLN.load`` reads in PRACGrammar unless told: ``x`` in ``Smokes(x)`` is
    then a constant, and the conversion is over it (a theory unlike the command line's)."""
    import warnings

    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.errors import PossWarning

    model = tmp_path / "m.mln"
    model.write_text("person = {Anna, Bob}\nSmokes(person)\nCancer(person)\n1 Smokes(x) => Cancer(x)\n")
    with pytest.warns(PossWarning, match=r"read in PRACGrammar.* constants x that nothing else does"):
        load_model(model, grammar="PRACGrammar")
    with pytest.warns(PossWarning, match="read in PRACGrammar"):
        pracmln.MLN.load(files=str(model)).to_possibilistic(k=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PossWarning)
        load_model(model)  # (the standard grammar: x is a variable)
        model.write_text("person = {Anna, Bob}\nSmokes(person)\nCancer(person)\n1 Smokes(?x) => Cancer(?x)\n")
        load_model(model, grammar="PRACGrammar")
