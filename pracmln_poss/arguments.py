"""Checking what a caller passes at the front doors (``transform``, ``convert``,
``MLN.to_possibilistic``, ``load_ground``): one ``TypeError`` or ``ValueError`` (both
:class:`~pracmln_poss.errors.PossError`) naming the parameter and what it takes, before
anything deeper sees the value."""

from __future__ import annotations

__all__ = ["integer", "names", "path", "domains", "domain_sizes", "resolution", "instance", "text"]

import os
from collections.abc import Iterable, Mapping
from decimal import Decimal
from types import UnionType

from .errors import ArgumentError, ArgumentTypeError
from .weights import Resolution


def integer(name: str, value: object, minimum: int = 0) -> int:
    """An int (not a bool, a float or a string) of at least ``minimum``."""
    if type(value) is not int:
        raise ArgumentTypeError(f"{name} takes an int, not {_shown(value)}")
    if value < minimum:
        raise ArgumentError(f"{name} must be at least {minimum}, got {value}")
    return value


def names(name: str, value: object) -> list[str] | None:
    """None (no restriction), or a collection of names (an empty one: none of them)."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        hint = f"; write [{value!r}]" if isinstance(value, str) else ""
        raise ArgumentTypeError(f"{name} takes a list of names or None, not {_shown(value)}{hint}")
    out = list(value)
    for item in out:
        if not isinstance(item, str):
            raise ArgumentTypeError(f"{name} takes names (strings), not {_shown(item)}")
    return out


def path(name: str, value: object) -> str | os.PathLike[str] | None:
    """None, or a file name (a string or a path)."""
    if value is None or isinstance(value, (str, os.PathLike)):
        return value
    raise ArgumentTypeError(f"{name} takes a file name (a string or a path) or None, not {_shown(value)}")


def domains(value: object) -> dict[str, list[str]] | None:
    """None, or a mapping of domain names to collections of constants."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"domains takes a mapping such as {{'person': ['Anna', 'Bob']}}, not {_shown(value)}")
    out: dict[str, list[str]] = {}
    for domain, constants in value.items():
        if not isinstance(domain, str):
            raise ArgumentTypeError(f"domains takes domain names (strings) as keys, not {_shown(domain)}")
        listed = names(f"domains[{domain!r}]", constants)
        out[domain] = listed if listed is not None else []
    return out


def domain_sizes(value: object) -> dict[str, int] | None:
    """None, or a mapping of domain names to sizes (ints of at least 1)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(f"domain_sizes takes a mapping such as {{'person': 3}}, not {_shown(value)}")
    out: dict[str, int] = {}
    for domain, size in value.items():
        if not isinstance(domain, str):
            raise ArgumentTypeError(f"domain_sizes takes domain names (strings) as keys, not {_shown(domain)}")
        out[domain] = integer(f"domain_sizes[{domain!r}]", size, 1)
    return out


def resolution(value: object) -> Resolution:
    """A :class:`~pracmln_poss.weights.Resolution`, or what makes one: a number (``1e-6``,
    read as the shortest decimal that gives the float), its text (``"1e-6"``) or a
    ``Decimal``; None is the default."""
    if value is None or isinstance(value, Resolution):
        return Resolution.of(value)
    if isinstance(value, (str, Decimal, int, float)) and not isinstance(value, bool):
        return Resolution(value)
    raise ArgumentTypeError(f"resolution takes a number such as 1e-6 or '1e-6', not {_shown(value)}")


def closed_world(value: object) -> bool | None:
    """``cw``: True, False, or None (the project's)."""
    if value is not None and not isinstance(value, bool):
        raise ArgumentTypeError(f"cw takes True, False or None (the project's), not {type(value).__name__}")
    return value


def instance(name: str, value: object, kinds: type | UnionType | tuple[type, ...], what: str) -> None:
    """Refuse a ``value`` that is none of ``kinds`` (``what`` says what it takes)."""
    if not isinstance(value, kinds):
        raise ArgumentTypeError(f"{name} takes {what}, not {_shown(value)}")


def flag(name: str, value: object) -> bool:
    """True or False, nothing else (a string such as ``"no"`` would be true)."""
    instance(name, value, bool, "True or False")
    return bool(value)


def text(name: str, value: object) -> str:
    """A string (the text of a file, a formula)."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} takes a string, not {_shown(value)}")
    return value


def _shown(value: object) -> str:
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"
