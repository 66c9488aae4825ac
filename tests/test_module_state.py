"""No module of the package keeps state of its own: every module-level name holds a
constant (numbers, text, tuples and frozensets of constants, read-only mappings of
constants, frozen dataclasses of constants, classes, functions, modules, objects without
attributes), no function rebinds a module's name (``global``), and the few exceptions
are named here with the reason each cannot be otherwise.

What a run changes of the process (signal handlers, the watcher thread, the exception a
signal raised, deadlines, faulthandler's registrations, the collector's freeze) is owned
by an object made for the run and given back as it ends (``stopping``'s ``Guard``, which
the run's solvers are given, the
command line's ``_Ending`` and ``Freezer``): :mod:`tests.test_process_state` checks that
it is."""

from __future__ import annotations

import ast
import contextvars
import dataclasses
import enum
import functools
import importlib
import pkgutil
import re
import threading
import types
import typing
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pracmln_poss

PACKAGE = Path(pracmln_poss.__file__).parent

EXCEPTIONS = {
    "pracmln_poss.search.workers._WORKER":
        "a worker process's engine, kept between the chunks its thread runs: a task of a "
        "process pool or of Dask arrives as freshly unpickled arguments, so a pool's "
        "initializer and its chunks can reach nothing else (a forked worker keeps there too "
        "the contexts its pool gave it as it started); one per thread, as an engine is not "
        "to be shared between threads and Dask runs each chunk in a copy of the thread's "
        "context.  The threads of an executor in the search's own process keep theirs in "
        "the runner, closed with it (tests.test_process_state), except where the executor "
        "pickles even there: then a thread's engine is closed as the thread ends",
    "pracmln_poss.startup._NOTED":
        "the start-up handler notes a Ctrl-C while modules are still imported, before any "
        "command (or owner) exists; the command line reads and takes it over",
    "pracmln_poss.stopping._RUN":
        "the stoppable block running in this context, so that a block inside it joins its "
        "run: faulthandler's registrations and the signals' handlers are one per process, "
        "and an inner block that set up and gave back its own left the outer's native "
        "searches stopped by nothing",
    "pracmln_poss.compat._THREAD_DATA":
        "per-thread data of pracmln's code we patch, which has nowhere else to keep it",
    "pracmln_poss.logic.cnf._TEMPLATES":
        "a bounded memo (MAX_TEMPLATES) of a pure function: it only saves time",
    "pracmln_poss.logic.formula._SHAPES":
        "a bounded memo (MAX_SHAPES) of a pure function: it only saves time",
    "pracmln_poss.possibilistic.theory._SHOWN_AS":
        "a registry the formats layer above fills as it is imported (the theory cannot "
        "import it: the arrow would point up)",
}
"""Module-level names that hold mutable values, each with why."""

_CONSTANT_TYPES = (
    type(None), bool, int, float, complex, str, bytes, range, Decimal, Fraction, types.ModuleType, type,
    types.FunctionType, types.BuiltinFunctionType, types.MethodType, typing.TypeVar, typing.ParamSpec,
    enum.Enum, re.Pattern, functools._lru_cache_wrapper, functools.partial, property, staticmethod, classmethod,
)


def constant(value: object) -> bool:
    """Whether ``value`` cannot change (as far as Python lets one tell)."""
    if isinstance(value, _CONSTANT_TYPES):
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(constant(item) for item in value)
    if isinstance(value, types.MappingProxyType):
        return all(constant(k) and constant(v) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return value.__dataclass_params__.frozen and all(  # type: ignore[attr-defined]
            constant(getattr(value, f.name)) for f in dataclasses.fields(value))
    if type(value).__module__ in ("typing", "types", "typing_extensions", "collections.abc", "abc"):
        return True  # (type aliases and special forms)
    if isinstance(value, (list, dict, set, bytearray, threading.local, contextvars.ContextVar)):
        return False
    slots = [name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ())]
    return not getattr(value, "__dict__", {}) and not slots  # (a stateless object: a sentinel, a fold)


def _modules() -> list[types.ModuleType]:
    return [importlib.import_module(info.name)
            for info in pkgutil.walk_packages(pracmln_poss.__path__, "pracmln_poss.")
            if not info.name.endswith("__main__")]


def test_every_module_level_name_holds_a_constant_or_is_a_named_exception():
    found = {}
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("__") or name == "annotations":
                continue
            if callable(value) and getattr(value, "__module__", module.__name__) != module.__name__:
                continue  # (imported: checked where it is defined)
            if not constant(value):
                found[f"{module.__name__}.{name}"] = type(value).__name__
    assert sorted(set(found) - set(EXCEPTIONS)) == []
    assert sorted(set(EXCEPTIONS) - set(found)) == []  # (an exception that went stays out of the list)


def test_no_function_rebinds_a_modules_name():
    rebinding = [f"{path.relative_to(PACKAGE)}:{node.lineno}: global {', '.join(node.names)}"
                 for path in sorted(PACKAGE.rglob("*.py"))
                 for node in ast.walk(ast.parse(path.read_text(), str(path)))
                 if isinstance(node, ast.Global)]
    assert rebinding == []


def test_the_constant_test_tells_state_from_constants():
    @dataclasses.dataclass(frozen=True)
    class Frozen:
        items: tuple[int, ...]

    @dataclasses.dataclass
    class Thawed:
        items: tuple[int, ...]

    assert all(map(constant, [None, 1, "a", (1, ("b",)), frozenset({2}), types.MappingProxyType({"a": 1}),
                              Frozen((1,)), object(), Decimal("1e-6"), len]))
    assert not any(map(constant, [[], {}, set(), (1, []), types.MappingProxyType({"a": []}), Frozen(([],)),  # type: ignore[arg-type]
                                  Thawed((1,)), threading.local(), contextvars.ContextVar("x")]))
