"""What the output says is what was read, and no input is ever lost (the second round of
hostile and careless inputs: each test fails on the code before it)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pracmln_poss import GroundMLN, PossibilisticTheory, Reasoner, map_inference
from pracmln_poss.errors import ArgumentTypeError, ClosedError, ModelError, OutputError, WeightError
from pracmln_poss.formats import atomic_write, check_writable, loads

from .support import PAPER, ROOT, examples, project_archive, run_cli

MODEL = "o = {T}\na(o)\nb(o)\n2 a(o)\n1 a(x) => b(x)\n"
PROG = [sys.executable, "-m", "pracmln_poss"]


def _cli(*argv: object, cwd: Path, limit: tuple[int, int] | None = None, **kwargs: object
         ) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own (``limit``: a resource limit to set)."""
    def prepare() -> None:
        if limit is not None:
            resource.setrlimit(limit[0], (limit[1], limit[1]))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if "stdout" not in kwargs:
        kwargs["capture_output"] = True
    return subprocess.run([*PROG, *map(str, argv)], cwd=cwd, text=True, timeout=120, preexec_fn=prepare, env=env,
                          **kwargs)  # type: ignore[call-overload]


# -- an input lost ---------------------------------------------------------------------

@pytest.mark.alone
def test_a_link_made_at_the_output_while_the_command_runs_is_not_written_through(tmp_path):
    model = tmp_path / "m.mln"
    model.write_text(MODEL)
    out = tmp_path / "out.theory"
    destination = check_writable(out, {"the model": model})
    out.symlink_to(model)  # (made "two seconds in")
    with pytest.raises(OutputError, match="became a link to .*m.mln while the command ran"):
        atomic_write(destination, "THEORY")
    assert model.read_text() == MODEL
    out.unlink()
    os.link(model, out)  # a hard link: the same file by device and inode
    with pytest.raises(OutputError, match="is now the model of this command"):
        atomic_write(destination, "THEORY")
    assert model.read_text() == MODEL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.mln", "out.theory"]  # no temporary left


def test_a_link_there_from_the_start_is_still_written_through(tmp_path):
    target = tmp_path / "target.theory"
    target.write_text("old")
    (tmp_path / "out.theory").symlink_to(target)
    atomic_write(check_writable(tmp_path / "out.theory", {}), "new")
    assert target.read_text() == "new"


# -- exit 0 with a wrong or unreadable result --------------------------------------------

def test_a_file_with_carriage_returns_only_reads_as_its_lines(tmp_path):
    (tmp_path / "cr.mln").write_bytes(MODEL.replace("\n", "\r").encode())
    code, out, err = run_cli("map", tmp_path / "cr.mln")
    assert code == 0, err
    assert "a(T)  true" in out and "b(T)  true" in out


def test_a_project_member_with_a_byte_order_mark_and_windows_lines_is_read(tmp_path):
    archive = tmp_path / "bom.pracmln"
    archive.write_bytes(project_archive({"mlns/m.mln": b"\xef\xbb\xbf" + MODEL.replace("\n", "\r\n").encode(),
                                         "query.conf": '{"mln": "m.mln"}'}))
    code, out, err = run_cli("map", archive)
    assert code == 0, err
    assert "a(T)  true" in out


@pytest.mark.parametrize("line, error", [
    ("o = {}", "the domain is declared with no constants"),
    ('o = {"a}b", Bob, Carl}', 'the constant "a}b" holds a comma or a brace'),
    ('o = {"a,b", Bob}', 'the constant "a,b" holds a comma or a brace'),
])
def test_a_domain_pracmln_would_read_otherwise_is_refused(tmp_path, line, error):
    (tmp_path / "m.mln").write_text(line + "\na(o)\n1 a(x)\n")
    code, _, err = run_cli("map", tmp_path / "m.mln")
    assert code == 2 and error in err and "m.mln:1:" in err


@pytest.mark.parametrize("grammar, line", [("StandardGrammar", "a(x)"), ("PRACGrammar", "a(?x)")])
def test_a_variable_in_a_database_is_refused(tmp_path, grammar, line):
    from pracmln_poss.bridge.database import read_database

    (tmp_path / "v.db").write_text(line + "\n")
    with pytest.raises(ModelError, match="is a variable in"):
        read_database(tmp_path / "v.db", grammar)
    (tmp_path / "c.db").write_text('a(X)\na("x")\n' if grammar == "StandardGrammar" else "a(x)\n")
    assert read_database(tmp_path / "c.db", grammar)[1]


