"""pracmln's query from Python: a model and its database, answered as the command line's
``map`` answers them.

A model is a file or project name, pracmln's ``MLN``, a :class:`~pracmln_poss.model.first_order.FirstOrderMLN`
or a :class:`~pracmln_poss.model.ground_mln.GroundMLN`; a database a ``.db`` file or project
member name, pracmln's ``Database`` or the list of one that ``Database.load`` returns.
The closed world is decided here, once, as pracmln's inference decides it
(:mod:`pracmln_poss.model.closed_world`): for MAP inference (:func:`map_inference`,
:func:`load_ground`, the CLI's ``map`` and ``explain``) the project's ``cw`` and
``cw_preds`` apply unless overridden, each key on its own; a conversion
(:func:`load_first_order`, the CLI's ``convert``) leaves the world open.
"""

from __future__ import annotations

__all__ = ["load_first_order", "load_ground", "map_inference", "map_inferences", "open_query", "query_of", "Query",
           "transform", "convert", "sweep"]

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..errors import ArgumentError, ArgumentTypeError
from ..logic.syntax import atom_name
from ..map import DEFAULT_BACKEND, MapEngine, open_engine
from ..map.inference import MapInference
from ..model.closed_world import close_as_asked, close_world
from ..model.first_order import EvidenceLiteral, FirstOrderMLN
from ..model.ground_mln import GroundMLN
from ..model.grounding import ground
from ..possibilistic.protocol import Theory
from ..pracmln_database import is_pracmln_database
from ..stopping import Guard
from .database import DatabaseParts, SeveralDatabasesError
from .project import ProjectSettings, Sources
from .request import LOADING_NAMES, Loading, LoadRequest

if TYPE_CHECKING:  # (the transformations: imported by a conversion, not by map; see transformations/__init__)
    from ..insight.sweep import Sweep
    from ..transformations.conversion import Conversion
    from ..transformations.options import MethodOptions


def _first_order(model: object, db: object, options: Mapping[str, object], cw: bool | None = False,
                 ) -> tuple[FirstOrderMLN, ProjectSettings]:
    """The first-order model (world open unless ``cw``) and the project's settings of what
    was given; ``options`` the loading options (:class:`~.request.Loading`), checked here."""
    from .loader import from_pracmln, load, pracmln_database_of

    if isinstance(model, (str, os.PathLike, Sources)):  # (Sources: a file's texts read already)
        loaded = load(LoadRequest.of(model, db, Loading.of(options), cw=cw))
        return loaded.model, loaded.settings
    if type(model).__name__ == "MLN" and hasattr(model, "predicates"):  # pracmln's MLN
        loading = Loading.of(options, ("resolution", "domains", "domain_sizes"), "a pracmln MLN")
        database = db if isinstance(db, DatabaseParts) else pracmln_database_of(model, db)
        return from_pracmln(model, database, loading), ProjectSettings()
    if isinstance(model, FirstOrderMLN):
        if db is not None or options:
            raise ArgumentError("a FirstOrderMLN has its evidence and domains already; give db and loading options "
                                "with a file name or pracmln's MLN")
        return model, ProjectSettings()
    raise ArgumentTypeError(f"model takes a file or project name, pracmln's MLN, a FirstOrderMLN or a GroundMLN, "
                            f"not {type(model).__name__}")


def load_first_order(model: object, db: object = None, *, cw: bool | None = False, **options: object
                     ) -> FirstOrderMLN:
    """A model (and database) first-order, for a conversion: the world left open, as
    ``convert`` reads it.  ``model``: a file or project name, or pracmln's ``MLN``;
    ``db``: a ``.db`` name, pracmln's ``Database`` or the list of one ``Database.load``
    returns.  Options are the loading options (:class:`~.request.Loading`: ``grammar``,
    ``resolution``, ``domains``, ``domain_sizes``, ``reader``); ``cw=True`` closes the
    world here too."""
    return _first_order(model, db, options, cw)[0]


