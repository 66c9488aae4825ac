"""The transformations of a ground MLN into a possibilistic theory, by name.

``exhaustive`` (Transformation 1), ``selective`` (2), ``defaults`` (3) and ``lifted``
(4: first-order, returns a :class:`~.variabilize.LiftedTheory`); see each module.
:func:`transform` is the common entry point; :func:`default_method` picks ``lifted``
for first-order models and ``defaults`` for propositional ones.
"""

from __future__ import annotations

__all__ = ["METHODS", "transform", "default_method"]

from typing import Any, Callable

from ..errors import UnknownNameError
from ..ground_mln import GroundMLN
from ..grounding import ground
from ..model import FirstOrderMLN
from ..possibilistic.theory import PossibilisticTheory
from .defaults import defaults
from .exhaustive import exhaustive
from .lifted import lifted
from .selective import selective
from .variabilize import LiftedTheory

METHODS: dict[str, Callable[..., Any]] = {
    "exhaustive": exhaustive,
    "selective": selective,
    "defaults": defaults,
    "lifted": lifted,
}


def default_method(model: FirstOrderMLN | GroundMLN) -> str:
    """``lifted`` for a first-order model with a predicate that takes arguments, else ``defaults``."""
    if isinstance(model, FirstOrderMLN) and any(p.domains for p in model.predicates):
        return "lifted"
    return "defaults"


def transform(
    mln: FirstOrderMLN | GroundMLN, method: str | None = None, **options: Any
) -> "PossibilisticTheory | LiftedTheory":
    """Convert ``mln`` with the named transformation (None: :func:`default_method`);
    ``options`` go to it.  A first-order model is grounded for the ground
    transformations; ``lifted`` needs the first-order model.

    :raises UnknownNameError: for a method not in :data:`METHODS`.
    """
    method = method or default_method(mln)
    try:
        function = METHODS[method]
    except KeyError:
        raise UnknownNameError(f"unknown method {method!r}; valid: {', '.join(METHODS)}") from None
    if method != "lifted" and isinstance(mln, FirstOrderMLN):
        mln = ground(mln)
    return function(mln, **options)
