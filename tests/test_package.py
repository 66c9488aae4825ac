"""Package-level promises: import without side effects, explicit __all__, one error root."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import pracmln_poss
from pracmln_poss import errors

ROOT = Path(__file__).parent.parent


def modules():
    for info in pkgutil.walk_packages(pracmln_poss.__path__, "pracmln_poss."):
        if info.name != "pracmln_poss.__main__":
            yield info.name


def test_importing_the_package_does_not_import_pracmln():
    code = "import sys, pracmln_poss; print('pracmln' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_every_module_has_an_explicit_all():
    for name in modules():
        module = importlib.import_module(name)
        assert hasattr(module, "__all__"), name
        for exported in module.__all__:
            assert hasattr(module, exported), f"{name}.{exported}"


def test_every_error_derives_from_the_root_and_a_builtin():
    for _, cls in inspect.getmembers(errors, inspect.isclass):
        if issubclass(cls, Exception) and cls is not errors.PossError:
            assert issubclass(cls, errors.PossError), cls
            assert any(b in cls.__mro__ for b in (ValueError, KeyError, RuntimeError, ImportError)), cls
