"""pracmln_poss: read a Markov logic network as a possibilistic logic theory.

Implements Kuzelka, Davis and Schockaert, *Encoding Markov Logic Networks in
Possibilistic Logic* (UAI 2015).  The core (ground MLNs, exact MAP inference)
works on plain data; :mod:`pracmln_poss.bridge` is the only part that imports
pracmln, and only when called.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import (
    InconsistentEvidenceError,
    InconsistentModelError,
    ModelError,
    PossError,
    UnknownNameError,
)
from .ground_mln import GroundMLN, WeightedFormula
from .grounding import ground
from .map import BACKENDS, MapEngine, World, open_engine
from .model import FirstOrderMLN
from .weights import INF, Resolution


def load(mln_path: str, db_path: str | None = None, **options: object) -> GroundMLN:
    """Load an ``.mln`` (and ``.db``) file through pracmln and ground it.

    Options are those of :func:`pracmln_poss.bridge.loader.load_model`.
    """
    from .bridge.loader import load_model

    return ground(load_model(mln_path, db_path, **options).model)  # type: ignore[arg-type]


__all__ = [
    "__version__",
    "BACKENDS",
    "FirstOrderMLN",
    "GroundMLN",
    "INF",
    "InconsistentEvidenceError",
    "InconsistentModelError",
    "MapEngine",
    "ModelError",
    "PossError",
    "Resolution",
    "UnknownNameError",
    "WeightedFormula",
    "World",
    "ground",
    "load",
    "open_engine",
]
