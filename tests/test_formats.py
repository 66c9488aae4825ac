"""Theory file formats: round trips, determinism, errors with positions, atomic writes."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pracmln_poss.errors import FormulaSyntaxError, PossError, WeightError
from pracmln_poss.formats import dumps, load_theory, loads, save
from pracmln_poss.formats.sections import by_level
from pracmln_poss.possibilistic import PossibilisticTheory
from pracmln_poss.weights import INF

from .strategies import theories
from .support import PAPER, examples


def grouped(theory):
    return tuple(pf for _level, group in by_level(theory) for pf in group)


@pytest.mark.slow
@settings(max_examples=examples(200))
@given(theories())
def test_text_and_json_round_trip_exactly(theory):
    for fmt in ("text", "json"):
        text = dumps(theory, fmt)
        back = loads(text)
        assert back.atoms == theory.atoms
        assert back.resolution == theory.resolution
        assert back.formulas == grouped(theory)
        assert dumps(back, fmt) == text  # deterministic, byte for byte


def test_levels_in_user_units_and_origins():
    theory = PossibilisticTheory.from_pairs(
        [("bird(T) => flies(T)", 0.5), ("penguin(T) => bird(T)", None), ("!flies(T)", 12.25)]
    )
    theory = theory.with_formulas(
        [dataclasses.replace(theory.formulas[0], origin="{bird(T)}")]
        + list(theory.formulas[1:])
    )
    text = dumps(theory, "text")
    assert text.splitlines()[1:] == [
        "#resolution 0.000001",
        "#atoms bird(T) flies(T) penguin(T)",
        "",
        "// level lambda_0.5",
        "0.5  bird(T) => flies(T)  // from: {bird(T)}",
        "",
        "// level lambda_12.25",
        "12.25  !flies(T)",
        "",
        "// certain (inf)",
        "inf  penguin(T) => bird(T)",
    ]
    data = json.loads(dumps(theory, "json"))
    assert data["levels"] == [0.5, 12.25, "inf"]
    assert data["formulas"][0] == {"formula": "bird(T) => flies(T)", "level": 0.5, "origin": "{bird(T)}"}
    assert loads(dumps(theory, "json")).formulas[0].origin == "{bird(T)}"


def test_hand_written_text_with_comments():
    theory = loads(
        """
        /* the penguin example */
        inf penguin(T) => bird(T)   // a comment
        0.5 bird(T) => flies(T)
        """
    )
    assert theory.levels() == (0.5, INF) and theory.level_steps() == (500_000, INF)
    assert theory.atoms == ("penguin(T)", "bird(T)", "flies(T)")


@pytest.mark.parametrize(
    "text, line, error",
    [
        ("0 a\nzero b\n", 2, WeightError),
        ("0 a\n1 a ^\n", 2, FormulaSyntaxError),
        ("0 a\n\n2\n", 3, FormulaSyntaxError),
        ("#colour red\n", 1, FormulaSyntaxError),
        ("0 a\n#resolution 0.1\n", 2, FormulaSyntaxError),
    ],
)
def test_malformed_text_names_line(text, line, error, tmp_path):
    path = tmp_path / "t.theory"
    path.write_text(text)
    with pytest.raises(error) as info:
        load_theory(path)
    assert f"t.theory:{line}" in str(info.value)


@pytest.mark.parametrize(
    "text, where",
    [
        ('{"formulas": [}', ":1"),
        ('{"formulas": [{"formula": "a"}]}', "formulas[0]"),
        ('{"formulas": [{"formula": "a ^", "level": 1}]}', "formulas[0]"),
        ('{"formulas": [{"formula": "a", "level": "high"}]}', "formulas[0]"),
        ('{"format": "other", "formulas": []}', "unsupported format"),
    ],
)
def test_malformed_json_names_place(text, where, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(text)
    with pytest.raises(PossError) as info:
        load_theory(path)
    assert where in str(info.value) and "t.json" in str(info.value)


def test_latex_listing_in_the_style_of_the_paper():
    theory = PossibilisticTheory.from_pairs([("!antarctic(X) v !flies(X)", 0), ("!f(A,A)", None)])
    assert dumps(theory, "latex") == (
        "\\begin{align*}\n"
        "% level lambda_0\n"
        "&(\\neg \\textit{antarctic}(\\textit{X}) \\vee \\neg \\textit{flies}(\\textit{X}), \\lambda_{0}) \\\\\n"
        "% level certain (inf)\n"
        "&(\\neg \\textit{f}(\\textit{A}, \\textit{A}), 1)\n"
        "\\end{align*}\n"
    )


def test_save_is_atomic(tmp_path, monkeypatch):
    theory = PossibilisticTheory.from_pairs([("a", 1)])
    target = tmp_path / "out.theory"
    save(theory, target)
    assert load_theory(target).formulas == theory.formulas
    # an interrupt after writing, before the rename, leaves no file and no temporary behind
    import pracmln_poss.formats.output as output

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(output.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        output.save(theory, tmp_path / "new.theory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.theory"]


@settings(max_examples=examples(80))
@given(theories(), st.data())
def test_a_theory_file_cut_short_is_refused_not_misread(theory, data):
    """Any cut of a theory file at a line boundary that loses a formula is an error (the
    header announces the counts); the text of the theory is never silently changed."""
    text = dumps(theory, "text")
    lines = text.splitlines(keepends=True)
    cut = data.draw(st.integers(1, len(lines)))
    truncated = "".join(lines[:cut])
    try:
        back = loads(truncated, "text")
    except PossError:
        return
    assert dumps(back, "text") == text


@settings(max_examples=examples(40))
@given(theories(), st.data())
def test_a_json_theory_missing_a_formula_is_refused(theory, data):
    doc = json.loads(dumps(theory, "json"))
    if not doc["formulas"]:
        return
    del doc["formulas"][data.draw(st.integers(0, len(doc["formulas"]) - 1))]
    text = json.dumps(doc)
    levels = {f["level"] for f in doc["formulas"]}
    if len(levels) == len(doc["levels"]):
        return  # every level still present: the file is consistent, and reads as written
    with pytest.raises(FormulaSyntaxError, match="'levels' list"):
        loads(text, "json")


def test_names_outside_the_atoms_are_errors_not_new_atoms():
    from pracmln_poss.errors import UnknownNameError

    text = "#atoms bird(T) flies(T)\ninf  bird(x) => flies(x)\n"
    with pytest.raises(UnknownNameError, match=r"<input>:2.*bird\(x\) is not an atom of the theory"):
        loads(text, "text")
    # without an #atoms line (hand-written), names are the atoms
    assert loads("inf  bird(x) => flies(x)\n", "text").atoms == ("bird(x)", "flies(x)")


def test_a_lifted_theory_without_its_type_line_is_an_error(pracmln):
    from pracmln_poss.bridge.loader import load_model
    from pracmln_poss.transformations import transform_mln

    theory = transform_mln(load_model(PAPER / "smokers.mln").model, "lifted", k=2)
    text = dumps(theory, "text")
    assert "#type person p = " in text
    damaged = "".join(l for l in text.splitlines(keepends=True) if not l.startswith("#type"))
    with pytest.raises(PossError, match="nor a variable of a #type"):  # (its header says lifted)
        loads(damaged, "text")
    headless = "".join(damaged.splitlines(keepends=True)[1:])  # (its #domain lines say lifted)
    with pytest.raises(PossError, match="nor a variable of a #type"):
        loads(headless, "text")


def test_output_paths(tmp_path):
    """-o through a symlink writes its target; directories, FIFOs and missing or
    unwritable directories are clear errors; modes follow the umask or are kept."""
    import os
    import stat

    from pracmln_poss.errors import OutputError
    from pracmln_poss.formats import atomic_write

    real = tmp_path / "real.theory"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.theory"
    link.symlink_to(real)
    atomic_write(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    umask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "fresh.theory", "x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "fresh.theory").stat().st_mode) == 0o644
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        atomic_write(fifo, "x")
    with pytest.raises(OutputError, match="is a directory"):
        atomic_write(tmp_path, "x")
    with pytest.raises(OutputError, match="no such directory"):
        atomic_write(tmp_path / "missing" / "out.theory", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "fresh.theory", "link.theory", "real.theory"]


def test_a_theory_keeps_how_it_was_made_through_its_files():
    """``made_by`` is written under the header (text), as a key (JSON), as a comment
    (LaTeX); read back it is the theory's own, written again as it was, and compared as
    nothing (two theories differing only in it are equal); a JSON ``made_by`` that is not
    a text is refused."""
    from pracmln_poss.errors import FormulaSyntaxError
    from pracmln_poss.formats import dumps, loads
    from pracmln_poss.possibilistic import PossibilisticTheory

    theory = PossibilisticTheory.from_pairs([("bird(T) => flies(T)", 0.5), ("penguin(T) => !flies(T)", "inf")])
    assert theory.made_by is None and "made by" not in dumps(theory)
    said = "pracmln-poss convert birds.mln --method defaults -k 1 --filter none (the world left open)"
    for fmt in ("text", "json"):
        written = dumps(theory, fmt, made_by=said + "\n  ")  # (one line, whatever it is given)
        back = loads(written, ground=False)
        assert back.made_by == said and back == theory and dumps(back, fmt) == written
        assert dumps(back.with_formulas(back.formulas[:1]), fmt).count(said) == 1
    assert dumps(theory, "text", made_by=said).splitlines()[1] == f"// made by: {said}"
    assert dumps(theory, "latex", made_by=said).startswith(f"% made by: {said}\n\\begin{{align*}}")
    hand = "// made by: a comment of my own\n0.5  bird(T) => flies(T)\n"  # (not under a header: a comment)
    assert loads(hand).made_by is None
    with pytest.raises(FormulaSyntaxError, match="'made_by' is not a text"):
        loads('{"format": "pracmln_poss-theory", "version": 1, "made_by": 3, "formulas": []}')


_NAME = st.text(st.characters(blacklist_characters='"\n\r', blacklist_categories=("Cs",)), min_size=1, max_size=6)
"""A constant as a quoted name may hold it: any character but its quote and a line ending
(surrogates are no text: UTF-8 cannot hold them)."""


@pytest.mark.slow
@settings(max_examples=examples(300))
@given(constants=st.lists(_NAME, min_size=1, max_size=3, unique=True),
       origin=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12))
def test_any_constant_and_any_origin_is_read_back_from_text_and_json(constants, origin):
    """Any Unicode and any control character in a quoted constant (``\\x0b``, ``\\x85``,
    U+2028: lines end at ``\\n`` only), and any text where a formula came from (a path
    with a newline: written ``\\n``, one line) come back from the text format; JSON
    keeps the origin as it was."""
    from pracmln_poss.logic.formula import Atom, Not, Or
    from pracmln_poss.possibilistic import PossibilisticFormula

    atoms = (*(f'p("{c}")' for c in constants), "q")
    formulas = (PossibilisticFormula(Or((Atom(1), Not(Atom(len(atoms))))), 1, origin=origin),
                PossibilisticFormula(Atom(1), INF))
    theory = PossibilisticTheory(atoms, formulas)
    for fmt in ("text", "json"):
        text = dumps(theory, fmt)
        back = loads(text)
        assert back.atoms == atoms
        shown = origin.replace("\r", "\\r").replace("\n", "\\n").strip() if fmt == "text" else origin
        assert [pf.origin for pf in back.formulas if pf.level != INF] == [shown or None]
        assert dumps(back, fmt) == text


def test_a_name_with_a_line_break_is_refused_by_the_text_format_not_written_broken(tmp_path):
    from pracmln_poss.errors import OutputError
    from pracmln_poss.logic.formula import Atom
    from pracmln_poss.possibilistic import PossibilisticFormula

    theory = PossibilisticTheory(('p("A\nB")',), (PossibilisticFormula(Atom(1), 1),))
    with pytest.raises(OutputError, match="holds a line break, which a text theory cannot hold: write JSON"):
        dumps(theory, "text")
    assert loads(dumps(theory, "json")).atoms == theory.atoms


def test_a_lifted_theory_of_constants_holding_line_breaks_splitlines_knows_reads_back(pracmln, tmp_path):
    """The review's constants (``\\x0b \\x0c \\x1c \\x85`` U+2028 U+2029) and a model
    path holding a newline: ``convert`` writes a theory ``show`` and ``query`` read (they
    said "level 'd")' is not a number"), and its hard rule's origin stays on its line."""
    from .support import run_cli

    odd = ["A\x0bB", "C\x0cD", "E\x1cF", "G\x85H", "I\u2028J", "K\u2029L"]
    folder = tmp_path / "we\nird"
    folder.mkdir()
    model = folder / "m.mln"
    constants = ", ".join(f'"{c}"' for c in odd)
    model.write_text(f"person = {{{constants}, Bob}}\np(person)\nq(person)\n1 p(x) => q(x)\np(Bob).\n",
                     encoding="utf-8")
    theory = tmp_path / "m.theory"
    code, _, err = run_cli("convert", model, "-k", "1", "--quiet", "-o", theory)
    assert code == 0, err
    assert "// from: " + str(folder).replace("\n", "\\n") in theory.read_text(encoding="utf-8")
    code, out, err = run_cli("show", theory)
    assert code == 0 and all(c in out for c in odd), err
    code, out, err = run_cli("query", theory, "-e", f'p("{odd[4]}")', "-q", f'q("{odd[4]}")')
    assert code == 0 and "yes" in out.lower(), (out, err)
    latex = tmp_path / "m.tex"
    code, _, err = run_cli("convert", model, "-k", "1", "--quiet", "--format", "latex", "-o", latex)
    assert code == 0, err
    _assert_latex_rows(latex.read_text(encoding="utf-8"))


def _assert_latex_rows(latex: str) -> None:
    """Every line of a LaTeX listing is a comment, the environment's begin or end, or one
    row: nothing a name holds starts a line of its own (``splitlines``: TeX's line ends,
    and every other)."""
    lines = latex.splitlines()
    assert lines == latex.split("\n")[:-1], "a line break other than \\n"
    assert lines.count(r"\begin{align*}") == 1 and lines.count(r"\end{align*}") == 1
    assert all(line.startswith(("%", "&(", r"\begin{align*}", r"\end{align*}")) for line in lines), latex


@settings(max_examples=examples(200))
@given(constants=st.lists(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6),
                          min_size=1, max_size=3, unique=True))
def test_any_constant_keeps_a_latex_listing_one_row_per_formula(constants):
    """Any character in a constant (line breaks, control characters, LaTeX's specials):
    the listing keeps one row per formula, and the constant is text, not commands."""
    from pracmln_poss.logic.formula import Atom, Or
    from pracmln_poss.possibilistic import PossibilisticFormula

    atoms = tuple(f'p("{c}")' for c in constants)
    theory = PossibilisticTheory(atoms, (PossibilisticFormula(Or(tuple(Atom(i + 1) for i in range(len(atoms)))), 1),
                                         PossibilisticFormula(Atom(1), INF)))
    latex = dumps(theory, "latex", made_by="convert\nx.mln\r\n\\input{y}")
    _assert_latex_rows(latex)
    body = "".join(line for line in latex.splitlines() if line.startswith("&("))
    assert "\\input" not in body.replace(r"\textbackslash{}", "")
