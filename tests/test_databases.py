"""Files of several databases (``---``, as pracmln ships a set of scenes): read as pracmln
reads them, and ``map`` (and ``map_inferences``) answering each in order, as each alone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pracmln_poss.bridge.database import read_database, read_databases
from pracmln_poss.cli import main
from pracmln_poss.errors import ModelError, UnsupportedInputError

from .support import PAPER

SCENES = """\
// three databases, the second with a domain of its own
s(Alice)
f(Alice, Bob)
---
person = {Erin}
s(Erin)
!c(Bob)

---
!s(Celine)
s(Dave)
---
"""


def test_a_file_of_several_databases_is_read_as_pracmln_reads_it(tmp_path):
    path = tmp_path / "scenes.db"
    path.write_text(SCENES)
    found = read_databases(path)
    assert [[(e.pred, e.args, e.value) for e in d.evidence] for d in found] == [
        [("s", ("Alice",), True), ("f", ("Alice", "Bob"), True)],
        [("s", ("Erin",), True), ("c", ("Bob",), False)],
        [("s", ("Celine",), False), ("s", ("Dave",), True)],
    ]
    assert [d.domains[0][:2] for d in found if d.domains] == [("person", ("Erin",))]
    assert [d.start.line for d in found] == [2, 5, 10]  # (each from its first line: errors name it)
    assert [d.end.line if d.end else None for d in found] == [4, 9, 12]
    with pytest.raises(UnsupportedInputError, match=r"several databases separated by '---' \(3\)") as err:
        read_database(path)
    assert err.value.position.line == 4
    assert read_database(tmp_path / "one.db", text="s(Alice)\n---\n")[1][0].args == ("Alice",)  # (a last '---')


@pytest.mark.parametrize("text, line, match", [
    ("---\ns(Alice)\n", 1, "with no database before it"),
    ("s(Alice)\n---\n---\ns(Bob)\n", 3, "with no database before it"),
    ("s(Alice)\n----\ns(Bob)\n", 2, "holds nothing else"),
    ("s(Alice)\n--- s(Bob)\n", 2, "holds nothing else"),
])
def test_a_separator_out_of_place_is_named_by_line(tmp_path, text, line, match):
    path = tmp_path / "bad.db"
    path.write_text(text)
    with pytest.raises(ModelError, match=match) as err:
        read_databases(path)
    assert err.value.position.line == line and err.value.position.file == str(path)


def _alone(tmp_path: Path, index: int, text: str, *options: str, capsys) -> str:
    path = tmp_path / f"alone{index}.db"
    path.write_text(text)
    assert main(["map", str(PAPER / "smokers.mln"), "--db", str(path), *options]) == 0
    return capsys.readouterr().out


def test_map_answers_each_database_in_order_as_each_alone(tmp_path, capsys):
    path = tmp_path / "scenes.db"
    path.write_text(SCENES)
    blocks = [b for b in SCENES.split("---\n") if b.strip()]
    assert main(["map", str(PAPER / "smokers.mln"), "--db", str(path), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    for number, (line, block) in enumerate(zip(lines, blocks), 1):
        answer = json.loads(line)
        assert (answer.pop("database"), answer.pop("line")) == (number, [2, 5, 10][number - 1])
        assert answer == json.loads(_alone(tmp_path, number, block, "--json", capsys=capsys))
    assert main(["map", str(PAPER / "smokers.mln"), "--db", str(path)]) == 0
    text = capsys.readouterr().out
    parts = text.split("\n\n")
    assert len(parts) == 3 and parts[1].startswith("database 2 of 3 (line 5)\n")
    for number, (part, block) in enumerate(zip(parts, blocks), 1):
        alone = _alone(tmp_path, number, block, capsys=capsys)
        # (the same answer; its evidence line names the database it came from)
        assert part.splitlines()[2:] == alone.splitlines()[1:]
        assert f"(database {number}, line " in part.splitlines()[1]


def test_map_inferences_answers_each_database_of_a_file(tmp_path):
    from pracmln_poss import map_inference, map_inferences

    path = tmp_path / "scenes.db"
    path.write_text(SCENES)
    worlds = []
    for inference in map_inferences(str(PAPER / "smokers.mln"), str(path)):
        with inference:
            worlds.append(inference.map_world())
    assert len(worlds) == 3 and worlds[1]["s(Erin)"] and "s(Erin)" not in worlds[0]
    with pytest.raises(UnsupportedInputError, match="map answers each database"):
        map_inference(str(PAPER / "smokers.mln"), str(path))
    one = tmp_path / "one.db"
    one.write_text("s(Alice)\n")
    assert len(list(map_inferences(str(PAPER / "smokers.mln"), str(one)))) == 1


def test_pracmln_lists_of_databases_are_answered_each(pracmln, tmp_path):
    from pracmln_poss import map_inference, map_inferences

    path = tmp_path / "scenes.db"
    path.write_text(SCENES.replace("person = {Erin}\n", "person = {Erin}\n", 1))
    mln = pracmln.MLN.load(str(PAPER / "smokers.mln"), grammar="StandardGrammar")
    dbs = pracmln.Database.load(mln, str(path))
    assert isinstance(dbs, list) and len(dbs) == 3
    from_list = []
    for inference in map_inferences(mln, dbs):
        with inference:
            from_list.append(inference.map_world())
    from_file = []
    for inference in map_inferences(mln, str(path)):
        with inference:
            from_file.append(inference.map_world())
    assert from_list == from_file and len(from_list) == 3
    for db, world in zip(dbs, from_list):
        with map_inference(mln, db) as alone:
            assert alone.map_world() == world


def test_unknown_predicates_are_left_out_when_asked(tmp_path, capsys):
    path = tmp_path / "more.db"
    path.write_text("s(Alice)\nsize(Alice, Big)\n")
    assert main(["map", str(PAPER / "smokers.mln"), "--db", str(path)]) == 2
    assert "evidence on undeclared predicate 'size'" in capsys.readouterr().err
    assert main(["map", str(PAPER / "smokers.mln"), "--db", str(path), "--ignore-unknown-preds", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["world"]["s(Alice)"] is True


@pytest.mark.parametrize("stdin_is", ["model", "db"])
def test_standard_input_is_read_once_for_every_database(tmp_path, stdin_is):
    """A model or a file of databases from standard input (a stream, read once) serves
    every database of the file: the answers are those of the files given by name."""
    import subprocess
    import sys

    path = tmp_path / "scenes.db"
    path.write_text(SCENES)
    model = PAPER / "smokers.mln"
    named = subprocess.run([sys.executable, "-m", "pracmln_poss", "map", str(model), "--db", str(path), "--json"],
                           capture_output=True, text=True, timeout=120)
    argv = ["-", "--db", str(path)] if stdin_is == "model" else [str(model), "--db", "-"]
    piped = subprocess.run([sys.executable, "-m", "pracmln_poss", "map", *argv, "--json"], capture_output=True,
                           text=True, timeout=120, input=(model if stdin_is == "model" else path).read_text())
    assert named.returncode == piped.returncode == 0, piped.stderr
    assert len(piped.stdout.splitlines()) == 3 and piped.stdout == named.stdout


@pytest.mark.parametrize("text, given, message", [
    ("s(Alice)\n---\n!s(Bob)\n---\nzz(Bob)\n", [], r"^pracmln-poss: error: .*three\.db:5: zz\(Bob\): evidence on "
                                                  r"undeclared predicate 'zz'"),
    ("s(Alice)\n---\n!s(Bob)\n---\nc(Bob)\n", ["-e", "s(Bob)"],
     r"^pracmln-poss: error: evidence s\(Bob\) contradicts the database .*three\.db \(database 2, line 3\), "
     r"which has !s\(Bob\)"),
    ("s(Alice)\n---\nc(Bob)\n!s(Bob)\ns(Bob)\n", [],
     r"^pracmln-poss: error: .*three\.db:5: s\(Bob\): this database gives s\(Bob\) both values: !s\(Bob\) on line 4"),
])
def test_every_database_of_a_file_is_checked_before_the_first_answer(tmp_path, capsys, text, given, message):
    """An undeclared predicate, or evidence contradicting a later database of the file, is
    said before any answer is printed (it was found as that database was reached, after
    the earlier answers were on standard output, exit 2); a database giving one atom both
    values names its file and line (it was "hard formulas fix s(Bob) both true and
    false")."""
    db = tmp_path / "three.db"
    db.write_text(text)
    assert main(["map", str(PAPER / "smokers.mln"), "--db", str(db), *given]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert re.match(message, err) and err.count("\n") == 1, err
