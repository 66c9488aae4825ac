"""Importing pracmln 1.2.4 on Python 3.11, with or without tkinter.

pracmln's package ``__init__`` imports its Tk GUIs.  On Python >= 3.10,
``pracmln.mlnquery`` imports ``StringVar`` from ``tkinter.filedialog``, which no longer
re-exports it; on Pythons built without tkinter the import fails outright.  We
never touch pracmln's files: before the first import we give ``tkinter.filedialog``
the missing name, or, where tkinter is absent, register inert stand-in modules
that satisfy the GUI imports (the GUIs are never used by this package).
"""

from __future__ import annotations

__all__ = ["import_pracmln", "pracmln_available"]

import importlib
import sys
import types
from functools import lru_cache

from ..errors import DependencyError

_TK_MODULES = (
    "tkinter",
    "tkinter.filedialog",
    "tkinter.messagebox",
    "tkinter.simpledialog",
    "tkinter.constants",
    "tkinter.font",
    "tkinter.ttk",
    "_tkinter",
)


class _Inert:
    """Stand-in for any Tk class or function: accepts everything, does nothing."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def __call__(self, *args: object, **kwargs: object) -> "_Inert":
        return self

    def __getattr__(self, name: str) -> "_Inert":
        return self


def _stub_module(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__["__all__"] = []  # `from tkinter import *` binds nothing

    def __getattr__(attr: str) -> object:
        if attr.startswith("__"):
            raise AttributeError(attr)
        if attr.isupper():
            return attr.lower()  # constants such as END, LEFT
        return type(attr, (_Inert,), {})

    module.__getattr__ = __getattr__  # type: ignore[attr-defined]
    module.__path__ = []  # a package, so submodule imports resolve to stubs
    return module


def _prepare_tkinter() -> None:
    try:
        import tkinter
        import tkinter.filedialog
    except ImportError:
        for name in _TK_MODULES:
            sys.modules.setdefault(name, _stub_module(name))
        return
    if not hasattr(tkinter.filedialog, "StringVar"):
        tkinter.filedialog.StringVar = tkinter.StringVar  # type: ignore[attr-defined]


@lru_cache(maxsize=None)
def import_pracmln() -> types.ModuleType:
    """Import and return the :mod:`pracmln` package.

    :raises DependencyError: when pracmln is not installed or fails to import.
    """
    _prepare_tkinter()
    try:
        # not under redirect_stdout: pracmln binds sys.stdout.buffer as a default
        # argument at import time
        module = importlib.import_module("pracmln")
    except ImportError as exc:
        raise DependencyError(
            f"pracmln cannot be imported ({exc}); install it with "
            "`python tools/install_pracmln.py` (see README)"
        ) from exc
    return module


def pracmln_available() -> bool:
    """Whether pracmln can be imported here (without raising)."""
    try:
        import_pracmln()
    except DependencyError:
        return False
    return True
