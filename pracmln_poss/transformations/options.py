"""What a conversion is asked for, as values: each transformation's options class *is*
the method (its :meth:`~MethodOptions.run`), checked when made; what a run needs besides
(progress, statistics, workers, a checkpoint) travels apart, in :class:`Runtime`.

The fields say how the command line gives them (:class:`Flag`, in their metadata): ``convert``
builds its method flags from them, so a flag and an option cannot drift apart, and a flag
the chosen method lacks is an error.  Each field declares its check with it
(:func:`option`'s ``check``), so that a field is checked by its own rule whatever its
name, and a field without one is a test's failure (``tests/test_transformations.py``).
"""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_FORMULAS", "MAX_EVIDENCE_SETS", "MAX_LIFTED_EVIDENCE_SETS", "Check", "Flag", "MethodOptions",
           "SearchOptions", "Runtime", "Request", "option", "option_names", "make_options", "make_runtime",
           "RUNTIME_NAMES", "family_name", "check_count", "check_switch", "check_family"]

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .. import arguments
from ..errors import ArgumentTypeError, UnknownNameError
from ..map.choice import BACKENDS, DEFAULT_BACKEND, backend_name
from ..model.first_order import FirstOrderMLN
from ..model.ground_mln import GroundMLN
from ..model.grounding import ground
from ..search.focus import Focus
from ..search.progress import Progress
from ..stopping import Guard  # (imported with the backends' names already)

if TYPE_CHECKING:  # (the rule search and concurrent.futures: imported by a search, not by its flags)
    from concurrent.futures import Executor

    from ..possibilistic.lifted_theory import LiftedTheory
    from ..possibilistic.theory import PossibilisticTheory
    from ..search.run import RuleStats, SearchRun

_V = TypeVar("_V")

TOO_MANY = ("use a smaller k, focus the conversion (--evidence-preds, --query-preds; from Python evidence_preds=, "
            "query_preds=) or force it (--force; force=True)")
"""What to do about a search above its limit."""
DEFAULT_MAX_FORMULAS = 16
"""The exhaustive transformation's default bound on soft formulas (2^m subsets)."""
MAX_EVIDENCE_SETS = 10_000_000
"""Above this many evidence sets, Transformations 2 and 3 are refused unless forced."""
MAX_LIFTED_EVIDENCE_SETS = 10_000_000
"""The same for Transformation 4, counting the sets its search examines: one per renaming
class of interchangeable constants and the repeats it meets growing them
(:func:`~pracmln_poss.search.representatives.examined`; CORA over 4 papers and 4 persons has 16
million sets of at most 4 literals, and the search examines 380,169 of them, in 339,308
classes)."""


@dataclass(frozen=True)
class Flag:
    """How ``convert`` gives an option.

    :ivar names: the flag's spellings (``("--jobs", "-j")``).
    :ivar help: what it does (the methods that have it are added).
    :ivar type: what argparse reads the text as (``str``, ``int``); None: a switch.
    :ivar choices: the texts it takes, if a few.
    :ivar read: the option's value from what argparse read (None: that itself).
    """

    names: tuple[str, ...]
    help: str
    type: type | None = str
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    read: Callable[[str], object] | None = None

    @property
    def name(self) -> str:
        return self.names[0]


Check = Callable[[str, object], object]
"""An option's check: given its name and value, raises ``ArgumentTypeError`` or
``ValueError`` naming the option when the value is not one it takes."""


