"""Every row of docs/bad-inputs.md: the command fails with status 2 and the error shown."""

from __future__ import annotations

import os
import re
import shlex

import pytest

from pracmln_poss.cli import main

from .support import PAPER, ROOT, project_archive, run_cli, table_rows

TABLE = ROOT / "docs" / "bad-inputs.md"
THEORY = "#resolution 0.000001\n#atoms a(T) b(T)\n\n// level lambda_1\n1  a(T) => b(T)\n"

FILES = {
    "syntax.mln": b"obj = {T}\na(obj)\n2 a(o) v\n",
    "undeclared.mln": b"obj = {T}\na(obj)\n2 b(o)\n",
    "weight.mln": b"obj = {T}\na(obj)\nfoo a(o)\n",
    "latin.mln": b"obj = {T}\na(obj)\n2 a(o)\n\xff\xfe\n",
    "unknown.db": b"a(T)\nzz(T)\n",
    "both.db": b"a(T)\n!a(T)\n",
    "later.db": b"a(T)\n---\nb(T)\n---\nzz(T)\n",
    "big.mln": b"d = {A, B, C, D, E, F, G, H, I, J}\np(d)\nr(d, d)\n"
               b"1 p(a) ^ p(b) ^ p(c) ^ p(e) ^ p(f) ^ p(g) ^ p(h) ^ p(i) => r(a, b)\n",
    "many.mln": ("obj = {T}\n" + "".join(f"p{i}(obj)\n" for i in range(17))
                 + "".join(f"{i + 1} p{i}(o)\n" for i in range(17))).encode(),
    "cut.theory": b"// pracmln_poss 0.1.0 possibilistic theory: 3 formulas in 2 levels\n#resolution 0.000001\n"
                  b"#atoms a(T) b(T)\n\n// level lambda_1\n1  a(T)\n",
    "cut2.theory": THEORY.encode(),
    "vars.theory": b"#resolution 0.000001\n#atoms a(T)\n1  a(x) => b(x)\n",
    "m.mln": (PAPER / "example5-defaults.mln").read_bytes(),
    "e.db": b"a(T)\n",
    "x.checkpoint": (PAPER / "example5-defaults.mln").read_bytes(),
    "includes.mln": b'#include "m.mln"\n',
    "includes-dir.mln": b'#include "dir.mln"\n',
    "includes-secret.mln": b'#include "secret.txt"\n',
    "secret.txt": b"sk-SECRET-TOKEN-12345\n",
    "includes-many.mln": b'#include "thousand.mln"\n' * 1000,
    "thousand.mln": b'#include "empty.mln"\n' * 1000,
    "empty.mln": b"",
}


FILES["include.pracmln"] = project_archive({
    "mlns/m.mln": '#include "/etc/hostname"\n' + FILES["m.mln"].decode(),
    "query.conf": '{"mln": "m.mln"}',
})
FILES["sibling.pracmln"] = project_archive({
    "mlns/m.mln": '#include "parts.mln"\n#include "../outside.mln"\n',
    "mlns/parts.mln": FILES["m.mln"].decode(),
    "query.conf": '{"mln": "m.mln"}',
})
FILES["deepconf.pracmln"] = project_archive({"mlns/m.mln": FILES["m.mln"].decode(), "query.conf": "[" * 5000 + "]" * 5000})
FILES["bigconf.pracmln"] = project_archive({"mlns/m.mln": FILES["m.mln"].decode(),
                                     "query.conf": '{"mln": "m.mln"' + " " * (2 * 1024 * 1024) + "}"})
FILES["blank.pracmln"] = project_archive({"mlns/m.mln": FILES["m.mln"].decode() + "\n" * (20 * 1024 * 1024),
                                   "query.conf": '{"mln": "m.mln"}'})
