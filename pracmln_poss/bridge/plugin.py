"""The plugin side: ``MLN.to_possibilistic(...)`` on pracmln's ``MLN``.

``import pracmln_poss`` calls :func:`install`, the package's one documented import
side effect (with the registration of our exact MAP among pracmln's inference methods,
:mod:`.pracmln_method`).  It does not import pracmln (that takes seconds): if pracmln is already
imported the method is added at once, otherwise an import hook adds it when
``pracmln.mln.base`` is first imported, and also applies the Python 3.11 / tkinter
and Python 3.13 fixes of :mod:`pracmln_poss.compat` before pracmln's own ``__init__`` runs, so that a plain
``import pracmln`` works after ``import pracmln_poss``.
"""

from __future__ import annotations

__all__ = ["install", "to_possibilistic"]

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Mapping, Sequence

from ..possibilistic.protocol import Theory
from ..weights import Resolution


def to_possibilistic(
    self: object,
    db: object = None,
    method: str | None = None,
    *,
    filter: str = "none",
    domains: Mapping[str, Sequence[str]] | None = None,
    domain_sizes: Mapping[str, int] | None = None,
    resolution: Resolution | str | float | None = None,
    **options: object,
) -> Theory:
    """Convert this pracmln MLN into a possibilistic logic theory.

    :param db: evidence that becomes certain (optional): a pracmln ``Database``, the
        list of one that ``Database.load`` returns, or a ``.db`` file's name.
    :param method: ``lifted`` (the default for first-order MLNs), ``defaults`` (the
        default for propositional ones), ``selective`` or ``exhaustive``.
    :param filter: ``none``, ``conservative`` or ``aggressive`` redundancy filtering.
    :param domains: domains replacing those of the model (``{"person": ["A", "B"]}``).
    :param domain_sizes: domains replaced by that many fresh constants (``{"cluster": 1}``).
    :param resolution: the unit of the exact integer weights (default ``1e-6``).
    :param options: passed to :func:`pracmln_poss.transformations.conversion.transform_mln`: ``k=2``,
        ``evidence_preds=[...]`` and ``query_preds=[...]`` (a focused conversion:
        evidence over the first predicates, conclusions about the second),
        ``family=[...]``, ``long_blocking=True``, ``backend="cpsat"``, ``progress=...``.
    :returns: a :class:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory` (lifted;
        ``.ground()`` gives the ground theory) or a
        :class:`~pracmln_poss.possibilistic.theory.PossibilisticTheory`.
    """
    from .query import convert  # (the front door that reads a pracmln MLN as the others do)

    loading = {name: value for name, value in
               (("resolution", resolution), ("domains", domains), ("domain_sizes", domain_sizes)) if value is not None}
    return convert(self, method, db=db, filter=filter, **loading, **options).theory


def _patch(base_module: types.ModuleType) -> None:
    base_module.MLN.to_possibilistic = to_possibilistic


def _register(methods_module: types.ModuleType) -> None:
    from .pracmln_method import register

    register(methods_module)


_AFTER = types.MappingProxyType({"pracmln.mln.base": _patch, "pracmln.mln.methods": _register})
"""What is done to each of these pracmln modules once it has run."""


class _PracmlnHook(importlib.abc.MetaPathFinder):
    """Prepares the interpreter (:func:`..compat.prepare_import`) before ``pracmln``, patches
    ``MLN`` after ``pracmln.mln.base`` and registers our MAP after ``pracmln.mln.methods``."""

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: types.ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name != "pracmln" and name not in _AFTER:
            return None
        if name == "pracmln":
            from ..compat import prepare_import

            prepare_import()
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module

        after = _AFTER[name]

        def exec_module(module: types.ModuleType) -> None:
            original(module)
            after(module)

        # pracmln's own loader, wrapped for this one module (typeshed has its method as fixed)
        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Give pracmln's ``MLN`` its ``to_possibilistic`` method and pracmln's
    ``InferenceMethods`` our exact MAP (:mod:`.pracmln_method`), now or when pracmln is
    imported."""
    loaded = {name: sys.modules.get(name) for name in _AFTER}
    for name, module in loaded.items():
        if module is not None:
            _AFTER[name](module)
    if all(module is not None for module in loaded.values()):
        return
    if not any(isinstance(f, _PracmlnHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _PracmlnHook())