def option(default: _V, flag: Flag | None = None, *, check: Check) -> _V:
    """A field of an options class: its default, its ``check`` (run on every value it is
    given, :class:`_Checked`) and, if the command line has it, its :class:`Flag`."""
    metadata: dict[str, object] = {"check": check}
    if flag is not None:
        metadata["flag"] = flag
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class _Checked:
    """Values that check themselves when made: one ``TypeError`` or ``ValueError``
    naming the option, before any work (each field's own check, :func:`option`)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            check = f.metadata.get("check")
            if check is not None:
                check(f.name, getattr(self, f.name))


def check_count(name: str, value: object) -> None:
    """An int of at least 0 (``k``, ``jobs``, ``max_formulas``)."""
    arguments.integer(name, value, 0)


def check_switch(name: str, value: object) -> None:
    """True or False."""
    arguments.flag(name, value)


def _backend(name: str, value: object) -> None:
    backend_name(value, name)


def _checkpoint(name: str, value: object) -> None:
    arguments.path(name, value)


def _executor(name: str, value: object) -> None:
    if value is not None and not callable(getattr(value, "submit", None)):
        raise ArgumentTypeError(f"{name} takes a concurrent.futures.Executor or None, not {type(value).__name__}")


def _guard(name: str, value: object) -> None:
    arguments.instance(name, value, Guard | None, "a stopping.Guard or None")


def _progress(name: str, value: object) -> None:
    if value is not None and not callable(value):
        raise ArgumentTypeError(f"{name} takes a function or None, not {type(value).__name__}")


def family_name(value: str) -> str:
    """An evidence family's name, checked.

    :raises UnknownNameError: for a name other than ``all`` and ``positive``.
    """
    if value not in ("all", "positive"):
        raise UnknownNameError(f"unknown evidence family {value!r}; valid: all, positive, or a list of sets")
    return value


def check_family(name: str, value: object) -> None:
    """``all``, ``positive`` or a list of evidence sets."""
    if isinstance(value, str):
        family_name(value)
    elif not isinstance(value, Iterable):
        raise ArgumentTypeError(f"{name} takes 'all', 'positive' or a list of evidence sets, not {value!r}")


def _stats(name: str, value: object) -> None:
    from ..search.run import RuleStats

    if value is not None and not isinstance(value, RuleStats):
        raise ArgumentTypeError(f"{name} takes a RuleStats or None, not {type(value).__name__}")


@dataclass(frozen=True)
class Request:
    """One conversion as :func:`~.conversion.transform_mln` hands it to a method: the model
    (first-order when the caller gave one), its grounding (made when a method first asks
    for it: a reduced domain's search never does), the focus by predicate names and over
    the grounding's atoms.

    :ivar grounded: the model's grounding, when the caller had it already.
    :ivar keep: what the grounding goes through once made (the command line freezes it for
        the garbage collector).
    """

    model: FirstOrderMLN | GroundMLN
    grounded: GroundMLN | None
    evidence_preds: tuple[str, ...] | None
    query_preds: tuple[str, ...] | None
    force: bool
    keep: Callable[[GroundMLN], GroundMLN] | None = None

    @cached_property
    def ground(self) -> GroundMLN:
        """The model's grounding."""
        if isinstance(self.model, GroundMLN):
            return self.model
        made = self.grounded if self.grounded is not None else ground(self.model, force=self.force)
        return self.keep(made) if self.keep is not None and self.grounded is None else made

    @cached_property
    def focus(self) -> Focus:
        """The focus over the grounding's atoms.

        :raises UnknownNameError: for a predicate the model does not have.
        """
        return Focus.of_predicates(self.ground, self.evidence_preds, self.query_preds)


@dataclass(frozen=True)
class Runtime(_Checked):
    """How a conversion runs, which never changes what it gives.

    :ivar progress: called with what is being done and how far.
    :ivar stats: filled in with what a rule search did (a :class:`~pracmln_poss.search.run.RuleStats`), if given.
    :ivar jobs: worker processes for a rule search (1: this process; 0: one per core).
    :ivar executor: any ``concurrent.futures.Executor`` to run a rule search on instead
        (a Dask cluster's ``Client.get_executor()``).
    :ivar checkpoint: a file keeping a rule search's finished work: an interrupted conversion
        given the same file resumes from it; removed once the theory is made (by
        :func:`~.conversion.convert_mln`: once it is filtered; by the command line: once it is written).
    :ivar guard: the run's :class:`~pracmln_poss.stopping.Guard`, which every solve goes
        through (:func:`~pracmln_poss.stopping.stoppable` makes one that signals stop
        within a second; None: the solvers' own, which signals do not stop).
    :ivar keep: what the model's grounding goes through once made (the command line's
        :class:`~pracmln_poss.collector.Freezer` keeps it out of the garbage collector's
        walks; None: nothing).
    """

    progress: Progress = option(None, check=_progress)
    stats: RuleStats | None = option(None, check=_stats)
    jobs: int = option(1, Flag(("--jobs", "-j"), "search with N worker processes (0: one per core; default 1); "
                                "the output is the same", int, "N"), check=check_count)
    executor: Executor | None = option(None, check=_executor)
    checkpoint: str | os.PathLike[str] | None = option(None, Flag(
        ("--no-checkpoint",), "with -o: do not keep finished work in OUT.checkpoint (by default an interrupted "
        "conversion resumes from it when run again; it is removed once OUT is written)", None), check=_checkpoint)
    guard: Guard | None = option(None, check=_guard)
    keep: Callable[[GroundMLN], GroundMLN] | None = option(None, check=_progress)


    def used(self) -> tuple[str, ...]:
        """The fields set to other than their defaults."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name) != f.default)

    def search_run(self, what: str, total: int | None) -> AbstractContextManager[SearchRun]:
        """This runtime as one run of the rule search over ``total`` ``what`` (None: not
        known before they are found): its workers started, stopped as the block ends
        (:func:`~pracmln_poss.search.run.search_run`)."""
        from ..search.run import search_run

        return search_run(self.progress, what, total, stats=self.stats, jobs=self.jobs, executor=self.executor,
                          checkpoint=self.checkpoint, guard=self.guard)


RUNTIME_NAMES = tuple(f.name for f in fields(Runtime))
"""The keyword arguments of :func:`~.conversion.transform_mln` that go to its :class:`Runtime`."""


@dataclass(frozen=True)
class MethodOptions(_Checked, ABC):
    """What every transformation takes; a subclass is one transformation.

    :ivar backend: the MAP backend (``auto``, ``oll``, ``toulbar2``, ``cpsat``, ...).
    """

    method: ClassVar[str]
    """The transformation's name."""
    first_order: ClassVar[bool] = False
    """It needs the first-order model (its domains), not a ground MLN."""
    max_evidence_sets: ClassVar[int | None] = None
    """Refused above this many evidence sets unless forced (None: it enumerates none)."""
    runtime: ClassVar[tuple[str, ...]] = ("progress", "guard", "keep")
    """The :class:`~pracmln_poss.transformations.options.Runtime` fields it uses (another
    given is an error, not ignored)."""

    backend: str = option(DEFAULT_BACKEND, Flag(("--backend",), "MAP solver (default: auto, which picks oll, "
                                                "toulbar2 or cpsat per model)", str, None, BACKENDS), check=_backend)

    @abstractmethod
    def run(self, request: Request, runtime: Runtime) -> PossibilisticTheory | LiftedTheory:
        """The transformation of ``request`` with these options."""

    def evidence_atoms(self, request: Request, free: list[int]) -> int | None:
        """How many atoms its evidence sets range over (None: none, or a family the caller
        gave, already in memory)."""
        return None

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """What it takes by keyword: its options, then the runtime's it uses."""
        return option_names(cls) + cls.runtime

    @classmethod
    def default(cls, name: str) -> object:
        """The default of its option ``name``.

        :raises UnknownNameError: for an option it does not have.
        """
        for f in fields(cls):
            if f.name == name:
                return f.default
        raise UnknownNameError(f"the {cls.method} transformation has no option {name!r}")


@dataclass(frozen=True)
class SearchOptions(MethodOptions):
    """The options of a transformation over evidence sets of at most ``k`` literals.

    :ivar k: the largest evidence set.
    """

    k: int = option(1, Flag(("-k",), "largest evidence set size (default 1)", int), check=check_count)

    def evidence_atoms(self, request: Request, free: list[int]) -> int | None:
        return len(request.focus.enumerated(free))


def option_names(options: type[MethodOptions] | type[Runtime]) -> tuple[str, ...]:
    """The options a class holds, in order."""
    return tuple(f.name for f in fields(options))


def make_options(options: type[MethodOptions], given: Mapping[str, Any]) -> MethodOptions:
    """``options(**given)``, checked.

    :raises UnknownNameError: for an option the method does not have, naming those it has.
    """
    _refuse_unknown(options, set(given) - set(option_names(options)))
    return options(**given)  # (each value checked as the options are made)


def make_runtime(options: type[MethodOptions], given: Mapping[str, Any] | Runtime) -> Runtime:
    """``Runtime(**given)`` (or the runtime given), checked, for a run of ``options``' method.

    :raises UnknownNameError: for a runtime field the method does not use (no worker
        processes for the exhaustive transformation, ...), naming what it takes.
    """
    if isinstance(given, Runtime):
        _refuse_unknown(options, set(given.used()) - set(options.runtime))
        return given
    _refuse_unknown(options, set(given) - set(options.runtime))
    return Runtime(**given)


def _refuse_unknown(options: type[MethodOptions], unknown: set[str]) -> None:
    if unknown:
        raise UnknownNameError(
            f"the {options.method} transformation has no option {sorted(unknown)[0]!r}; its options: "
            f"{', '.join(options.names())} (and evidence_preds, query_preds, grounded, force)"
        )