FILES["huge-weight.mln"] = b"obj = {T}\na(obj)\n1e309 a(o)\n"
FILES["long-weight.mln"] = b"obj = {T}\na(obj)\n" + b"9" * 5000 + b" a(o)\n"
FILES["chain.mln"] = ("obj = {T}\na(obj)\n1 " + " => ".join(["a(o)"] * 2000) + "\n").encode()
FILES["exist.mln"] = (b"d = {A, B, C}\nq(d, d)\n1 EXIST y0,y1,y2,y3,y4,y5,y6,y7,y8,y9,y10,y11,y12,y13,y14,y15 "
                      b"(q(y0,y1) ^ q(y2,y3) ^ q(y4,y5) ^ q(y6,y7) ^ q(y8,y9) ^ q(y10,y11) ^ q(y12,y13) ^ q(y14,y15))\n")
FILES["empty-type.theory"] = (b"#resolution 0.000001\n#atoms a(A) a(B)\n#type d x = \n\n// level lambda_1\n"
                              b"1  a(x1)\n")
FILES["wide.theory"] = (b"#resolution 0.000001\n#atoms " + b" ".join(f"r(C{i})".encode() for i in range(100))
                        + b"\n#type d x = " + ", ".join(f"C{i}" for i in range(100)).encode()
                        + b"\n\n// level lambda_1\n1  r(x1) v r(x2) v r(x3) v r(x4)\n")
FILES["deep.json"] = b'{"formulas": ' + b"[" * 5000 + b"]" * 5000 + b"}"
FILES["null-atoms.json"] = b'{"atoms": null, "formulas": []}'
FILES["big-level.json"] = b'{"atoms": ["a"], "formulas": [{"formula": "a", "level": 1' + b"0" * 400 + b"}]}"
FILES["empty-domain.mln"] = b"o = {}\na(o)\n1 a(o)\n"
FILES["brace.mln"] = b'n = {"a}b", Bob, Carl}\np(n)\n1 p(x)\n'
FILES["variable.db"] = b"a(x)\n"
FILES["complex-weight.mln"] = b"obj = {T}\na(obj)\n(-8)**0.5 a(o)\n"
FILES["negative.theory"] = b"#resolution 0.000001\n#atoms a\n-5  a\n"
FILES["negative.json"] = b'{"atoms": ["a"], "formulas": [{"formula": "a", "level": -5}]}'
FILES["includes-zero.mln"] = b'#include "zero.mln"\n' + FILES["m.mln"]
FILES["angled.mln"] = b"#include <m.mln>\n"
FILES["two.db"] = b"s(Alice)\n---\ns(Bob)\n"
FILES["deep.questions"] = b'{"query": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
FILES["long.questions"] = b"x" * 200_000 + b"\n"
LINKS = {"link.theory": "m.mln", "zero.pracmln": "/dev/zero", "zero.mln": "/dev/zero"}
DIRECTORIES = ["d.theory.checkpoint", "adir", "dir.mln"]
FIFOS = ["fifo.mln", "fifo.pracmln", "fifo.theory"]


def rows() -> list[tuple[str, str]]:
    """(command, error excerpt) of every row of the table."""
    return [(cells[1].strip("`"), cells[2].split("`")[1]) for cells in table_rows(TABLE.read_text())
            if len(cells) == 3 and cells[1].startswith("`") and cells[2].startswith("`")]


@pytest.fixture
def workdir(tmp_path, monkeypatch, capsys):
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    for name, target in LINKS.items():
        (tmp_path / name).symlink_to(tmp_path / target)
    for name in DIRECTORIES:
        (tmp_path / name).mkdir()
    for name in FIFOS:
        os.mkfifo(tmp_path / name)
    monkeypatch.chdir(tmp_path)
    assert main(["convert", str(PAPER / "smokers.mln"), "--domain", "person=Alice,Bob", "-k", "1",
                 "-o", "smokers-ab.theory"]) == 0
    capsys.readouterr()
    return tmp_path