def test_a_theory_over_quoted_unicode_and_keyword_names_reads_back(tmp_path):
    model = tmp_path / "q.mln"
    model.write_text('n = {"Anna Smith", "Bob", Ünïcødé}\np(n)\nEXIST(n)\n1 p(x) => EXIST(x)\n')
    for k in ("1", "2"):
        assert run_cli("convert", model, "-k", k, "-o", tmp_path / f"q{k}.theory")[0] == 0
        for constant in ('"Bob"', '"Anna Smith"', "Ünïcødé"):
            code, out, err = run_cli("query", tmp_path / f"q{k}.theory", "-e", f"p({constant})",
                                     "-q", f"EXIST({constant})")
            assert code == 0 and "entailed: yes" in out, (k, constant, err)
        code, out, err = run_cli("explain", tmp_path / f"q{k}.theory", "-e", "p(Ünïcødé)", "-q", "EXIST(Ünïcødé)")
        assert code == 0 and "entailed: yes" in out, err
    code, out, err = run_cli("map", model, "-e", 'p("Anna Smith")')
    assert code == 0 and 'EXIST("Anna Smith")  true' in out, err


@pytest.mark.parametrize("constant", ['"A /* x */ B"', '"a // b"', '"x*/y"'])
def test_a_quoted_constant_holding_comment_marks_is_kept(tmp_path, constant):
    """``//`` and ``/* */`` inside quotes are a constant's characters, not a comment: the
    model keeps the constant (it used to become ``"A         B"``), and its theory, as
    text, reads back (``loads`` used to refuse ``p("a // b")``)."""
    from pracmln_poss.logic.syntax import strip_comments

    model = tmp_path / "c.mln"
    model.write_text(f"o = {{{constant}, Bob}} // the domain\np(o) /* two\npredicates */\nq(o)\n1 p(x) => q(x)\n")
    assert strip_comments(model.read_text()).splitlines()[0].rstrip() == f"o = {{{constant}, Bob}}"
    out = tmp_path / "c.theory"
    code, _, err = run_cli("convert", model, "-k", "1", "-o", out)
    assert code == 0, err
    assert f"p({constant})" in out.read_text()
    code, text, err = run_cli("query", out, "-e", f"p({constant})", "-q", f"q({constant})")
    assert code == 0 and "entailed: yes" in text, err
    theory = loads(out.read_text())
    assert loads(str(theory)) == theory


def test_a_folder_named_like_a_project_reference_is_a_folder(tmp_path):
    """``a.pracmln:b/m.mln`` names a file when that path exists (a folder ``a.pracmln:b``);
    it used to be read as member ``b/m.mln`` of a project ``a.pracmln``."""
    folder = tmp_path / "a.pracmln:b"
    folder.mkdir()
    (folder / "m.mln").write_text(MODEL)
    code, out, err = run_cli("map", folder / "m.mln")
    assert code == 0 and out.startswith("evidence: none"), err
    code, _, err = run_cli("map", tmp_path / "a.pracmln:b" / "missing.mln")  # (no such path: a reference)
    assert code == 2 and "a.pracmln" in err, err


def test_standard_input_is_read_as_a_model_or_a_database(tmp_path):
    """``cat m.mln | pracmln-poss map -`` (or ``/dev/stdin``, a FIFO that used to be
    refused); ``--db -`` likewise; both at once is refused in one line (it is read once)."""
    (tmp_path / "m.mln").write_text(MODEL)
    for name in ("-", "/dev/stdin"):
        done = _cli("map", name, cwd=tmp_path, input=MODEL)
        assert done.returncode == 0 and done.stdout.startswith("evidence: none"), done.stderr
    done = _cli("convert", "-", "-k", "1", cwd=tmp_path, input=MODEL)
    assert done.returncode == 0 and "a(T)" in done.stdout, done.stderr
    done = _cli("map", "m.mln", "--db", "-", "--json", cwd=tmp_path, input="!a(T)\n")
    assert done.returncode == 0 and json.loads(done.stdout)["world"]["a(T)"] is False, done.stderr
    done = _cli("map", "-", "--db", "-", cwd=tmp_path, input=MODEL)
    assert done.returncode == 2 and "standard input is read once" in done.stderr, done.stderr


