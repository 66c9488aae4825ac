"""pracmln_poss: read a Markov logic network as a possibilistic logic theory.

Implements Kuzelka, Davis and Schockaert, *Encoding Markov Logic Networks in
Possibilistic Logic* (UAI 2015).  The core (ground MLNs, exact MAP inference)
works on plain data; pracmln is imported only when called, by :mod:`pracmln_poss.bridge`
(reading models, pracmln's objects) and by the ``wcsp`` MAP backend
(:mod:`pracmln_poss.map.wcsp`, which runs pracmln's own WCSP inference).

Importing this package wires it up, here and nowhere else: theories show themselves
with the text format (``print``) and the table of :mod:`pracmln_poss.insight.show` (a
notebook), which live in layers above theirs; and, the one effect outside the package,
pracmln's ``MLN`` gets a ``to_possibilistic(db=None, method=None, k=..., filter=...)``
method, at once if pracmln is already imported, else when it is (see
:mod:`pracmln_poss.bridge.plugin`).  No other module does anything on import beyond
defining its names.

pracmln 1.2.4 does not import on Python >= 3.10 by itself; after ``import pracmln_poss``
a plain ``import pracmln`` works, and ``pracmln_poss.pracmln`` is the pracmln module
(imported on first use).
"""

from __future__ import annotations

try:
    from . import startup as _startup
except KeyboardInterrupt:  # (a Ctrl-C while that first module loads: before, a traceback)
    from . import startup as _startup  # (loaded again: the first load left nothing behind)

    if not _startup.is_command_line():
        raise
    _startup.end_interrupted()

if _startup.is_command_line():  # (a Ctrl-C while it starts: one line, status 130; before any other import)
    _startup.note_interrupts()
try:
    from typing import TYPE_CHECKING  # (3.4 ms: a Ctrl-C in it was a traceback)

    from .bridge.plugin import install as _install_plugin
    from .bridge.query import convert, load_first_order, load_ground, map_inference, map_inferences, sweep, transform
    from .errors import (
        InconsistentEvidenceError,
        InconsistentModelError,
        ModelError,
        PossError,
        UnknownNameError,
    )
    from .formats import dumps, load_theory, loads, save
    from .insight.explain import Explanation, explain
    from .map import BACKENDS, MapEngine, World, open_engine
    from .map.inference import MapInference
    from .model.first_order import FirstOrderMLN
    from .model.ground_mln import GroundMLN, WeightedFormula
    from .model.grounding import ground
    from .possibilistic import (
        PossibilisticFormula,
        PossibilisticInference,
        PossibilisticTheory,
        Reasoner,
        possibilistic_inference,
    )
    from .possibilistic.filtering import filter_redundant
    from .possibilistic.lifted_theory import LiftedTheory
    from .possibilistic.protocol import Theory
    from .possibilistic.theory import register_display
    from .version import __version__
    from .weights import INF, Resolution

    if TYPE_CHECKING:
        from .insight.report import report_html, write_report
        from .search.focus import Focus
        from .transformations import (
            METHODS,
            Conversion,
            DefaultsOptions,
            ExhaustiveOptions,
            LiftedOptions,
            MethodOptions,
            Runtime,
            SelectiveOptions,
        )
finally:  # (a Ctrl-C noted meanwhile ends the process, whatever the imports did)
    _startup.end_if_interrupted()


def _theory_html(theory: Theory) -> str:
    from .insight.report import theory_html  # (imported when a notebook first shows a theory)

    return theory_html(theory)


register_display("text", dumps)  # print(theory) writes its text format
register_display("html", _theory_html)  # a notebook: its digest when large, its levels
_install_plugin()  # the documented side effect: MLN.to_possibilistic once pracmln is imported


_TRANSFORMATIONS = ("METHODS", "Conversion", "ExhaustiveOptions", "SelectiveOptions", "DefaultsOptions", "LiftedOptions",
                    "MethodOptions", "Runtime", "Focus")
"""The names of :mod:`pracmln_poss.transformations` the package gives too: each method's
options class (which is the method: ``DefaultsOptions(k=2).run(mln)``), what they share,
and the focus of a conversion."""


def __getattr__(name: str) -> object:
    if name == "pracmln":  # the working pracmln module, imported on first use
        from .compat import import_pracmln

        return import_pracmln()
    if name in ("report_html", "write_report"):  # (imported when first asked for)
        from .insight import report

        return getattr(report, name)
    if name in _TRANSFORMATIONS:  # (the transformations are imported by the first conversion)
        from . import transformations

        return getattr(transformations, name)
    if name == "load":  # the name of 0.1.0, beside loads/load_theory (theory files) it misled
        import warnings

        warnings.warn("pracmln_poss.load is now pracmln_poss.load_ground", DeprecationWarning, stacklevel=2)
        return load_ground
    raise AttributeError(f"module 'pracmln_poss' has no attribute {name!r}")


__all__ = [
    "__version__",
    "BACKENDS",
    "FirstOrderMLN",
    "GroundMLN",
    "INF",
    "LiftedTheory",
    "InconsistentEvidenceError",
    "InconsistentModelError",
    "METHODS",
    "Conversion",
    "convert",
    "sweep",
    "MapEngine",
    "MapInference",
    "map_inference",
    "map_inferences",
    "ModelError",
    "PossibilisticFormula",
    "PossibilisticInference",
    "PossibilisticTheory",
    "possibilistic_inference",
    "Reasoner",
    "PossError",
    "Theory",
    "Resolution",
    "UnknownNameError",
    "WeightedFormula",
    "World",
    "dumps",
    "Explanation",
    "explain",
    "filter_redundant",
    "ground",
    "load_ground",
    "load_first_order",
    "load_theory",
    "loads",
    "open_engine",
    "save",
    "transform",
    "report_html",
    "write_report",
    "ExhaustiveOptions",
    "SelectiveOptions",
    "DefaultsOptions",
    "LiftedOptions",
    "MethodOptions",
    "Runtime",
    "Focus",
]
