"""A load request: what to read and how, one value checked once at the door (the Python
front doors and the command line make it) and read on the way down by the loader."""

from __future__ import annotations

__all__ = ["Loading", "LoadRequest", "READERS", "LOADING_NAMES", "one_pracmln_database"]

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from .. import arguments
from .. import pracmln_database as pracmln_db
from ..errors import ArgumentError, ArgumentTypeError, ModelError, UnknownNameError, closest
from ..logic.syntax import GRAMMARS
from ..pracmln_database import PracmlnDatabase
from ..weights import Resolution
from .database import DatabaseParts
from .project import Sources

READERS = ("auto", "native", "pracmln")
"""How a model file is read: ``native`` (:mod:`.mln_file`: fast, the constructs of
learned models), ``pracmln`` (pracmln's parser: everything pracmln reads), ``auto``
(the first, else the second)."""


@dataclass(frozen=True)
class Loading:
    """How a model is read.

    :ivar grammar: pracmln's grammar of the files (None: the project's, else ``StandardGrammar``).
    :ivar resolution: the unit of the exact integer weights.
    :ivar domains: domains that replace those of the files (``{"person": ("A", "B")}``).
    :ivar domain_sizes: domains that become that many fresh constants (``{"cluster": 1}``:
        one constant ``Cluster1``).
    :ivar reader: one of :data:`READERS`.
    :ivar ignore_unknown_preds: leave out a database's literals of predicates the model
        does not declare (pracmln's option of that name; else they are an error).
    """

    grammar: str | None = None
    resolution: Resolution = field(default_factory=Resolution)
    domains: Mapping[str, tuple[str, ...]] | None = None
    domain_sizes: Mapping[str, int] | None = None
    reader: str = "auto"
    ignore_unknown_preds: bool = False

    @classmethod
    def of(cls, given: Mapping[str, object], allowed: Collection[str] | None = None, what: str = "") -> Loading:
        """The loading options ``given`` by keyword, checked: each its type, and none but
        ``allowed`` (None: all of them) for ``what`` (what takes only those).

        :raises UnknownNameError: for an option that is not one (or not allowed here).
        :raises ArgumentTypeError: for a value of the wrong kind.
        """
        names = LOADING_NAMES if allowed is None else tuple(n for n in LOADING_NAMES if n in allowed)
        unknown = sorted(set(given) - set(names))
        if unknown:
            if what:
                raise UnknownNameError(f"{what} takes no loading option {unknown[0]!r}; it takes {', '.join(names)} "
                                       "(the others with a file name)")
            hint = closest(unknown[0], LOADING_NAMES, "the loading options")
            raise UnknownNameError(f"no loading option {unknown[0]!r}; {hint}")
        domains = arguments.domains(given.get("domains"))
        sizes = arguments.domain_sizes(given.get("domain_sizes"))
        return cls(
            grammar=_grammar(given.get("grammar")),
            resolution=arguments.resolution(given.get("resolution")),
            domains=None if domains is None else MappingProxyType({d: tuple(cs) for d, cs in domains.items()}),
            domain_sizes=None if sizes is None else MappingProxyType(sizes),
            reader=_reader(given.get("reader", "auto")),
            ignore_unknown_preds=arguments.flag("ignore_unknown_preds", given.get("ignore_unknown_preds", False)),
        )


LOADING_NAMES = tuple(f.name for f in fields(Loading))
"""The loading options, by keyword."""


def _grammar(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ArgumentTypeError(f"grammar takes a grammar's name or None, not {type(value).__name__}")
    if value not in GRAMMARS:
        raise ModelError(f"unknown grammar {value!r}; valid: {', '.join(GRAMMARS)}")
    return value


def _reader(value: object) -> str:
    if not isinstance(value, str) or value not in READERS:
        raise ModelError(f"unknown reader {value!r}; valid: {', '.join(READERS)}")
    return value


@dataclass(frozen=True)
class LoadRequest:
    """One model to load.

    :ivar model: the ``.mln`` file, a project ``X.pracmln`` (the model and database its
        ``query.conf`` names) or a model in one (``X.pracmln:NAME.mln``).
    :ivar db: a ``.db`` file (or ``X.pracmln:NAME.db``), or None.
    :ivar database: pracmln's ``Database`` instead of a file, or None.
    :ivar parts: one database of a file holding several (:func:`~.database.read_databases`)
        instead of a file, or None.
    :ivar sources: the model's text (and the project's settings) read already, or None:
        read from ``model``.
    :ivar loading: how the files are read.
    :ivar cw: pracmln's closed world: the atoms the database leaves open of every
        predicate but the query predicates and the functional ones are false; None: as
        the project says.
    :ivar cw_preds: predicates closed that way; None: the project's ``cw_preds``.
    :ivar force: close the world even when it adds more atoms than a grounding may have.
    """

    model: str | os.PathLike[str]
    db: str | os.PathLike[str] | None = None
    database: PracmlnDatabase | None = None
    loading: Loading = field(default_factory=Loading)
    parts: DatabaseParts | None = None
    sources: Sources | None = None
    cw: bool | None = False
    cw_preds: tuple[str, ...] | None = ()
    force: bool = False

    @classmethod
    def of(cls, model: object, db: object = None, loading: Loading | None = None, *, cw: object = False,
           cw_preds: object = (), force: object = False) -> LoadRequest:
        """A request from what a caller passes, checked: ``model`` a file's name, or its
        sources read already (:class:`~.project.Sources`); ``db`` a file's name, pracmln's
        ``Database``, the list of one ``Database.load`` returns, or one database of a
        file read already (:class:`~.database.DatabaseParts`).

        :raises ArgumentTypeError: for a value of the wrong kind.
        """
        sources = model if isinstance(model, Sources) else None
        path = sources.model_name if sources is not None else arguments.path("mln_path", model)
        if path is None:
            raise ArgumentTypeError("mln_path takes a file name (a string or a path), not None")
        parts = db if isinstance(db, DatabaseParts) else None
        database = one_pracmln_database(db) if parts is None else None
        db_path = None if database is not None or parts is not None else arguments.path("db_path", db)
        closing_all = arguments.closed_world(cw)
        preds = arguments.names("cw_preds", cw_preds)
        return cls(path, db_path, database, loading if loading is not None else Loading(), parts, sources,
                   closing_all, None if preds is None else tuple(preds), arguments.flag("force", force))


def one_pracmln_database(db: object) -> PracmlnDatabase | None:
    """:func:`pracmln_poss.pracmln_database.pracmln_database`, and a list that is not one database
    refused rather than read as a file name.

    :raises ArgumentError: for a list of more or fewer than one database.
    """
    database = pracmln_db.pracmln_database(db)
    if database is None and isinstance(db, (list, tuple)):
        raise ArgumentError(f"db takes one database; the list given holds {len(db)} "
                            f"{'databases (pass one of them)' if all(map(pracmln_db.is_pracmln_database, db)) else 'items'}")
    return database