def test_a_short_write_to_standard_output_is_an_error(tmp_path):
    (tmp_path / "m.mln").write_text(MODEL)
    with open(tmp_path / "x.theory", "w") as out:
        done = _cli("convert", PAPER / "cora.mln", "-k", "1", cwd=tmp_path, stdout=out, stderr=subprocess.PIPE,
                    limit=(resource.RLIMIT_FSIZE, 10240))
    assert done.returncode == 2, done.stderr
    assert "cannot write to standard output: File too large" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["convert", "map"])
def test_a_full_or_closed_standard_output_is_an_error(tmp_path, command):
    (tmp_path / "m.mln").write_text(MODEL)
    with open("/dev/full", "w") as full:
        done = _cli(command, "m.mln", cwd=tmp_path, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2 and "No space left on device" in done.stderr, done.stderr
    done = _cli(command, "m.mln", cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert done.returncode == 0
    closed = subprocess.run(["sh", "-c", f'exec "$0" -m pracmln_poss {command} m.mln >&-', sys.executable],
                            cwd=tmp_path, stderr=subprocess.PIPE, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert closed.returncode == 2 and "standard output is closed" in closed.stderr, closed.stderr


def test_an_output_name_of_250_characters_is_written_with_its_checkpoint(tmp_path):
    from pracmln_poss.formats import sibling_name

    name = "x" * 250
    code, _, err = run_cli("convert", PAPER / "smokers.mln", "-k", "1", "-o", tmp_path / name)
    assert code == 0, err
    assert (tmp_path / name).read_text().startswith("// pracmln_poss")
    assert len(sibling_name(name, ".checkpoint").encode()) <= 255
    assert sibling_name(name, ".checkpoint") != sibling_name("x" * 249 + "y", ".checkpoint")
    assert sibling_name("out", ".checkpoint") == "out.checkpoint"


@pytest.mark.parametrize("text", [
    "#resolution 0.000001\n#atoms a\n-5  a\n",
    '{"atoms": ["a"], "formulas": [{"formula": "a", "level": -5}]}',
])
def test_a_negative_level_is_refused_in_every_format(text):
    with pytest.raises(WeightError, match="is negative"):
        loads(text)


def test_a_negative_level_is_refused_from_python():
    with pytest.raises(WeightError, match="is negative"):
        PossibilisticTheory.from_pairs([("a", -5)])


@pytest.mark.parametrize("level", [-5, 0.5, True, "1"])
def test_a_formula_made_in_python_with_a_level_outside_the_range_is_refused(level):
    from pracmln_poss import PossibilisticFormula
    from pracmln_poss.errors import ArgumentError
    from pracmln_poss.logic.formula import Atom

    with pytest.raises(ArgumentError, match="steps are an int of 0 or more"):
        PossibilisticFormula(Atom(1), level)


@pytest.mark.parametrize("where", ["a rule's level", "an optimum's cost"])
def test_a_checkpoint_with_a_level_above_every_weight_is_not_resumed(tmp_path, where):
    from pracmln_poss.search.checkpoint import _digest

    out = tmp_path / "m.theory"
    (tmp_path / "m.mln").write_text(MODEL)
    assert run_cli("convert", tmp_path / "m.mln", "-k", "1", "-o", out)[0] == 0
    fresh = out.read_bytes()
    out.unlink()
    saved = tmp_path / "m.theory.checkpoint"
    # a real checkpoint of this conversion, a rule's level made 10^300, digested again
    body = _run_until_checkpoint(tmp_path)
    data = json.loads(body)
    assert data["rules"], "the conversion saved no rules"
    if where == "a rule's level":  # (of the first chunk saved that has rules: they run spread, in any order)
        next(rules for _, (rules, *_) in data["rules"] if rules)[0][3] = 10**300
    else:  # (the first optimum of the last size's first chunk: [cost, world, backbone])
        data["partial"][0][1][0][1][0][0] = 10**300
    text = json.dumps(data, separators=(",", ":"))
    saved.write_text(text + "\n" + _digest(text.encode()) + "\n")
    code, _, err = run_cli("convert", tmp_path / "m.mln", "-k", "1", "-o", out)
    assert code == 0 and "not resuming" in err, err
    assert out.read_bytes() == fresh


def _run_until_checkpoint(tmp_path: Path) -> str:
    """The body of the checkpoint the conversion of ``m.mln`` keeps (written at the end of
    the search however short, removed once the output is written: read here just before)."""
    from pracmln_poss.search import checkpoint

    kept: list[bytes] = []
    original, interval = checkpoint.discard, checkpoint.SAVE_INTERVAL

    def keep(path: str) -> None:
        kept.append(Path(path).read_bytes())
        original(path)

    checkpoint.discard, checkpoint.SAVE_INTERVAL = keep, 0.0
    try:
        assert run_cli("convert", tmp_path / "m.mln", "-k", "1", "-o", tmp_path / "kept.theory")[0] == 0
    finally:
        checkpoint.discard, checkpoint.SAVE_INTERVAL = original, interval
    return kept[-1].rstrip(b"\n").rpartition(b"\n")[0].decode()


def test_a_string_as_evidence_is_a_type_error_not_its_characters():
    mln = GroundMLN.from_pairs([("a => b", 2), ("a", 1)])
    with map_inference(mln) as inference, pytest.raises(ArgumentTypeError, match=r"evidence .* not str 'ab'"):
        inference.penalty("ab")


def test_entails_without_a_query_is_a_type_error_not_no():
    theory = PossibilisticTheory.from_pairs([("bird(T) => flies(T)", 0.5)])
    with Reasoner(theory) as reasoner, pytest.raises(ArgumentTypeError, match="query takes a formula"):
        reasoner.entails(["bird(T)"], None)


def test_a_reasoner_used_after_its_with_block_says_so():
    theory = PossibilisticTheory.from_pairs([("bird(T) => flies(T)", 0.5)])
    with Reasoner(theory) as reasoner:
        assert reasoner.entails(["bird(T)"], "flies(T)")
    with pytest.raises(ClosedError, match="closed"):
        reasoner.entails(["bird(T)"], "flies(T)")


@pytest.mark.parametrize("call", ["possibilistic_inference", "filter_redundant", "dumps", "loads", "ground", "save"])
def test_none_for_a_theory_or_model_is_a_type_error_naming_it(call, tmp_path):
    import pracmln_poss

    args = (None, tmp_path / "x") if call == "save" else (None,)
    with pytest.raises(ArgumentTypeError, match=r"^(theory|text|model) takes"):
        getattr(pracmln_poss, call)(*args)


# -- unbounded -------------------------------------------------------------------------

def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


@pytest.mark.alone
@pytest.mark.parametrize("command", [
    ["map", "fifo.mln"], ["map", "fifo.pracmln"], ["map", "includes-fifo.mln"], ["query", "fifo.theory", "-q", "a"],
    ["map", "zero.pracmln"], ["map", "includes-zero.mln"],
])
def test_a_fifo_or_a_device_is_refused_at_once(tmp_path, command):
    for name in ("fifo.mln", "fifo.pracmln", "fifo.theory", "fifo-part.mln"):
        _fifo(tmp_path / name)
    (tmp_path / "zero.pracmln").symlink_to("/dev/zero")
    (tmp_path / "zero.mln").symlink_to("/dev/zero")
    (tmp_path / "includes-fifo.mln").write_text('#include "fifo-part.mln"\n' + MODEL)
    (tmp_path / "includes-zero.mln").write_text('#include "zero.mln"\n' + MODEL)
    started = time.monotonic()
    done = _cli(*command, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "only a regular file is read" in done.stderr
    assert time.monotonic() - started < 30


def test_an_include_diamond_reads_each_file_once(tmp_path, monkeypatch):
    from pracmln_poss.bridge import project

    members = {"mlns/m.mln": '#include "d0.mln"\n#include "d0.mln"\n' + MODEL}
    for depth in range(11):  # (8,190 #include lines followed: below MAX_INCLUDES)
        members[f"mlns/d{depth}.mln"] = f'#include "d{depth + 1}.mln"\n#include "d{depth + 1}.mln"\n'
    members["mlns/d11.mln"] = "// the bottom\n"
    members["query.conf"] = '{"mln": "m.mln"}'
    (tmp_path / "diamond.pracmln").write_bytes(project_archive(members))
    reads: list[str] = []
    read_member = project.read_member
    monkeypatch.setattr(project, "read_member", lambda p, m, a=None: reads.append(m) or read_member(p, m, a))
    code, out, err = run_cli("map", tmp_path / "diamond.pracmln")
    assert code == 0 and "a(T)  true" in out, err
    assert len(reads) == len(set(reads)) == 13  # (8,190 includes; each member read once)
    members["mlns/d11.mln"] = '#include "d12.mln"\n#include "d12.mln"\n'  # (16,382: refused)
    members["mlns/d12.mln"] = "// the bottom\n"
    (tmp_path / "diamond.pracmln").write_bytes(project_archive(members))
    code, out, err = run_cli("map", tmp_path / "diamond.pracmln")
    assert code == 2 and "follows more than 10,000 #include lines" in err, err


def test_a_plain_model_includes_files_beside_it_wherever_it_is_run_from(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "parts.mln").write_text(MODEL)
    (tmp_path / "sub" / "m.mln").write_text('#include "parts.mln"\n')
    (tmp_path / "parts.mln").write_text("o = {Other}\na(o)\n")  # (what pracmln would read from here)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("map", "sub/m.mln")
    assert code == 0 and "a(T)  true" in out and "Other" not in out, err
    (tmp_path / "sub" / "angled.mln").write_text("#include <parts.mln>\n")
    code, _, err = run_cli("map", "sub/angled.mln")
    assert code == 2 and "sub/angled.mln:1:" in err and "names a file of a project" in err


def test_reading_asks_for_no_more_memory_than_the_file_holds(tmp_path):
    (tmp_path / "m.mln").write_text(MODEL)
    # 200 MB of address space more than the interpreter has: a 256 MB buffer per read did not fit
    code = ("import resource, sys; from pracmln_poss.sources import read_source; "
            "used = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize(); "
            "resource.setrlimit(resource.RLIMIT_AS, (used + (200 << 20), used + (200 << 20))); "
            "from pracmln_poss.sources import read_source; from pracmln_poss.search.checkpoint import Checkpoint; "
            "[read_source('m.mln', 'model file') for _ in range(3)]; print('read')")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0 and "read" in done.stdout, done.stderr


# -- tracebacks ------------------------------------------------------------------------

def test_a_complex_weight_is_refused(tmp_path):
    (tmp_path / "m.mln").write_text("o = {T}\na(o)\n(-8)**0.5 a(o)\n")
    code, _, err = run_cli("map", tmp_path / "m.mln")
    assert code == 2 and "is not a real number" in err and "Traceback" not in err



# -- the round trip law ------------------------------------------------------------------

_PLAIN = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,5}", fullmatch=True)
_UNICODE = st.from_regex(r"[ÄÖÜÉŁŒ][a-zäöüéïøłœ0-9]{0,4}", fullmatch=True)
_QUOTED = st.from_regex(r'"[A-Za-z0-9äöüïø _.:;$~-]{1,8}"', fullmatch=True).filter(
    lambda c: "//" not in c and "/*" not in c and c.strip('"').strip())
_PREDICATES = st.sampled_from(["p", "q_2", "EXIST", "TRUE", "FALSE", "v"])


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(constants=st.lists(st.one_of(_PLAIN, _UNICODE, _QUOTED), min_size=1, max_size=3, unique=True),
       predicates=st.lists(_PREDICATES, min_size=2, max_size=2, unique=True),
       weights=st.tuples(st.sampled_from(["1", "-1", "2.5"]), st.sampled_from(["1", "0.5"])),
       fmt=st.sampled_from(["text", "json"]), k=st.sampled_from(["0", "1"]))
def test_whatever_convert_writes_every_command_reads_back_to_the_same_theory(tmp_path, constants, predicates,
                                                                             weights, fmt, k):
    from pracmln_poss.formats import dumps, load_theory
    from pracmln_poss.logic.syntax import compact_atom

    first, second = predicates
    model = tmp_path / "m.mln"
    model.write_text(f"d = {{{', '.join(constants)}}}\n{first}(d)\n{second}(d)\n"
                     f"{weights[0]} {first}(x) => {second}(x)\n{weights[1]} {second}(x)\n", encoding="utf-8")
    out = tmp_path / f"m.{fmt}"
    code, _, err = run_cli("convert", model, "-k", k, "--format", fmt, "-o", out)
    assert code == 0, err
    written = out.read_text(encoding="utf-8")
    theory = load_theory(out)
    assert dumps(load_theory(out, ground=False), fmt) == written  # read, written again: the same bytes
    expected = {f"{pred}({c})" for pred in predicates for c in constants}
    assert {compact_atom(a) for a in theory.atoms} <= expected
    code, _, err = run_cli("show", out)
    assert code == 0, err
    constant = constants[-1]
    code, out_text, err = run_cli("query", out, "-e", f"{first}({constant})", "-q", f"{second}({constant})")
    assert code == 0 and f"query: {second}({constant})" in out_text, err
    code, map_text, err = run_cli("map", model, "-e", f"{first}({constant})")
    assert code == 0, err


def test_out_of_memory_is_one_line_and_writes_nothing(pracmln, tmp_path, monkeypatch, capsys):
    """A conversion that runs out of memory (``ulimit -v``) says so in one line, status 2,
    no traceback, no output."""
    from pracmln_poss.cli import main
    from pracmln_poss.model.ground_mln import GroundMLN

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(GroundMLN, "create", exhausted)  # (every grounding makes its GroundMLN so)
    out = tmp_path / "out.theory"
    assert main(["convert", str(PAPER / "smokers.mln"), "-k", "1", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pracmln-poss: error: out of memory") and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


@pytest.mark.parametrize("command", [["map", "{model}", "-e", "p(Zoë)"], ["convert", "{model}", "-k", "1"],
                                     ["query", "{theory}", "-e", "p(Zoë)", "-q", "q(Zoë)"]])
def test_a_name_standard_output_cannot_encode_is_one_line_saying_so(tmp_path, command):
    """``PYTHONIOENCODING=ascii`` and a constant ``Zoë``: one line naming the encoding, the
    character and the way out, exit 2 (it was a ``UnicodeEncodeError`` traceback; one
    handler for every command: ``show`` and ``explain`` were the same)."""
    from .support import run_python

    model = tmp_path / "z.mln"
    model.write_text("person = {Zoë, Bob}\np(person)\nq(person)\n1 p(x) => q(x)\n", encoding="utf-8")
    theory = tmp_path / "z.theory"
    assert run_cli("convert", model, "-k", "1", "--quiet", "-o", theory)[0] == 0
    argv = [a.format(model=model, theory=theory) for a in command]
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = run_python("import sys; from pracmln_poss.cli import main; sys.exit(main(sys.argv[1:]))", *argv, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("pracmln-poss: error: standard output's encoding (ascii) cannot write '\\xeb': "
                                   "set PYTHONIOENCODING=utf-8 (or a locale that can)"), done.stderr
    assert "Traceback" not in done.stderr


_IN_A_POOL = """
import multiprocessing, sys
def work(model):
    from pracmln_poss import transform
    try:
        transform(model, "defaults", k=1, jobs=2)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ran"
if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        print(pool.map(work, [sys.argv[1]])[0])
"""


def test_jobs_inside_a_pool_worker_is_one_line_saying_what_to_give(tmp_path):
    """``transform(jobs=2)`` in a ``multiprocessing.Pool`` worker, which may start no
    process: our error, naming jobs=1 or an executor (it was multiprocessing's bare
    ``AssertionError: daemonic processes are not allowed to have children``)."""
    from .support import run_python

    script = tmp_path / "pooled.py"
    script.write_text(_IN_A_POOL)
    done = run_python(f"import runpy, sys; sys.argv = [{str(script)!r}, {str(PAPER / 'smokers.mln')!r}]; "
                      f"runpy.run_path({str(script)!r}, run_name='__main__')")
    assert done.stdout.strip() == ("ArgumentError: jobs=2 cannot start worker processes from a daemonic process "
                                   "(a worker of a multiprocessing.Pool): give jobs=1, or an executor"), done