def load_ground(model: object, db: object = None, *, cw: bool | None = None, cw_preds: Sequence[str] | None = None,
                force: bool = False, **options: object) -> GroundMLN:
    """A model (and database) grounded for MAP inference, as ``map`` reads it: the
    project's closed world applies unless ``cw``/``cw_preds`` say otherwise (the
    database's atoms and the closed ones are hard evidence of the ground model).
    ``model`` and ``db`` as in :func:`load_first_order`."""
    query = query_of(model, db, options, cw, cw_preds, None, force)
    return ground(query.closed_model, force=force)


@dataclass(frozen=True)
class Query:
    """A model as MAP inference takes it: first-order with its database (world open),
    the predicates the closed world closes and the model closed."""

    model: FirstOrderMLN
    settings: ProjectSettings
    closed_preds: tuple[str, ...]
    closed_model: FirstOrderMLN

    @property
    def closed_count(self) -> int:
        """How many atoms the closed world makes false."""
        return len(self.closed_model.evidence) - len(self.model.evidence)

    def inference(self, backend: str = DEFAULT_BACKEND, force: bool = False,
                  open_atoms: Iterable[tuple[str, tuple[str, ...]]] = (), guard: Guard | None = None) -> MapInference:
        """MAP inference on the model with its database and closed world as hard evidence
        (the fast way), ``open_atoms`` (``(pred, args)``) left open; a question naming
        other closed atoms gets a model that leaves them open too, and the database's
        penalty is measured on the model without them (:class:`~pracmln_poss.map.inference.MapInference`);
        its solves go through ``guard``, the run's (None: their own)."""
        given = frozenset(open_atoms)

        def engine(opened: frozenset[tuple[str, tuple[str, ...]]]) -> MapEngine:
            left_open = given | opened
            model = (close_world(self.model, self.closed_preds, left_open, force=force) if left_open
                     else self.closed_model)  # (closed once already: nothing left open)
            return open_engine(ground(model, force=force), backend, guard)

        main = engine(frozenset())
        gmln = main.mln
        closed = {gmln.atom(atom_name(e.pred, e.args)): (e.pred, e.args)
                  for e in _closed_literals(self, given)}

        def reopen(atoms: frozenset[int]) -> MapEngine:
            return engine(frozenset(closed[a] for a in atoms))

        without = replace(self.model, evidence=())
        free = (lambda: open_engine(ground(without, force=force), backend, guard)) if self.model.evidence or closed else None
        return MapInference(main, closed, reopen, free)


def _closed_literals(query: Query, given: frozenset[tuple[str, tuple[str, ...]]]) -> list[EvidenceLiteral]:
    """The closed world's literals, but those of ``given``."""
    return [e for e in query.closed_model.evidence[len(query.model.evidence):] if (e.pred, e.args) not in given]


def open_query(model: object, db: object = None, *, cw: bool | None = None, cw_preds: Sequence[str] | None = None,
               queries: Sequence[str] | None = None, force: bool = False, **options: object) -> Query:
    """The model and database as MAP inference takes them, the closed world decided
    (``cw``, ``cw_preds``, ``queries``: None takes the project's, each on its own);
    ``options`` the loading options (:class:`~.request.Loading`)."""
    return query_of(model, db, options, cw, cw_preds, queries, force)


def query_of(model: object, db: object, options: Mapping[str, object], cw: object = None, cw_preds: object = None,
             queries: Sequence[str] | None = None, force: bool = False) -> Query:
    """:func:`open_query` with the loading options as a mapping (the command line's)."""
    from .. import arguments

    closing_all = arguments.closed_world(cw)
    preds = arguments.names("cw_preds", cw_preds)
    first, settings = _first_order(model, db, options)
    closed, closing = close_as_asked(first, closing_all, preds, settings.cw, settings.cw_preds,
                                     (settings.queries or ()) if queries is None else queries, force=force)
    return Query(first, settings, closing, closed)


