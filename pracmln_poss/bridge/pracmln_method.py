"""Our exact MAP as one of pracmln's own inference methods.

pracmln's ``MLNQuery(mln=..., db=..., method=...)``, its query tool's method list and
any code that reads ``pracmln.mln.methods.InferenceMethods`` find their methods in that
registry.  ``import pracmln_poss`` adds :data:`METHOD_NAME` to it once pracmln is
imported (:mod:`.plugin`'s hook), so that a pracmln user reaches our MAP from their own
code::

    MLNQuery(mln=mln, db=db, method="Exact MAP (pracmln_poss)").run().results

The method is an inference class of pracmln's shape (:func:`inference_class`): pracmln's
``Inference`` base reads the ``queries`` and applies ``cw`` and ``cw_preds`` to the MRF's
evidence as for its own methods; ``_run`` takes that evidence as a database, solves it
exactly (:func:`~.query.map_inference`, the command line's ``map``) and gives each query
1.0 or 0.0: its truth in the MAP world found.  ``backend=`` among the parameters picks
the MAP backend.
"""

from __future__ import annotations

__all__ = ["METHOD_NAME", "inference_class", "map_results", "register"]

import functools
import types
from typing import Any

from ..errors import UnsupportedInputError

METHOD_NAME = "Exact MAP (pracmln_poss)"
"""The method's name in pracmln's ``InferenceMethods`` (what ``MLNQuery``'s ``method`` takes)."""


@functools.cache
def inference_class() -> type:
    """pracmln's ``Inference`` subclass that answers by our exact MAP (made once, when
    pracmln is imported: it derives from pracmln's class)."""
    from pracmln.mln.inference.infer import Inference

    class ExactMAP(Inference):  # type: ignore[misc]
        """Exact MAP inference by pracmln_poss: each query 1.0 or 0.0, its truth in a MAP
        world of the MRF's evidence (pracmln's ``cw`` and ``cw_preds`` applied)."""

        def _run(self) -> dict[str, float]:
            return map_results(self.mrf, self.queries, self._params.get("backend"))

    ExactMAP.__module__ = __name__
    ExactMAP.__qualname__ = "ExactMAP"
    return ExactMAP


def map_results(mrf: Any, queries: list[Any], backend: str | None = None) -> dict[str, float]:
    """Each query's truth (1.0 or 0.0) in a MAP world of ``mrf``'s evidence (pracmln's MRF).

    :raises UnsupportedInputError: soft evidence (a value strictly between 0 and 1).
    """
    from ..compat import import_pracmln
    from ..map import DEFAULT_BACKEND
    from .query import map_inference

    mln = mrf.mln
    db = import_pracmln().Database(mln)
    db.domain({name: list(values) for name, values in mrf.domains.items()})  # (constants without evidence too)
    for atom in mrf.gndatoms:
        value = mrf.evidence[atom.idx]
        if value is None:
            continue
        if value not in (0, 1):
            raise UnsupportedInputError(f"soft evidence {value:g} on {atom}: exact MAP takes evidence true or false")
        db[str(atom)] = value
    with map_inference(mln, db, backend=backend or DEFAULT_BACKEND, cw=False, cw_preds=[]) as inference:
        world = inference.map_world()
    values = [0.0] * len(mrf.gndatoms)
    for atom in mrf.gndatoms:
        found = world.get(str(atom))
        values[atom.idx] = float(found if found is not None else mrf.evidence[atom.idx] or 0)
    return {str(query): float(query.truth(values)) for query in queries}


def register(methods: types.ModuleType) -> None:
    """Add :data:`METHOD_NAME` to ``methods.InferenceMethods`` (pracmln's registry,
    ``pracmln.mln.methods``), under its class's name as pracmln's own are."""
    registry = methods.InferenceMethods
    cls = inference_class()
    registry.id2name[cls.__name__] = METHOD_NAME
    registry.name2id[METHOD_NAME] = cls.__name__
    registry.id2clazz[cls.__name__] = cls
