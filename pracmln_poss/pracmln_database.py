"""pracmln's ``Database`` as we read it, without importing pracmln: its shape
(:class:`PracmlnDatabase`), how to tell one (:func:`is_pracmln_database`,
:func:`pracmln_database`), and its atoms as evidence literals (:func:`database_literals`)."""

from __future__ import annotations

__all__ = ["PracmlnDatabase", "is_pracmln_database", "pracmln_database", "database_literals"]

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeGuard

from .errors import UnsupportedInputError


class PracmlnDatabase(Protocol):
    """What we read of pracmln's ``Database``: its atoms' truth values (1, 0, None for
    unknown, or a soft value) and its domains."""

    @property
    def evidence(self) -> Mapping[str, float | None]: ...

    @property
    def domains(self) -> Mapping[str, Sequence[str]]: ...


def is_pracmln_database(x: object) -> TypeGuard[PracmlnDatabase]:
    """Whether ``x`` is pracmln's ``Database``, told by its shape (pracmln is not imported)."""
    return type(x).__name__ == "Database" and hasattr(x, "evidence") and hasattr(x, "domains")


def pracmln_database(items: object) -> PracmlnDatabase | None:
    """pracmln's ``Database`` given as evidence or a database (itself or the list of one
    that ``Database.load`` returns), else None."""
    if isinstance(items, (list, tuple)) and len(items) == 1 and is_pracmln_database(items[0]):
        return items[0]
    return items if is_pracmln_database(items) else None


def database_literals(database: PracmlnDatabase) -> tuple[str, ...]:
    """A pracmln database's atoms as literals (``!a`` for false); unknown atoms left out."""
    out = []
    for atom, truth in database.evidence.items():
        if truth is None:
            continue
        if truth not in (0, 1):
            raise UnsupportedInputError(f"soft evidence {atom} = {truth} is not supported by MAP inference")
        out.append(atom if truth == 1 else f"!{atom}")
    return tuple(out)