def map_inference(model: object, db: object = None, *, backend: str = DEFAULT_BACKEND, cw: bool | None = None,
                  cw_preds: Sequence[str] | None = None, queries: Sequence[str] | None = None, force: bool = False,
                  guard: Guard | None = None, **options: object) -> MapInference:
    """MAP inference as pracmln's ``MLNQuery`` (and the CLI's ``map``) answers it, by
    atom name and in weight units; use it as a context manager.

    :param model: a file or project name, pracmln's ``MLN``, a ``FirstOrderMLN`` or a
        ``GroundMLN`` (whose hard evidence is part of it).
    :param db: a ``.db`` name, pracmln's ``Database`` or the list of one; its atoms are
        hard evidence, part of the model (``database_penalty()`` counts them as evidence).
    :param cw: pracmln's closed world (None: the project's ``cw``, else off).
    :param cw_preds: predicates closed (None: the project's ``cw_preds``).
    :param queries: the query predicates ``cw`` leaves open (None: the project's).
    :param guard: the run's :class:`~pracmln_poss.stopping.Guard` (None: the solvers'
        own, which signals do not stop).
    :param options: the loading options (:class:`~.request.Loading`).

    >>> from pracmln_poss import map_inference
    >>> with map_inference("examples/antarctic/antarctic.mln") as m:
    ...     m.penalty(["antarcticBird(Tweety)"]), m.map_world(["antarcticBird(Tweety)"])["flies(Tweety)"]
    (5.0, True)
    """
    if isinstance(model, GroundMLN):
        if db is not None or options or cw or cw_preds:
            raise ArgumentError("a GroundMLN has its evidence already and no predicates to close; give db, "
                                "cw and loading options with a file name or pracmln's MLN")
        return MapInference(open_engine(model, backend, guard))
    return query_of(model, db, options, cw, cw_preds, queries, force).inference(backend, force, guard=guard)


def map_inferences(model: object, db: object = None, **options: object) -> Iterator[MapInference]:
    """:func:`map_inference` on each database ``db`` holds, in order: a file of several
    separated by ``---`` (read once, as the command line's ``map`` reads it), or the list
    of several that pracmln's ``Database.load`` returns; anything else is one database.
    The options are :func:`map_inference`'s.

    >>> from pracmln_poss import map_inferences
    >>> for m in map_inferences("examples/paper/smokers.mln", "examples/paper/smokers-scenes.db"):
    ...     with m:
    ...         m.database_penalty()
    0.0
    0.0
    10.0
    """
    if isinstance(db, (list, tuple)) and db and all(map(is_pracmln_database, db)):
        for one in db:
            yield map_inference(model, one, **options)  # type: ignore[arg-type]
        return
    try:
        first = map_inference(model, db, **options)  # type: ignore[arg-type]
    except SeveralDatabasesError as several:  # (its databases read, and the model's texts with them)
        for parts in several.databases:
            yield map_inference(several.sources or model, parts, **options)  # type: ignore[arg-type]
        return
    yield first


def _conversion_model(model: object, db: object, loading: Mapping[str, object]) -> FirstOrderMLN | GroundMLN:
    """The model of a conversion: itself when ours (no db), else loaded with the world open."""
    if isinstance(model, (FirstOrderMLN, GroundMLN)) and db is None and not loading:
        return model
    if isinstance(model, GroundMLN):
        raise ArgumentError("a GroundMLN has its evidence already; give db and loading options with a file name "
                            "or pracmln's MLN")
    return _first_order(model, db, loading)[0]


def _split(options: dict[str, object]) -> dict[str, object]:
    """The loading options of ``options``, taken out of it (the others go to the method)."""
    return {name: options.pop(name) for name in LOADING_NAMES if name in options}


