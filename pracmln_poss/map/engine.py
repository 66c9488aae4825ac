"""Exact MAP inference on a ground MLN: the algorithms, on top of any backend.

``pen(M, E)``, the MAP worlds of ``E``, the literals true in all of them (the
backbone ``X(E)``) and MAP entailment, all with int arithmetic (docs/semantics.md).
A backend (:mod:`.backend`) only finds *one* optimal world under extra hard
constraints; penalties, backbones and entailment are built on that here, once.
Evidence is normalised in one place (:meth:`~pracmln_poss.atoms.NamedAtoms.evidence`).  An engine
owns its backend and releases it on exit.
"""

from __future__ import annotations

__all__ = ["World", "Optimum", "MapEngine", "Evidence", "world_cost"]

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import NoReturn

from ..atoms import Evidence
from ..closable import Closable
from ..errors import InconsistentEvidenceError, InconsistentModelError
from ..logic.formula import (
    Formula,
    atoms_of,
    evaluate,
    is_literal,
    literal_of,
    negate,
)
from ..model.ground_mln import GroundMLN
from ..weights import INF
from .backbone import backbone, kept
from .backend import Backend
from .flips import SMALL, SingleFlips
from .instance import fixed_atoms
from .interchangeable import FindInterchangeable
from .world import Optimum, World


def world_cost(mln: GroundMLN, world: World) -> int | float:
    """Total weight of the soft formulas ``world`` violates; ``INF`` if it violates a hard one."""
    if any(not evaluate(wf.formula, world) for wf in mln.hard):
        return INF
    return sum(wf.weight for wf in mln.soft if not evaluate(wf.formula, world))


