"""Sphinx configuration: the API reference from the docstrings, the pages of ``docs/``
and the README, built nitpicky with warnings as errors (``tox -e docs``)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import pracmln_poss  # noqa: E402

project = "pracmln_poss"
author = "the pracmln_poss developers"
copyright = "2026, " + author
release = pracmln_poss.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_heading_anchors = 3
nitpicky = True
autodoc_typehints = "signature"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
suppress_warnings = ["myst.xref_missing"]  # links to files outside the docs (examples, tests) stay plain
html_theme = "alabaster"

# Without internet there is no intersphinx: names of the standard library, typing and
# the third-party packages we use cannot be resolved, and are named here; every other
# reference (ours) must resolve.
_FOREIGN = ["int", "float", "str", "bytes", "bool", "object", "None", "list", "dict", "set", "frozenset",
            "tuple", "type", "range", "slice", "Exception", "ValueError", "KeyboardInterrupt",
            "Iterable", "Iterator", "Sequence", "Mapping", "Callable", "Generator", "Hashable", "Collection",
            "Any", "TypeVar", "Protocol", "Generic", "NamedTuple", "Path", "Fraction", "Decimal", "TextIO", "IO", "Executor", "Thread", "FrameType", "Sized", "AbstractContextManager",
            "argparse", "collections", "typing", "pathlib", "fractions", "decimal", "concurrent", "multiprocessing",
            "io", "os", "re", "enum", "faulthandler", "tempfile", "zipfile", "BinaryIO", "types", "abc", "contextlib", "functools", "itertools", "dataclasses", "threading", "signal", "logging",
            "pysat", "ortools", "pytoulbar2", "pracmln", "distributed", "dask", "tqdm", "pyparsing", "numpy"]
nitpick_ignore_regex = [
    ("py:.*", rf"({'|'.join(_FOREIGN)})(\..*)?"),
    # what autodoc names in signatures but documents nowhere: private helpers, type
    # variables, type aliases (``Level = int | float``) and a generic it cannot parse
    ("py:.*", r"(.*\.)?_\w+"),
    ("py:.*", r"(.*\.)?([TSRCP]|Shared|State|Chunk|Result)"),
    ("py:class", r"(.*\.)?Level|dict\[str"),
]

def _front_doors(name: str, module: object) -> list[str]:
    """A package's exported names: each defined here documented here, each defined in a
    module linked to its page (so every name is in the index and the search, once); the
    root package's page also documents pracmln's ``MLN.to_possibilistic``."""
    own, linked, values = [], [], []
    for exported in sorted(getattr(module, "__all__", ())):
        obj = getattr(module, exported)
        home = getattr(obj, "__module__", None)
        if home == name and callable(obj):
            own.append(f".. auto{'class' if isinstance(obj, type) else 'function'}:: {name}.{exported}")
        elif home is not None and home.startswith("pracmln_poss") and hasattr(obj, "__qualname__"):
            linked.append(f":py:obj:`~{home}.{obj.__qualname__}`")
        else:
            values.append(f"``{exported}``")
    lines = []
    if linked or values:
        lines += ["", "Its names: " + ", ".join(linked + values) + "."]
    for directive in own:
        lines += ["", directive]
    if name == "pracmln_poss":
        from pracmln_poss.bridge import plugin

        signature = inspect.signature(plugin.to_possibilistic)
        shown = signature.replace(parameters=[p.replace(annotation=inspect.Parameter.empty)
                                              for p in list(signature.parameters.values())[1:]],
                                  return_annotation=inspect.Signature.empty)
        doc = inspect.getdoc(plugin.to_possibilistic) or ""
        lines += ["", "pracmln's ``MLN.to_possibilistic``", "-" * 34, "",
                  "Importing :mod:`pracmln_poss` gives pracmln's ``MLN`` this method "
                  "(:func:`pracmln_poss.bridge.plugin.to_possibilistic`).", "",
                  f".. py:method:: MLN.to_possibilistic{shown}", "   :module: pracmln", ""]
        lines += [f"   {line}" if line else "" for line in doc.splitlines()]
    return lines


def api_pages() -> None:
    """One page per module of the package under ``api/``, and their index: every
    module's members documented where they are defined (a package's page shows its
    docstring and names what it re-exports, so no object has two homes)."""
    out = HERE / "api"
    out.mkdir(exist_ok=True)
    names = ["pracmln_poss"] + sorted(m.name for m in pkgutil.walk_packages(pracmln_poss.__path__, "pracmln_poss.")
                                      if not m.name.endswith("__main__"))  # (it runs the command line)
    pages = {}
    for name in names:
        module = importlib.import_module(name)
        package = hasattr(module, "__path__") or name == "pracmln_poss"
        title = f"``{name}``"
        body = [title, "=" * len(title), "", f".. automodule:: {name}"]
        if package:
            body.append("   :no-members:")
            body += _front_doors(name, module)
        pages[name] = "\n".join(body) + "\n"
    for stale in set(out.glob("*.rst")) - {out / f"{name}.rst" for name in pages}:
        stale.unlink()  # (a module that moved or went)
    for name, text in pages.items():
        path = out / f"{name}.rst"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    index = ["API reference", "=============", "", ".. toctree::", "   :maxdepth: 1", ""]
    index += [f"   api/{name}" for name in names]
    (HERE / "api.rst").write_text("\n".join(index) + "\n")


api_pages()
