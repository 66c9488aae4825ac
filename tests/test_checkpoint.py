"""Checkpoints are data, never code: a planted pickle runs nothing, an edited or foreign
checkpoint is refused in one line, and the conversion writes the bytes of a fresh run."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import pytest

from pracmln_poss.errors import OutputError
from pracmln_poss.search import checkpoint as checkpoint_module
from pracmln_poss.search.checkpoint import Begun, Checkpoint, RuleChunk, _digest

from .support import PAPER, ROOT, converted, smokers


class _Marker:
    """A pickle that, loaded, writes a file (what a hostile checkpoint would do)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_planted_pickle_runs_nothing_on_the_command_line(pracmln, tmp_path):
    """A pickle in the checkpoint's place is not one of our checkpoints: refused before
    any work, in one line, and left as it is (never read as code, never replaced)."""
    out = tmp_path / "out.theory"
    marker = tmp_path / "marker"
    planted = tmp_path / "out.theory.checkpoint"
    planted.write_bytes(pickle.dumps(_Marker(str(marker))))
    before = planted.read_bytes()
    command = [sys.executable, "-m", "pracmln_poss", "convert", str(PAPER / "example5-defaults.mln"), "-k", "2"]
    done = subprocess.run([*command, "-o", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert not marker.exists(), "loading the checkpoint ran code"
    assert done.stderr.count("\n") == 1 and "is not a checkpoint of pracmln_poss" in done.stderr, done.stderr
    assert planted.read_bytes() == before and not out.exists()
    done = subprocess.run([*command, "-o", str(out), "--no-checkpoint"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and planted.read_bytes() == before, done.stderr


@pytest.mark.parametrize("kind", ["model", "database", "notes", "link"])
def test_a_file_that_is_not_a_checkpoint_is_never_replaced_nor_deleted(tmp_path, kind):
    """``checkpoint=`` onto the model, a database, a file of the user's, or a link: refused
    before any work (the probe: each was deleted at the end of a successful run)."""
    model = tmp_path / "m.mln"
    model.write_text((PAPER / "example5-defaults.mln").read_text())
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    db = tmp_path / "e.db"
    db.write_text("bird(T)\n")
    link = tmp_path / "link"
    link.symlink_to(notes)
    place = {"model": model, "database": db, "notes": notes, "link": link}[kind]
    before = {p: p.read_bytes() for p in (model, db, notes)}
    from pracmln_poss import load_first_order, transform

    with pytest.raises(OutputError, match="not a checkpoint of pracmln_poss|symbolic link"):
        transform(load_first_order(str(model)), "lifted", k=1, checkpoint=str(place))
    assert {p: p.read_bytes() for p in (model, db, notes)} == before and link.is_symlink()


def _interrupted(tmp_path, every_report):
    """A checkpoint of smokers k = 3 left by an interrupt in the rules."""
    path = tmp_path / "out.checkpoint"

    def interrupt(info):
        if info.phase.startswith("rules") and info.size == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        converted(smokers(), {"k": 3}, checkpoint=path, progress=interrupt)
    assert path.exists()
    return path


def _resume(path):
    notes = []
    text = converted(smokers(), {"k": 3}, checkpoint=path, progress=lambda info: info.note and notes.append(info.note))
    assert text == converted(smokers(), {"k": 3}), "not the bytes of a fresh run"
    return notes


def test_the_first_report_after_a_resume_says_where_it_resumed(pracmln, tmp_path, every_report, monkeypatch):
    """The chunks taken from the checkpoint are counted, but not reported one by one nor
    put in the rate: the first report of the rules says how many were resumed and where
    the run stands (it said the first chunk's count whatever was resumed).  (Chunks run
    whole: every report is at a chunk's end, so the interrupt keeps what it reported.)"""
    import dataclasses

    from pracmln_poss.search import optima_pass, rules

    for module, name in ((optima_pass, "OPTIMA"), (rules, "RULES")):  # (chunks run whole)
        monkeypatch.setattr(module, name, dataclasses.replace(getattr(module, name), combine=None))
    path = tmp_path / "out.checkpoint"
    seen = []

    def interrupt(info):
        if info.phase.startswith("rules") and info.note is None:
            seen.append(info.done)
            if len(seen) == 5:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        converted(smokers(), {"k": 3}, checkpoint=path, progress=interrupt)
    infos = []
    converted(smokers(), {"k": 3}, checkpoint=path, progress=infos.append)
    first = next(i for i in infos if i.phase.startswith("rules") and i.note is None)
    assert first.resumed == seen[-1] and first.done > seen[-1]
    assert first.rate is None or first.rate < first.done / first.elapsed  # (the resumed in no rate)


@pytest.mark.parametrize("phase", ["penalties", "rules"])
def test_a_stop_inside_a_chunk_keeps_its_parts_done(pracmln, tmp_path, every_report, monkeypatch, phase):
    """A stop while a chunk is under way keeps the parts of it that are done (a long
    chunk's minutes were lost, and a resumed run stopped again before a chunk ended left
    the checkpoint as it was): the resumed run runs exactly those evidence sets fewer than
    one resumed from the same file without them, and both write the bytes of a fresh run."""
    import dataclasses
    import shutil

    from pracmln_poss.search import optima_pass, rules, workers

    monkeypatch.setattr(workers, "PART", 2)
    for module in (optima_pass, rules):  # (chunks of several parts)
        monkeypatch.setattr(module, "chunked", lambda items: workers.chunked(items, 3))
    path = tmp_path / "out.checkpoint"
    seen = []

    def interrupt(info):
        if info.phase.startswith(phase) and info.note is None and (phase == "rules" or info.size == 2):
            seen.append(info.done)
            if len(seen) == 3:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        converted(smokers(), {"k": 3}, checkpoint=path, progress=interrupt)
    data = json.loads(path.read_bytes().rstrip(b"\n").rpartition(b"\n")[0])
    assert data["begun"] is not None and data["begun"][3] == ("optima" if phase == "penalties" else "rules")
    items = data["begun"][2]
    assert items > 0
    without = tmp_path / "without.checkpoint"
    shutil.copy(path, without)
    _edit(without, lambda d: d.__setitem__("begun", None))
    module, name = (optima_pass, "OPTIMA") if phase == "penalties" else (rules, "RULES")
    original = getattr(module, name)
    ran = []

    def counted(search, engine, state, part):
        ran.append(len(part))
        return original.run(search, engine, state, part)

    monkeypatch.setattr(module, name, dataclasses.replace(original, run=counted))
    notes = _resume(path)
    assert f"and {items} evidence set(s) of the chunk under way" in notes[0], notes
    with_parts = sum(ran)
    ran.clear()
    _resume(without)
    assert sum(ran) - with_parts == items


def _edit(path, change, digest=True):
    """Change the JSON of a checkpoint; with ``digest``, write a matching digest (a forger
    who knows the format)."""
    body = path.read_bytes().rstrip(b"\n").rpartition(b"\n")[0]
    data = json.loads(body)
    change(data)
    body = json.dumps(data, separators=(",", ":")).encode()
    path.write_bytes(body + b"\n" + (_digest(body) if digest else "0" * 64).encode() + b"\n")


def _drop_first_rule(data):
    for _chunk, (rules, _impossible, _cautious) in data["rules"]:
        if rules:
            del rules[0]
            return
    raise AssertionError("no rule to drop")


def test_the_checkpoint_is_json_with_its_digest_last(pracmln, tmp_path, every_report):
    path = _interrupted(tmp_path, every_report)
    body, digest = path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)
    assert digest.decode() == _digest(body)
    data = json.loads(body)
    assert data["format"].startswith("pracmln_poss checkpoint") and data["rules"]
    assert _resume(path)[0].startswith("resuming from")


def test_an_edited_checkpoint_is_refused(pracmln, tmp_path, every_report):
    """Keeping the key and dropping a rule (the digest left as it was): refused, and the
    result is the fresh run's, not one rule short."""
    path = _interrupted(tmp_path, every_report)
    _edit(path, _drop_first_rule, digest=False)
    notes = _resume(path)
    assert len(notes) == 1 and "digest does not match" in notes[0], notes


def test_a_checkpoint_of_another_user_is_refused(pracmln, tmp_path, every_report, monkeypatch):
    """A file planted by another user (in a shared directory such as /tmp), even with a
    matching digest, is not used."""
    path = _interrupted(tmp_path, every_report)
    _edit(path, _drop_first_rule)
    monkeypatch.setattr(checkpoint_module.os, "geteuid", lambda: os.stat(path).st_uid + 1)
    notes = _resume(path)
    assert len(notes) == 1 and "another user" in notes[0], notes


@pytest.mark.parametrize("change", [
    lambda d: next(r for _, (r, *_) in d["rules"] if r).__setitem__(0, ["x", [1], [2], 3]),  # an unknown kind of rule
    lambda d: d["rules"][0][1].__setitem__(1, "2"),  # a count that is not an int
    lambda d: d["optima"][0][1][0].__setitem__(0, [10**6]),  # an atom the model lacks
    lambda d: d["optima"][0][1][0].__setitem__(1, [0, "zz"]),  # a world that is not hex
    lambda d: d.__setitem__("rules", None),
    lambda d: d.pop("partial"),
    lambda d: d.__setitem__("begun", [1, 0, 2, "optima", [None]]),  # two sets done, one optimum
    lambda d: d.__setitem__("begun", [0, 0, 1, "both", []]),  # an unknown kind of part
    lambda d: d.__setitem__("begun", [9, 0, 1, "optima", [None]]),  # a size above k
    lambda d: d.__setitem__("begun", [0, 0, 0, "rules", [[], 0, 0]]),  # no set done
    lambda d: d.pop("begun"),
], ids=["rule-kind", "count-type", "atom-range", "world", "rules-null", "missing", "begun-count", "begun-kind",
        "begun-size", "begun-empty", "begun-missing"])
def test_a_checkpoint_with_wrong_values_is_refused(pracmln, tmp_path, every_report, change):
    """Right key and digest, values of the wrong type or range: refused in one line
    (never a traceback), and replaced, so the next run does not fail on it again."""
    path = _interrupted(tmp_path, every_report)
    _edit(path, change)
    notes = _resume(path)
    assert len(notes) == 1 and notes[0].startswith("not resuming from"), notes
    assert not path.exists()


def test_a_directory_in_the_checkpoint_s_place_is_refused_before_the_work(pracmln, tmp_path):
    (tmp_path / "out.checkpoint").mkdir()
    with pytest.raises(OutputError, match="taken by a directory"):
        converted(smokers(), {"k": 1}, checkpoint=tmp_path / "out.checkpoint")


def test_save_and_load_give_back_the_same_work(tmp_path):
    from pracmln_poss.search.rule import BlockingRule, DefaultRule
    from pracmln_poss.weights import INF

    saved = Checkpoint(tmp_path / "c", "key", n_atoms=9, k=2)
    saved.optima = {0: [((), (0, bytes([0, 1, 0, 0, 1, 1, 0, 0, 0, 1]), None))],
                    1: [((3,), None), ((-9,), (7, bytes(10), (-1, 2, -9)))]}  # (an optimum with its backbone)
    saved.partial = {2: {0: [None, (5, bytes([0] + [1] * 9), None)], 5: []}}
    saved.rules = {0: ([DefaultRule((1, -2), (3,), 4), BlockingRule((), (-1,), INF)], 1, 2), 3: ([], 0, 0)}
    for saved.begun in (Begun(2, 7, 2, [None, (5, bytes([0] + [1] * 9), None)], None),
                        Begun(0, 4, 3, None, RuleChunk([DefaultRule((2,), (-3,), 1)], 1, 0)), None):
        saved.save()
        loaded = Checkpoint(tmp_path / "c", "key", n_atoms=9, k=2)
        assert loaded.load() and loaded.refused is None
        assert (loaded.optima, loaded.partial, loaded.rules, loaded.begun) == (
            saved.optima, saved.partial, saved.rules, saved.begun)
    other = Checkpoint(tmp_path / "c", "other key", n_atoms=9, k=2)
    assert not other.load() and "another conversion" in (other.refused or "")
    # work added after a save (parts encoded before are reused) is in the next save
    saved.rules[7] = ([DefaultRule((5,), (-6,), 1)], 0, 3)
    saved.partial[2][6] = [(1, bytes(10), None)]
    for _finished in range(2):
        saved.save()
        again = Checkpoint(tmp_path / "c", "key", n_atoms=9, k=2)
        assert again.load()
        assert (again.optima, again.partial, again.rules) == (saved.optima, saved.partial, saved.rules)
        saved.optima[2] = [((1, 2), None)]  # the size finished
        saved.partial.pop(2, None)


def test_a_link_in_the_checkpoint_s_place_is_not_followed(pracmln, tmp_path):
    """A link planted as the checkpoint (onto a file of the user's) is neither read nor
    written through, nor replaced: refused, the link and its target as they were."""
    target = tmp_path / "precious"
    target.write_text("keep me")
    link = tmp_path / "out.checkpoint"
    link.symlink_to(target)
    with pytest.raises(OutputError, match="symbolic link"):
        converted(smokers(), {"k": 2}, checkpoint=link)
    assert target.read_text() == "keep me" and link.is_symlink()


def test_nothing_read_from_a_file_is_unpickled():
    """The package unpickles only what its own worker processes send it through the
    pool's pipes (workers.py), never a file: no pickle.load, no shelve, no marshal."""
    package = ROOT / "pracmln_poss"
    for path in package.rglob("*.py"):
        text = path.read_text()
        assert "pickle.load(" not in text and "import shelve" not in text and "marshal.load" not in text, path
        if "pickle.loads(" in text:
            assert path.name == "workers.py", path


@pytest.mark.parametrize("method", ["lifted", "defaults"])
def test_an_interrupt_between_two_rules_keeps_the_rules_done(tmp_path, monkeypatch, method):
    """An interrupt that reaches the conversion outside the rule search (while a rule it
    gave is being written down) closes the search there and then: its checkpoint holds the
    rules done, and no traceback is left for the interpreter's end."""
    from pracmln_poss.transformations import defaults as defaults_module
    from pracmln_poss.transformations import lifted as lifted_module

    path = tmp_path / "out.checkpoint"
    taken = []

    def interrupted(*args, **kwargs):
        taken.append(1)
        if len(taken) == 30:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    module, name = (lifted_module, "Schema") if method == "lifted" else (defaults_module, "describe")
    real = getattr(module, name)
    monkeypatch.setattr(module, name, interrupted)
    with pytest.raises(KeyboardInterrupt):
        converted(smokers(), {"k": 3, "method": method}, checkpoint=path)
    assert path.exists() and len(taken) == 30
    saved = json.loads(path.read_bytes().rstrip(b"\n").rpartition(b"\n")[0])
    assert saved["rules"], "the rules done were not kept"
    monkeypatch.undo()
    assert converted(smokers(), {"k": 3, "method": method}, checkpoint=path) == converted(smokers(), {"k": 3,
                                                                                                    "method": method})


def test_no_checkpoint_touches_no_checkpoint_file(pracmln, tmp_path, every_report):
    """``--no-checkpoint`` writes none, reads none and removes none: to standard output it
    converts (it raised a TypeError asking for the checkpoint of no file), and with ``-o``
    an earlier run's checkpoint beside the output is left for that run to resume from (it
    was deleted)."""
    from .support import run_cli

    code, out, err = run_cli("convert", PAPER / "smokers.mln", "-k", "1", "--no-checkpoint", "--quiet")
    assert (code, err) == (0, "") and out.startswith("// pracmln_poss")
    earlier = _interrupted(tmp_path, every_report)
    kept = earlier.read_bytes()
    code, _, err = run_cli("convert", PAPER / "smokers.mln", "-k", "1", "--no-checkpoint", "--quiet",
                           "-o", tmp_path / "out")
    assert (code, err) == (0, "") and earlier.read_bytes() == kept


def test_a_search_without_a_checkpoint_digests_nothing(monkeypatch):
    """The search's key digests the whole model (0.5 s of the smokers over 128 persons at
    k = 2): it is made only for a checkpoint, which is what it is for."""
    from pracmln_poss.search.rule_search import RuleSearch

    from .support import converted, smokers

    def refused(self, sets):
        raise AssertionError("a key made for no checkpoint")

    monkeypatch.setattr(RuleSearch, "key", refused)
    assert converted(smokers(), {"k": 2})
    assert converted(smokers(), {"method": "lifted", "k": 2})


def _interrupted_in_the_optima(tmp_path):
    """A checkpoint of smokers k = 3 left by an interrupt in the optima of size 3."""
    path = tmp_path / "out.checkpoint"

    def interrupt(info):
        if info.phase.startswith("penalties") and info.size == 3 and info.done and info.done > 40:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        converted(smokers(), {"k": 3}, checkpoint=path, progress=interrupt)
    return path


def _a_packed_optimum(data):
    return data["optima"][0][1][0][1]


@pytest.mark.parametrize("where", ["rules past the pass", "rules under way past the pass", "optima past the pass",
                                   "optima of another length"])
def test_a_checkpoints_chunk_the_search_has_not_is_found_again(pracmln, tmp_path, every_report, where):
    """Chunks whose digest matches but which the pass has not (an index past its chunks,
    or another number of items): left out and found again, the bytes a fresh run's, with
    a note (a rules chunk at index 999 was an ``IndexError`` traceback)."""
    if where.startswith("rules"):
        path = _interrupted(tmp_path, every_report)

        def change(data):
            if where == "rules past the pass":
                data["rules"][0][0] = 999
            else:
                data["begun"] = [0, 999, 1, "rules", data["rules"][0][1]]
    else:
        path = _interrupted_in_the_optima(tmp_path)

        def change(data):
            packed = _a_packed_optimum(data)
            data["partial"] = [[3, [[999 if where == "optima past the pass" else 0, [packed]]]]]
    _edit(path, change)
    notes = _resume(path)
    assert any("do not fit this search were left out and are found again" in n for n in notes), notes