@pytest.mark.parametrize("command, error", rows(), ids=[c for c, _ in rows()])
def test_bad_input_row(pracmln, workdir, capsys, command, error):
    argv = [{"MODEL": str(PAPER / "example5-defaults.mln"), "SMOKERS": str(PAPER / "smokers.mln"),
             "DEEP": "!" * 1000 + "a(T)"}.get(a, a) for a in shlex.split(command)]
    before = {p.name: p.read_bytes() for p in workdir.iterdir() if p.is_file()}
    code, _, err = run_cli(*argv)
    assert code == 2, err
    assert error in err, err
    assert "Traceback" not in err and "SECRET" not in err  # (no line of secret.txt quoted)
    assert "usage:" in err or len(err.strip().splitlines()) == 1  # one line, or argparse's usage
    assert {p.name: p.read_bytes() for p in workdir.iterdir() if p.is_file()} == before  # nothing written or replaced


def test_the_table_has_its_rows():
    assert len(rows()) >= 25 and all(re.match(r"(map|convert|query|verify|show|explain) ", c) for c, _ in rows())


def test_an_error_placed_again_keeps_its_class_and_what_it_carries():
    """A caller that knows the place re-raises the error there (``PossError.at``),
    whatever its subclass's constructor takes: a file of several databases carries
    them (re-made from its message and place, it raised an AttributeError)."""
    from pracmln_poss.bridge.database import DatabaseParts, SeveralDatabasesError
    from pracmln_poss.errors import SourcePosition

    parts = [DatabaseParts((), (), SourcePosition("two.db", 1), SourcePosition("two.db", 2, "---"))] * 2
    error = SeveralDatabasesError(parts, sources=None)
    placed = error.at(SourcePosition("s.theory"), "it says so")
    assert type(placed) is SeveralDatabasesError and placed.databases is parts
    assert str(placed) == "s.theory: it says so" and placed.message == "it says so"
    assert str(error).startswith("two.db:2: ---: the file holds several databases")  # (the original as it was)


@pytest.mark.parametrize("name", ["deep.questions", "long.questions"])
def test_a_questions_line_of_any_length_gets_a_short_error(pracmln, workdir, name):
    """The line is quoted cut short, once (its whole 200,000 characters were quoted
    twice: 200,310 bytes of error)."""
    code, _, err = run_cli("query", "smokers-ab.theory", "--questions", name)
    assert code == 2 and len(err) < 1_000 and "200,0" in err, err


@pytest.mark.parametrize("parser", ["pracmln", "ours"])
def test_a_formula_too_long_is_refused_before_it_is_parsed(tmp_path, parser, monkeypatch, request):
    """A formula of more than ``MAX_FORMULA_LENGTH`` characters is refused in one short
    line naming its file and line, before a parser reads it (one of 40 MB took 92 s and
    3.9 GB before "out of memory"), by pracmln's parser as by ours (the theory reader's)."""
    from pracmln_poss.logic import syntax

    if parser == "pracmln":
        request.getfixturevalue("pracmln")
    formula = " v ".join(f"p(C{i})" for i in range(syntax.MAX_FORMULA_LENGTH // 8 + 1))
    assert len(formula) > syntax.MAX_FORMULA_LENGTH
    if parser == "pracmln":
        model = tmp_path / "long.mln"
        model.write_text(f"p(person)\nperson = {{A}}\n1.0 {formula}\n")
        code, out, err = run_cli("map", model)
        assert (code, out) == (2, ""), err
        assert re.match(r"^pracmln-poss: error: .*long\.mln:3: 1\.0 p\(C0\) v .*a formula of [\d,]+ characters, "
                        r"more than 1,000,000 \(split it into several formulas\)\n$", err), err
        assert len(err) < 1_000
    else:
        with pytest.raises(syntax.FormulaSyntaxError, match="more than 1,000,000") as caught:
            syntax.parse_formula(formula)
        assert len(str(caught.value)) < 1_000
