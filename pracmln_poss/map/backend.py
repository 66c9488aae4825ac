"""What a MAP backend provides: one optimal world under extra hard constraints.

Everything else (penalties, backbones, entailment) is built on that by
:class:`~.engine.MapEngine`, once for every backend.  A backend is a context manager and
releases its solvers on exit.
"""

from __future__ import annotations

__all__ = ["Backend", "Solve", "Check", "OptimalWorlds", "OverBudget"]

import time
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from ..closable import Closable
from ..logic.formula import Formula, Or, literal
from ..model.ground_mln import GroundMLN
from ..stopping import Guard, SatOracle, given
from .world import Optimum, World

if TYPE_CHECKING:
    from .instance import MaxSatInstance
    from .interchangeable import FindInterchangeable


class OverBudget(Exception):  # noqa: N818 (a signal between backends, not an error)
    """A solver stopped at its work budget without an answer (the portfolio then gives
    the question to another solver, or to the same one with a larger budget)."""


Made = TypeVar("Made")

Solve = Callable[[tuple[int, ...]], "Optimum | None"]
Check = Callable[[tuple[int, ...]], "Optimum | None"]


@dataclass(frozen=True)
class OptimalWorlds:
    """The optimal worlds of some evidence as the models of a SAT problem: a PySAT
    solver under assumptions (:mod:`.backbone` works on it).

    :ivar oracle: the SAT solver; clauses may be added to it only through ``fresh``
        activation literals that are switched off afterwards.
    :ivar assumptions: under these, its models (projected on atoms ``1..n``) are exactly
        the optimal worlds.
    :ivar model: one of its models under the assumptions, or None (the caller's known
        optimal world is one, projected on the atoms).
    :ivar fresh: makes a variable no clause uses yet.
    :ivar known: optimal worlds of the parent found earlier (atom values: ``w[a - 1]`` is
        ``a`` or ``-a``); those that satisfy the evidence are optimal worlds of it. The
        engine adds the models it finds (one list per parent, shared by its sets).
    """

    oracle: SatOracle
    assumptions: list[int]
    model: Sequence[int] | None
    fresh: Callable[[], int]
    known: list[list[int]] = field(default_factory=list)