class MapEngine(Closable):
    """Exact MAP inference for one ground MLN, with the given backend.

    Evidence is any iterable of literals (``3``, ``-3``, ``"!bird(Tweety)"``) or
    ground formulas (text or trees); it is added as hard constraints.
    """

    def __init__(self, mln: GroundMLN, backend: Backend) -> None:
        self.mln = mln
        self.backend = backend
        self.calls = 0  # solver calls made, for statistics and benchmarks
        self._base: Optimum | None = None
        # atoms fixed by hard unit formulas (usually .db evidence), and the reason the
        # hard part is unsatisfiable when that shows before solving
        self.fixed, self._unsat_reason = fixed_atoms(mln)
        self._flips = SingleFlips(mln)

    @property
    def name(self) -> str:
        """The backend's name."""
        return self.backend.name

    @property
    def setup_seconds(self) -> float:
        """CPU seconds the backend spent making what it makes once (:attr:`.Backend.setup_seconds`)."""
        return self.backend.setup_seconds

    @property
    def sat_backbones(self) -> bool:
        """Whether a backbone costs a few SAT calls (:attr:`.Backend.sat_backbones`)."""
        return self.backend.sat_backbones

    # -- context management ------------------------------------------------------

    def close(self) -> None:
        """Release the backend's solvers."""
        self.backend.close()

    def use_interchangeable(self, find: FindInterchangeable) -> None:
        """How to find the constants whose permutations map the model onto itself, for
        the backend's searches (:mod:`.interchangeable`: it may break that symmetry;
        called only by a backend that does)."""
        self.backend.use_interchangeable(find)

    def _solve(self, units: tuple[int, ...], extra: tuple[Formula, ...] = ()) -> Optimum | None:
        self.calls += 1
        if self._unsat_reason is not None:
            return None
        return self.backend.optimum(units, extra)

    # -- evidence ----------------------------------------------------------------

    def split_evidence(self, evidence: Evidence) -> tuple[tuple[int, ...], tuple[Formula, ...]]:
        """Evidence as (unit literals, other ground formulas): :meth:`.NamedAtoms.split_evidence`."""
        return self.mln.split_evidence(evidence)

    # -- MAP inference -------------------------------------------------------------

    def cost(self, world: World) -> int | float:
        """Total weight of the soft formulas ``world`` violates; ``INF`` if it violates a hard one."""
        return world_cost(self.mln, world)

    def best_found(self, evidence: Evidence = ()) -> Optimum | None:
        """The best world a search stopped by a signal or a time limit had found, as an
        answer to ``evidence``: only when it satisfies the evidence and the hard formulas
        (the stopped search may have been another question's, the evidence-free one's),
        with its own cost; None otherwise (``map --anytime``)."""
        found = self.backend.incumbent
        if found is None:
            return None
        world = found.world
        units, formulas = self.split_evidence(evidence)
        if not all(world.satisfies(u) for u in units) or not all(evaluate(f, world) for f in formulas):
            return None
        cost = self.cost(world)
        return None if cost == INF else Optimum(int(cost), world)

    def base(self) -> Optimum:
        """The optimum without evidence; raises if the hard formulas are unsatisfiable."""
        if self._base is None:
            found = self._solve(())
            if found is None:
                raise InconsistentModelError(
                    self._unsat_reason or self.backend.unsat_reason or "the hard formulas of the MLN are unsatisfiable"
                )
            self._base = found
        return self._base

    def optimum(self, evidence: Evidence = ()) -> Optimum:
        """An optimal world of the evidence and its cost.

        :raises InconsistentEvidenceError: when the evidence contradicts the hard formulas.
        """
        return self._feasible(*self.split_evidence(evidence))

    def _feasible(self, units: tuple[int, ...], formulas: tuple[Formula, ...]) -> Optimum:
        """The optimum under the evidence, or the error saying why there is none."""
        found = self._solve(units, formulas)
        if found is None:
            self._no_optimum(units, formulas)
        return found

    def _no_optimum(self, units: tuple[int, ...], formulas: tuple[Formula, ...]) -> NoReturn:
        """Raise the error saying why the evidence has no world."""
        self.base()  # a model-level inconsistency is reported as such
        raise InconsistentEvidenceError(
            f"evidence {self._describe(units, formulas)} contradicts the hard formulas"
        )

    def find_optimum(self, evidence: Evidence = ()) -> Optimum | None:
        """An optimal world of the evidence and its cost, or None when the evidence is impossible."""
        return self._solve(*self.split_evidence(evidence))

    def optimum_within(self, evidence: Evidence, parent: Iterable[int], cost: int) -> Optimum | None:
        """An optimal world of the evidence literals when their optimum is ``cost``, the
        optimum of ``parent`` (some of them): one of the parent's optimal worlds that
        satisfies them, found cheaply by backends that keep the parent's (None: the
        optimum is higher, or the backend cannot tell cheaply; :meth:`find_optimum`
        tells)."""
        units, formulas = self.split_evidence(evidence)
        if formulas or self._unsat_reason is not None:
            return None
        self.calls += 1
        return self.backend.optimum_within(units, tuple(parent), cost)

    def penalty(self, evidence: Evidence = ()) -> int | float:
        """``pen(M, E)`` in int steps: the optimum with ``E`` minus the optimum without; ``INF`` if ``E`` is impossible."""
        units, formulas = self.split_evidence(evidence)
        base = self.base()
        found = self._solve(units, formulas) if units or formulas else base
        return INF if found is None else found.cost - base.cost

    def map_world(self, evidence: Evidence = ()) -> World:
        """One most probable world satisfying the evidence."""
        return self.optimum(evidence).world

    def consequences(
        self,
        evidence: Evidence = (),
        known: Optimum | None = None,
        entailed: Iterable[int] = (),
        atoms: Iterable[int] | None = None,
        parent: Iterable[int] | None = None,
    ) -> frozenset[int]:
        """``X(E)``: the literals true in every MAP world of the evidence.

        :param known: an optimal world of the evidence, when the caller has one.
        :param entailed: literals the caller knows to be in ``X(E)`` (not checked again).
        :param atoms: only literals of these atoms are wanted (None: all atoms); the
            evidence and the fixed atoms are always included.
        :param parent: part of the evidence (literals) with the same optimum, when the
            caller knows one: a backend may start from its optimal worlds
            (:meth:`.Backend.optimal_worlds`).

        A backbone computation: candidates are the literals of one optimal world;
        every further optimal world found removes what it flips.  On a backend that
        gives its optimal worlds as a SAT problem (:meth:`.Backend.optimal_worlds`)
        that takes a few SAT calls (:mod:`.backbone`); on others, worlds are found by
        flipping one atom, or by a solver call that must flip at least one remaining
        candidate, or one given candidate for backends without clause sessions.
        """
        units, formulas = self.split_evidence(evidence)
        settled = dict(self.fixed)
        settled.update({abs(u): u > 0 for u in units})
        first = known if known is not None else self._solve(units, formulas)
        if first is None:
            self._no_optimum(units, formulas)
        best = first.cost
        entailed = frozenset(entailed)
        wanted = range(1, self.mln.n_atoms + 1) if atoms is None else atoms
        candidates = {(a if first.world[a] else -a) for a in wanted if a not in settled} - entailed
        view = None
        if self._unsat_reason is None:
            with self.backend.optimal_worlds(units, formulas, best, None if parent is None else tuple(parent)) as view:
                if view is not None:
                    self.calls += 1
                    model = view.model if view.model is not None else list(first.world.literals())
                    candidates = _filtered(candidates, view.known, units)
                    keep = _formula_atoms(formulas)
                    paid = self._flips.drop(first.world, candidates, keep)

                    def refine(found: list[int], left: set[int]) -> None:
                        nonlocal paid  # (a question where the test did not pay is left to the solver)
                        if paid:
                            paid = self._flips.drop(self._world_of(found, first.world), left, keep)

                    candidates, calls = backbone(view.oracle, view.assumptions, candidates, model, view.fresh,
                                                 _keeper(view.known, self.mln.n_atoms), refine, self.backend.guard)
                    self.calls += calls
        found = (self.backend.backbone(units, formulas, best, candidates)
                 if view is None and candidates and self._unsat_reason is None else None)
        if found is not None:  # (the backend read them off its optimal worlds at once)
            self.calls += 1
            candidates = found
        elif view is None:
            self._test_candidates(first.world, units, formulas, best, candidates, entailed)
        fixed_lits = {a if v else -a for a, v in settled.items()}
        return frozenset(fixed_lits | candidates | entailed)

    def entails(self, evidence: Evidence, query: str | Formula) -> bool:
        """``(M, E) |-MAP query``: the query holds in every MAP world of the evidence."""
        units, formulas = self.split_evidence(evidence)
        q = self.mln.formula(query) if isinstance(query, str) else query
        best = self._feasible(units, formulas).cost
        if is_literal(q):
            lit = literal_of(q)
            counter = self._solve(units + (-lit,), formulas)
        else:
            counter = self._solve(units, formulas + (negate(q),))
        return counter is None or counter.cost > best

    # -- helpers ---------------------------------------------------------------------

    @contextmanager
    def _counted(self, opened: AbstractContextManager[Callable[[tuple[int, ...]], Optimum | None]]
                 ) -> Iterator[Callable[[tuple[int, ...]], Optimum | None]]:
        """A backend's session (``backend.session`` or ``backend.bounded``) with its calls
        counted, and no call at all when the hard part is already known unsatisfiable."""
        if self._unsat_reason is not None:
            yield lambda lits: None
            return
        with opened as call:

            def counted(lits: tuple[int, ...]) -> Optimum | None:
                self.calls += 1
                return call(lits)

            yield counted

    def _test_candidates(self, world: World, units: tuple[int, ...], formulas: tuple[Formula, ...], best: int,
                         candidates: set[int], entailed: frozenset[int]) -> None:
        """Reduce ``candidates`` (literals of ``world``, an optimum) to the backbone with
        the backend's calls: a session that must flip one more candidate each call
        (worlds one atom away from those found tried first), or, for backends that cannot
        add clauses (toulbar2), the optimal worlds it lists and then tests of one literal
        at a time for what they leave."""
        paid = self._drop_single_flips(world, candidates, formulas)
        if not self.backend.clause_sessions:
            proven = set(entailed)
            if len(candidates) < SMALL and self._test_each(units, formulas, best, candidates, proven, paid,
                                                           FIRST_CHECKS):
                return
            listed = (self.backend.enumerate_optima(units, formulas, world, best, sorted({abs(c) for c in candidates}))
                      if candidates - proven else None)
            if listed is not None:
                self.calls += 1
                worlds, complete = listed
                for other in worlds:
                    candidates -= {c for c in candidates if not other.satisfies(c)}
                if complete:
                    return
            self._test_each(units, formulas, best, candidates, proven, paid)
            return
        with self._counted(self.backend.session(units, formulas, best)) as solve:
            while candidates:
                # candidates only shrink, so each clause implies the ones added before
                found = solve(tuple(-c for c in sorted(candidates, key=abs)))
                if found is None or found.cost > best:
                    break
                candidates -= {c for c in candidates if not found.world.satisfies(c)}
                if paid:
                    paid = self._drop_single_flips(found.world, candidates, formulas)

    def _test_each(self, units: tuple[int, ...], formulas: tuple[Formula, ...], best: int,
                   candidates: set[int], proven: set[int], flips: bool = True, budget: int | None = None) -> bool:
        """Reduce ``candidates`` to the backbone one literal at a time (for backends
        that cannot keep added clauses): a world within ``best`` without a candidate
        removes what it flips; a candidate shown in the backbone is added to ``proven``
        with what unit propagation over the hard clauses derives from it (positive
        literals first: they usually decide the most, e.g. the other values of a
        functional predicate).  ``flips``: whether the single-flip test runs on the
        worlds found (it paid so far); ``budget``: at most so many solver calls.
        Returns whether every candidate is settled."""
        instance = self.backend.instance
        clauses = (instance.constraints(units, formulas) or []) if instance is not None else []
        calls = 0
        with self._counted(self.backend.bounded(units, formulas, best)) as check:
            while True:
                open_ = sorted(candidates - proven, key=lambda l: (l < 0, abs(l)))
                if not open_:
                    return True
                if budget is not None and calls >= budget:
                    return False
                c = open_[0]
                calls += 1
                found = check((-c,))
                if found is not None:
                    candidates -= {x for x in candidates if not found.world.satisfies(x)}
                    if flips:
                        flips = self._drop_single_flips(found.world, candidates, formulas)
                    continue
                proven.add(c)
                if instance is not None:
                    derived = instance.propagate(proven, clauses)
                    if derived is not None:  # (None cannot happen: the first world satisfies all)
                        proven |= derived & candidates

    def _describe(self, units: tuple[int, ...], formulas: tuple[Formula, ...]) -> str:
        parts = [self.mln.literal_name(u) for u in units] + [self.mln.format(f) for f in formulas]
        return "{" + ", ".join(parts) + "}"

    def _world_of(self, model: list[int], fallback: World) -> World:
        """The world of a SAT model of an optimal-worlds problem (``model[v - 1]`` is ``v``
        or ``-v``): atoms beyond it are in no clause, so they keep ``fallback``'s values;
        the fixed atoms are put back."""
        values = list(fallback.values)
        known = min(len(model), self.mln.n_atoms)
        values[1:known + 1] = [v > 0 for v in model[:known]]
        for a, v in self.fixed.items():
            values[a] = v
        return World(tuple(values))

    def _drop_single_flips(self, world: World, candidates: set[int], formulas: tuple[Formula, ...]) -> bool:
        """Remove candidates whose atom can be flipped alone in ``world`` at no extra cost;
        whether the test paid (:meth:`.SingleFlips.drop`: the question's next worlds are
        tested only while it does)."""
        return self._flips.drop(world, candidates, _formula_atoms(formulas))


