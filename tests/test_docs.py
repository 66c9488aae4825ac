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
    "transform": "pracmln_poss.bridge.query",
    "convert": "pracmln_poss.bridge.query",
    "transform_mln": "pracmln_poss.transformations.conversion",
    "convert_mln": "pracmln_poss.transformations.conversion",
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


def test_every_name_of_the_package_has_a_page_entry():
    """The reference documents every name in ``pracmln_poss.__all__``: a function or class
    defined in the package on its page, any other linked to where it is defined (only
    plain values are named as text); and pracmln's ``MLN.to_possibilistic`` as a method."""
    import runpy
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    runpy.run_path(str(docs / "conf.py"))  # (it writes the pages, as a build of the docs does)
    page = (docs / "api" / "pracmln_poss.rst").read_text()
    for name in pracmln_poss.__all__:
        obj = getattr(pracmln_poss, name)
        home = getattr(obj, "__module__", None)
        if home == "pracmln_poss":
            assert f".. auto{'class' if isinstance(obj, type) else 'function'}:: pracmln_poss.{name}" in page, name
        elif home is not None and hasattr(obj, "__qualname__"):
            assert f":py:obj:`~{home}.{obj.__qualname__}`" in page, name
        else:
            assert f"``{name}``" in page, name
    assert ".. py:method:: MLN.to_possibilistic(db=None, method=None, *, filter='none'" in page
