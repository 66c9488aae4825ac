"""The transformations of a ground MLN into a possibilistic theory, by name.

``exhaustive`` (Transformation 1), ``selective`` (2), ``defaults`` (3) and ``lifted``
(4, in progress: it needs ``domains=`` and returns a lifted theory); see each module.
:func:`transform` is the common entry point.
"""

from __future__ import annotations

__all__ = ["METHODS", "transform"]

from typing import Any, Callable

from ..errors import UnknownNameError
from ..ground_mln import GroundMLN
from ..possibilistic.theory import PossibilisticTheory
from .defaults import defaults
from .exhaustive import exhaustive
from .lifted import lifted
from .selective import selective

METHODS: dict[str, Callable[..., Any]] = {
    "exhaustive": exhaustive,
    "selective": selective,
    "defaults": defaults,
    "lifted": lifted,
}


def transform(mln: GroundMLN, method: str = "defaults", **options: Any) -> PossibilisticTheory:
    """Convert ``mln`` with the named transformation; ``options`` go to it.

    :raises UnknownNameError: for a method not in :data:`METHODS`.
    """
    try:
        function = METHODS[method]
    except KeyError:
        raise UnknownNameError(f"unknown method {method!r}; valid: {', '.join(METHODS)}") from None
    return function(mln, **options)
