"""The theory across domain sizes (``sweep``, pracmln_poss.insight.sweep): each size's
theory is the one ``convert`` writes alone at that size, byte for byte; what changes from
size to size is counted right; nothing is claimed past the sizes computed."""

from __future__ import annotations

import json

import pytest

from pracmln_poss.cli.common import UsageError
from pracmln_poss.cli.sweep_command import read_sizes

from .support import PAPER, run_cli


def test_sizes_are_read_as_a_user_writes_them():
    assert read_sizes(["cluster=1..3"]) == [{"cluster": 1}, {"cluster": 2}, {"cluster": 3}]
    assert read_sizes(["person=2,8,64,1024"]) == [{"person": n} for n in (2, 8, 64, 1024)]
    assert read_sizes(["person=2,4..5"]) == [{"person": n} for n in (2, 4, 5)]
    # (domains of several sizes step together; one of one size keeps it)
    assert read_sizes(["pap=4,8", "per=2,3", "cat=5"]) == [{"pap": 4, "per": 2, "cat": 5}, {"pap": 8, "per": 3, "cat": 5}]
    for bad in (["person"], ["person=0"], ["person=3..2"], ["person=a"], ["=3"], ["person=1..20000"],
                ["pap=1..3", "per=1..2"], ["p=1", "p=2"]):
        with pytest.raises(UsageError):
            read_sizes(bad)


def test_each_size_is_the_theory_convert_writes_alone(pracmln, tmp_path):
    """``--theories DIR``: each size's file is ``convert``'s at that size, made-by line
    included; the comparison is the same bytes run twice, and its JSON says what the
    text says."""
    theories = tmp_path / "theories"
    theories.mkdir()
    code, text, err = run_cli("sweep", PAPER / "smokers.mln", "--domain-size", "person=1..4", "-k", "1",
                              "--theories", theories, "--quiet")
    assert code == 0, err
    for n in range(1, 5):
        alone = tmp_path / f"alone{n}.theory"
        assert run_cli("convert", PAPER / "smokers.mln", "--domain-size", f"person={n}", "-k", "1", "-o", alone)[0] == 0
        assert (theories / f"smokers.person{n}.theory").read_bytes() == alone.read_bytes()
    assert run_cli("sweep", PAPER / "smokers.mln", "--domain-size", "person=1..4", "-k", "1", "--quiet")[1] == text
    assert "from person=2 on, nothing changes up to person=4 (the largest size computed" in text
    rows = [line.split("  ") for line in text.splitlines() if line.startswith("person=")]
    assert [[cell.strip() for cell in row if cell.strip()] for row in rows] == [
        ["person=1", "4", "2", "-", "-", "-"],
        ["person=2 .. person=4 (3 sizes)", "6", "2", "+4", "-2", "0"]]  # (sizes that change nothing: one row)
    code, out, err = run_cli("sweep", PAPER / "smokers.mln", "--domain-size", "person=1..4", "-k", "1", "--json",
                             "--quiet")
    data = json.loads(out)
    assert code == 0 and [s["rules"] for s in data["steps"]] == [4, 6, 6, 6]
    assert data["stable_from"] == {"person": 2} and data["stable_to"] == {"person": 4}
    assert len(data["steps"][1]["gained"]) == 4 and len(data["steps"][1]["lost"]) == 2


def test_the_last_size_changing_is_not_called_stable(pracmln):
    code, text, err = run_cli("sweep", PAPER / "smokers.mln", "--domain-size", "person=1,2", "-k", "1", "--quiet")
    assert code == 0 and "the theory changes up to person=2, the largest size computed" in text, err


@pytest.mark.slow
def test_the_learned_object_model_means_other_things_at_other_sizes(pracmln):
    """pracmln's learned object-recognition model, focused on ``object``: the one object of
    a scene is Ketchup; of two, each is a Spatula or a Pancake_maker (the 19 other objects
    excluded); of three, each is an Oil, a Spatula or a Mondamin."""
    from pracmln_poss import sweep
    from pracmln_poss.compat import import_pracmln

    examples = import_pracmln().utils.locs.examples
    model = f"{examples}/object-recognition/object-recognition.pracmln:learnt.cll.scenes-new-object-detection.mln"
    result = sweep(model, {"cluster": [1, 2, 3]}, k=1, query_preds=["object"],
                   evidence_preds=["color", "goggles", "goggles_Logo", "goggles_Product", "goggles_Text", "scene",
                                   "shape"])
    one, two, three = (step.defaults for step in result.steps)
    assert one[0] == "object(Cluster1,Ketchup)"
    excluded = two[0].split(" for X in ")[1].split(" (")[0].split(", ")
    assert len(excluded) == 19 and {"Spatula", "Pancake_maker"}.isdisjoint(excluded)
    excluded3 = three[0].split(" for X in ")[1].split(" (")[0].split(", ")
    assert len(excluded3) == 18 and {"Oil", "Spatula", "Mondamin"}.isdisjoint(excluded3)
    assert all(step.changed for step in result.steps[1:]) and not result.settled