class Backend(Closable):
    """Finds optimal worlds of one ground MLN."""

    name = "abstract"
    clause_sessions = True
    """Whether :meth:`~pracmln_poss.map.backend.Backend.session` keeps its solver between
    calls, so that a backbone is best found one added clause at a time; else it tests
    one literal at a time (:meth:`~pracmln_poss.map.backend.Backend.bounded`)."""

    sat_backbones = False
    """Whether :meth:`optimal_worlds` gives a SAT problem (a backbone then takes a few
    SAT calls, whatever the number of atoms)."""

    instance: MaxSatInstance | None = None
    """The weighted CNF the backend solves, if it solves one (the engine propagates its
    hard clauses)."""

    def __init__(self, mln: GroundMLN, guard: Guard | None = None) -> None:
        self.mln = mln
        # the run's guard, which its solves go through (signals and time limits stop them)
        self.guard = given(guard)
        self.unsat_reason: str | None = None  # set when the hard part is seen unsatisfiable
        # the best world a search stopped by a signal or a time limit had found (its cost
        # exact, but not proven optimal), for ``map --anytime``; None: none found
        self.incumbent: Optimum | None = None
        self._setup = 0.0  # (CPU seconds of what _once made)

    @property
    def setup_seconds(self) -> float:
        """CPU seconds this backend spent making what it makes once, when first needed (a
        solver it hands questions to, and that one's): paid once per process, so a
        question timed here that paid it costs an engine that has it that much less."""
        return self._setup + sum(other.setup_seconds for other in self._made())

    def _made(self) -> tuple[Backend, ...]:
        """The backends this one made when first needed (:meth:`_once`), so far."""
        return ()

    def _once(self, make: Callable[[], Made]) -> Made:
        """``make()``, a solver made once when first needed, its CPU seconds counted in
        :attr:`setup_seconds` (a backend made counts what it makes in turn itself, later,
        and :meth:`_made` lists it: none makes any as it is made, which would count twice)."""
        began = time.process_time()
        try:
            return make()
        finally:
            self._setup += time.process_time() - began

    def close(self) -> None:  # noqa: B027 (an optional hook: most backends hold nothing)
        """Release solver resources."""

    def use_interchangeable(self, find: FindInterchangeable) -> None:  # noqa: B027 (an optional hook)
        """How to find the constants whose permutations map the model onto itself (a
        pass over every atom: called only by a backend that uses them): a backend may
        break that symmetry in its searches (:mod:`.interchangeable`); the default
        ignores it."""

    @abstractmethod
    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        """An optimal world satisfying the hard formulas, ``units`` and ``extra``; None if none."""

    @contextmanager
    def optimal_worlds(self, units: tuple[int, ...], extra: tuple[Formula, ...], cost: int,
                       parent: tuple[int, ...] | None = None) -> Iterator[OptimalWorlds | None]:
        """The optimal worlds of the evidence, whose optimum is ``cost``, as a SAT problem
        (valid inside the ``with`` block); None for backends that cannot give one (the
        engine then tests candidates with :meth:`session` or :meth:`bounded`).

        :param parent: evidence literals, all among ``units``, whose optimum is ``cost``
            too (so that the evidence's optimal worlds are the parent's that satisfy the
            rest), for backends that can start from it.
        :raises BackendError: when the backend's optimum is not ``cost``.
        """
        yield None

    def optimum_within(self, units: tuple[int, ...], parent: tuple[int, ...], cost: int) -> Optimum | None:
        """An optimal world of the parent's (evidence literals among ``units``, whose
        optimum is ``cost``) that satisfies ``units``, when the backend finds one in one
        SAT call from the parent's optimal worlds; None when there is none, or the
        backend cannot tell that cheaply (the default)."""
        return None

    def enumerate_optima(self, units: tuple[int, ...], extra: tuple[Formula, ...], known: World, cost: int,
                         read: Sequence[int] = ()) -> tuple[list[World], bool] | None:
        """Optimal worlds of the evidence (``known`` is one, ``cost`` the optimum), as many
        as the backend lists in one search, and whether they are all of them as far as the
        atoms of ``read`` tell (every optimal world agrees with a listed one on them);
        None for backends that do not list them (the default)."""
        return None

    def backbone(self, units: tuple[int, ...], extra: tuple[Formula, ...], cost: int, candidates: set[int]
                 ) -> set[int] | None:
        """The candidates (literals of an optimal world) true in every optimal world of the
        evidence, whose optimum is ``cost``, where the backend finds them at once; None:
        the engine tests them (the default)."""
        return None

    @contextmanager
    def session(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Solve]:
        """A solver for a run of calls under the same evidence, each adding one hard
        clause (over atoms not fixed) to those before.  Only worlds of cost at most
        ``bound`` matter: a call returns one of them, or None, or (backends that do not
        use the bound) a world that costs more.  Backends that can keep their state
        between the calls override this."""
        added: list[Formula] = []

        def solve(clause: tuple[int, ...]) -> Optimum | None:
            added.append(Or(tuple(literal(l) for l in clause)))
            return self.optimum(units, extra + tuple(added))

        yield solve

    @contextmanager
    def bounded(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Check]:
        """A test for a run of calls under the same evidence: each call gives literals
        (for that call only) and gets a world of cost at most ``bound`` satisfying the
        evidence and them, or None.  Backends that can keep their state between the
        calls override this."""

        def check(lits: tuple[int, ...]) -> Optimum | None:
            found = self.optimum(units + lits, extra)
            return found if found is not None and found.cost <= bound else None

        yield check