def transform(model: object, method: str | MethodOptions | None = None, *, db: object = None,
              **options: object) -> Theory:
    """:func:`pracmln_poss.transformations.conversion.transform_mln` on any model: also a
    file or project name or pracmln's ``MLN`` (with ``db``: a ``.db`` name, pracmln's
    ``Database`` or the list of one), loaded as ``convert`` loads it (the world open);
    loading options (:class:`~.request.Loading`) go to the loader, the others to the
    method (``method``: its name, or its options object, ``DefaultsOptions(k=2)``).

    >>> from pracmln_poss import DefaultsOptions, GroundMLN, possibilistic_inference, transform
    >>> mln = GroundMLN.from_pairs([("bird => flies", 2), ("penguin => !flies", 5), ("penguin => bird", "inf")])
    >>> theory = transform(mln, DefaultsOptions(k=1))
    >>> transform(mln, "defaults", k=1) == theory
    True
    >>> with possibilistic_inference(theory) as ask:
    ...     ask.entails(["bird"], "flies"), ask.entails(["penguin"], "!flies")
    (True, True)
    """
    from ..transformations import conversion

    loading = _split(options)
    return conversion.transform_given(_conversion_model(model, db, loading), method, options)


def convert(model: object, method: str | MethodOptions | None = None, *, db: object = None, filter: str = "none",
            **options: object) -> Conversion:
    """:func:`pracmln_poss.transformations.conversion.convert_mln` on any model, as :func:`transform`:
    the theory, then its redundant rules filtered (``filter``).

    >>> from pracmln_poss import GroundMLN, convert
    >>> mln = GroundMLN.from_pairs([("bird => flies", 2), ("penguin => !flies", 5), ("penguin => bird", "inf")])
    >>> done = convert(mln, "defaults", k=1, filter="aggressive")
    >>> len(done.theory), done.removed
    (3, 2)
    """
    from ..transformations import conversion

    loading = _split(options)
    return conversion.convert_mln(_conversion_model(model, db, loading), method, filter=filter, **options)


def sweep(model: object, domain_sizes: Mapping[str, int | Iterable[int]], method: str | None = None, *,
          db: object = None, filter: str = "none", **options: object) -> Sweep:
    """The theory of a first-order model at each of a range of domain sizes, compared size
    by size (:func:`pracmln_poss.insight.sweep.sweep`): ``domain_sizes`` maps a domain to a
    size or to several (``{"cluster": range(1, 11)}``); the domains given several step
    through them together.  The model is loaded as :func:`convert` loads it (a file,
    project or pracmln ``MLN``, with ``db`` and loading options), each size's theory the
    one :func:`convert` makes at that size alone.

    :raises ArgumentError: for no sizes, or swept domains giving different numbers of them.

    >>> from pracmln_poss import sweep
    >>> from pracmln_poss.insight.sweep import size_label
    >>> result = sweep("examples/paper/smokers.mln", {"person": [1, 2, 3, 4]}, k=1)
    >>> [step.rules for step in result.steps], size_label(result.steps[result.stable_from].sizes)
    ([4, 6, 6, 6], 'person=2')
    """
    from ..insight.sweep import sweep as sweep_sizes

    sizes = {name: [value] if isinstance(value, int) else list(value) for name, value in domain_sizes.items()}
    counts = {len(v) for v in sizes.values() if len(v) != 1}
    if not sizes or any(not v for v in sizes.values()) or len(counts) > 1:
        raise ArgumentError("domain_sizes maps each domain to a size or to sizes, those given several as many each")
    steps = [{name: v[i] if len(v) > 1 else v[0] for name, v in sizes.items()} for i in range(max(counts, default=1))]
    loading = _split(options)
    first = _conversion_model(model, db, {**loading, "domain_sizes": steps[0]})
    if not isinstance(first, FirstOrderMLN):
        raise ArgumentError("a sweep takes a first-order model (its domains are resized)")
    return sweep_sizes(first, steps, method, filter=filter, options=options)
