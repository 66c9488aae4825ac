"""The examples in the docstrings run, and the front doors have one (``tox -e docs``
runs them too, with the nitpicky Sphinx build of the reference)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pracmln_poss

MODULES = ["pracmln_poss"] + sorted(m.name for m in pkgutil.walk_packages(pracmln_poss.__path__, "pracmln_poss.")
                                    if not m.name.endswith("__main__"))
FRONT_DOORS = {
    "transform": "pracmln_poss.transformations.conversion",
    "convert": "pracmln_poss.transformations.conversion",
    "open_engine": "pracmln_poss.map.choice",
    "load_theory": "pracmln_poss.formats.codec",
    "Reasoner.query": "pracmln_poss.possibilistic.reasoner",
    "possibilistic_inference": "pracmln_poss.possibilistic.inference",
}


def _examples(name: str) -> list[doctest.DocTest]:
    return [t for t in doctest.DocTestFinder().find(importlib.import_module(name)) if t.examples]


@pytest.mark.parametrize("name", [m for m in MODULES if _examples(m)])
def test_docstring_examples_run(name):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in _examples(name):
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("door", sorted(FRONT_DOORS))
def test_every_front_door_has_an_example(door):
    found = {t.name.split(".", len(FRONT_DOORS[door].split(".")))[-1] for t in _examples(FRONT_DOORS[door])}
    assert door in found, (door, found)