def _formula_atoms(formulas: tuple[Formula, ...]) -> set[int]:
    """The atoms of evidence formulas (a flip of one would need them re-checked)."""
    return set().union(*(atoms_of(f) for f in formulas)) if formulas else set()


FIRST_CHECKS = 2
"""Solver calls tried one candidate at a time, on questions of fewer than
:data:`.flips.SMALL` candidates, before a backend without clause sessions lists the
optimal worlds: there unit propagation from one or two proven candidates settles the
rest (the conversion of object-recognition: its functional predicates), where a listing
is one search more; with many candidates and ties among the optimal worlds the listing
settles in one search what takes a call per candidate (object-recognition's MAP over 5
clusters: 3.8 s listing first, 5.1 s after two calls)."""

KNOWN = 16
"""Optimal worlds of a parent kept to filter the candidates of its sets' backbones..."""

KNOWN_VALUES = 1 << 16
"""... and at most this many atom values of them (a world of a large domain costs a
list entry per atom: at 16,640 atoms, three are kept)."""


def _keeper(known: list[list[int]], n: int) -> Callable[[list[int]], None]:
    """A function adding a model's atom values to ``known``, the oldest dropped beyond
    :data:`KNOWN` models or :data:`KNOWN_VALUES` values."""
    most = max(1, min(KNOWN, KNOWN_VALUES // max(n, 1)))

    def keep(model: list[int]) -> None:
        known.append(model[:n])
        if len(known) > most:
            del known[0]

    return keep


def _filtered(candidates: set[int], known: list[list[int]], units: tuple[int, ...]) -> set[int]:
    """The candidates that the models in ``known`` satisfying ``units`` do not flip."""
    for m in known:
        # (an atom beyond the model is in no clause: the model may take either value)
        if all(abs(u) > len(m) or m[abs(u) - 1] == u for u in units):
            candidates = kept(candidates, m)
            if not candidates:
                break
    return candidates
