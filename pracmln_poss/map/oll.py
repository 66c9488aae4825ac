"""A MAP backend on our incremental core-guided MaxSAT solver (:mod:`.core_guided`).

The ground model's weighted CNF (:mod:`.instance`) is loaded into one SAT solver once;
every call passes its evidence as assumptions (literals directly, formulas as clauses
switched on by an activation literal for that call only), so the cores and totalizers
that do not depend on the evidence are found once per process.  The optimal worlds of
any evidence are the solver's models under the final assumptions
(:meth:`OLLBackend.optimal_worlds`), on which the engine finds the backbone ``X(E)`` in
a few SAT calls (:mod:`.backbone`).
"""

from __future__ import annotations

__all__ = ["OLLBackend"]

from collections import Counter, OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

from ..errors import BackendError
from ..logic.cnf import VarPool
from ..logic.formula import Formula, evaluate
from ..model.ground_mln import GroundMLN
from ..stopping import SAT_SOLVER, Guard, model_of
from .backend import Backend, OptimalWorlds, OverBudget
from .core_guided import CoreGuided, Solution
from .instance import MANY_DISTINCT_WEIGHTS, MaxSatInstance, build_instance
from .interchangeable import FindInterchangeable
from .world import Optimum

if TYPE_CHECKING:
    from .engine import MapEngine

RECENT = 32
"""Optima of the last evidence sets kept (with their final assumptions)."""


class _Pool(VarPool):
    """Fresh variables of the solver, for clausifying evidence formulas."""

    __slots__ = ("solver",)

    def __init__(self, solver: CoreGuided) -> None:
        super().__init__(solver.top)
        self.solver = solver

    def new(self) -> int:
        self.top = self.solver.new_var()
        return self.top


class OLLBackend(Backend):
    """Exact MAP inference with one incremental core-guided MaxSAT solver per model."""

    name = "oll"
    instance: MaxSatInstance  # always set: this backend solves the weighted CNF
    sat_backbones = True

    def __init__(self, mln: GroundMLN, instance: MaxSatInstance | None = None, solver: str = SAT_SOLVER,
                 guard: Guard | None = None) -> None:
        """:param solver: PySAT SAT solver name."""
        super().__init__(mln, guard)
        self.instance = instance if instance is not None else build_instance(mln)
        self.unsat_reason = self.instance.unsat_reason
        self._solver_name = solver
        self._core: CoreGuided | None = None
        self._recent: OrderedDict[tuple[int, ...], Solution] = OrderedDict()  # the last evidence sets' optima
        self._known: dict[tuple[int, ...], list[list[int]]] = {}  # optimal worlds found of those sets
        self._views = 0  # views of the solver handed out and still held (optimal_worlds)
        self._spoiled = False  # a question was stopped: the solver is replaced at the next one
        # branch and bound for the questions whose cores are too many (see FALLBACK_CORES),
        # where the weights are diverse enough for it; those questions, the last few
        self._fallback: Backend | None = None
        self._fallback_allowed = _diverse(self.instance)
        self._handed: OrderedDict[tuple[tuple[int, ...], tuple[Formula, ...]], None] = OrderedDict()
        self._interchangeable: FindInterchangeable | None = None
        self._fallback_engine: MapEngine | None = None  # the engine on it, for backbones
        self.answered: Counter[str] = Counter()  # questions answered, by solver

    FALLBACK_CORES = 30
    """Cores a question under evidence may relax before it goes to toulbar2 (on models of
    many distinct weights only: there each core is one weight's worth, and a question of
    pracmln's meals, focused on what is consumed, relaxed thousands without an end in
    sight, where branch and bound answered in a tenth of a second)."""

    GROWTH = 1.0
    """A solver whose calls under evidence added more variables than it had after the
    search without evidence (totalizers of evidence-specific cores, switched-off
    clauses: every later call pays for them) times this is replaced by a fresh one."""

    @property
    def core(self) -> CoreGuided:
        """The solver, loaded at the first call; never replaced here (:meth:`_renewed`)."""
        if self._core is None:
            self._core = CoreGuided(self.instance.hard, self.instance.soft, self.instance.top, self._solver_name,
                                    self.guard)
        return self._core

    def _renewed(self) -> CoreGuided:
        """The solver at the start of a question: a fresh one when it has grown too much or
        a question was stopped, unless a view of it is still held (whose oracle must stay
        open until released)."""
        core = self._core
        if core is not None and not self._views and (
                self._spoiled or core.top - core.base_top > self.GROWTH * core.base_top):
            self._spoiled = False
            core.close()
            self._core = None
            self._recent.clear()
            self._known.clear()
        return self.core

    def close(self) -> None:
        if self._core is not None:
            self._core.close()
            self._core = None
        if self._fallback is not None:
            self._fallback.close()
            self._fallback = self._fallback_engine = None
        self._recent.clear()
        self._known.clear()

    @contextmanager
    def _solved(self, units: tuple[int, ...], extra: tuple[Formula, ...]
                ) -> Iterator[tuple[CoreGuided, Solution | None]]:
        """The solver and its optimum under the evidence (None: impossible); evidence
        formulas hold only inside the block."""
        core = self._renewed()
        if not extra:
            yield core, self._of_literals(core, units)
            return
        if self.instance.unsat_reason is not None:
            yield core, None
            return
        constraints = self.instance.constraints(units, extra, _Pool(core))
        if constraints is None:
            yield core, None
            return
        assumptions = [c[0] for c in constraints if len(c) == 1]
        switch = core.new_var()
        for clause in constraints:
            if len(clause) > 1:
                core.oracle.add_clause([-switch, *clause])
        try:
            yield core, core.solve([*assumptions, switch], cores=self._budget)
        finally:
            core.oracle.add_clause([-switch])  # those clauses are gone for good

    def _of_literals(self, core: CoreGuided, units: tuple[int, ...]) -> Solution | None:
        """The optimum under evidence literals, from the last few asked for when it is
        one of them: an optimum and then its backbone, or the sets one literal larger of
        a common subset, ask for the same twice.  Their final assumptions still give
        exactly their optimal worlds (whatever was added since defines new variables
        only, or is switched off)."""
        found = self._recent.get(units)
        if found is not None:
            self._recent.move_to_end(units)
            return found
        if self.instance.unsat_reason is not None:
            return None
        constraints = self.instance.constraints(units, ())
        solution = None if constraints is None else core.solve([c[0] for c in constraints], cores=self._budget)
        if solution is not None:
            self._recent[units] = solution
            if len(self._recent) > RECENT:
                self._known.pop(self._recent.popitem(last=False)[0], None)
        return solution

    def _optimum_of(self, solution: Solution) -> Optimum:
        return Optimum(solution.cost + self.instance.offset, self.instance.world(self._values(solution.model)))

    def _values(self, model: Sequence[int]) -> list[bool]:
        """The values of variables ``1..top`` in a SAT model (``model[v - 1]`` is ``v``
        or ``-v``; variables past its end are false)."""
        top = self.instance.top
        values = [False] * (top + 1)
        known = min(top, len(model))
        values[1:known + 1] = [v > 0 for v in model[:known]]
        return values

    @property
    def _budget(self) -> int | None:
        """The cores a question may relax (None: any number, where there is no fallback)."""
        return self.FALLBACK_CORES if self._fallback_allowed else None

    def _other(self) -> Backend:
        """toulbar2 on the same instance, for the questions handed over (made when first needed)."""
        if self._fallback is None:
            from .toulbar2 import Toulbar2Backend

            def make() -> Toulbar2Backend:
                made = Toulbar2Backend(self.mln, self.instance, guard=self.guard)
                if self._interchangeable is not None:
                    made.use_interchangeable(self._interchangeable)  # (found now, not before)
                return made

            self._fallback = self._once(make)
        return self._fallback

    def _made(self) -> tuple[Backend, ...]:
        """toulbar2, once a question was handed to it (making it took 2 to 2.3 s over meals
        at k = 2, in every process)."""
        return () if self._fallback is None else (self._fallback,)

    def use_interchangeable(self, find: FindInterchangeable) -> None:
        """Kept for toulbar2, should a question be handed to it."""
        self._interchangeable = find
        if self._fallback is not None:
            self._fallback.use_interchangeable(find)

    def _handed_over(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> bool:
        """Whether the question went to toulbar2 lately (asked again, it goes there at once)."""
        key = (units, extra)
        if key in self._handed:
            self._handed.move_to_end(key)
            return True
        return False

    def _hand_over(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> None:
        self._handed[(units, extra)] = None
        if len(self._handed) > RECENT:
            self._handed.popitem(last=False)

    @contextmanager
    def _question(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Iterator[None]:
        """One question; when it is stopped (a signal's exception, a time limit), the best
        world its strata found is kept, and the solver is replaced at the next question:
        the exception may have come between two steps of a core's relaxation (not so past
        the budget of cores, which stops between two)."""
        try:
            yield
        except OverBudget:
            raise
        except BaseException:
            self.incumbent = self._best_seen(units, extra)
            self._spoiled = True
            raise

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        if not self._handed_over(units, extra):
            try:
                with self._question(units, extra), self._solved(units, extra) as (_, solution):
                    self.answered["oll"] += 1
                    return None if solution is None else self._optimum_of(solution)
            except OverBudget:
                self._hand_over(units, extra)
        self.answered["toulbar2"] += 1
        return self._other().optimum(units, extra)

    def backbone(self, units: tuple[int, ...], extra: tuple[Formula, ...], cost: int, candidates: set[int]
                 ) -> set[int] | None:
        """For a question handed to toulbar2, the candidates in its backbone as an engine
        on toulbar2 finds them (its list of optimal worlds, else its tests of one literal
        at a time: not this backend's clause sessions, which would send each test to
        CP-SAT as formula evidence); else None (the engine reads the backbone off this
        solver's optimal worlds)."""
        if not self._handed_over(units, extra):
            return None
        if self._fallback_engine is None:
            from .engine import MapEngine

            other = self._other()
            self._fallback_engine = self._once(lambda: MapEngine(self.mln, other))
        found = self._fallback_engine.consequences([*units, *extra], atoms=sorted({abs(c) for c in candidates}))
        return {c for c in candidates if c in found}

    def _best_seen(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        """The cheapest of the models the question's strata found that satisfy the
        evidence (those of the search without evidence may not)."""
        best = None
        for model in self._core.seen if self._core is not None else ():
            if all(abs(u) > len(model) or model[abs(u) - 1] == u for u in units):
                values = self._values(model)
                found = Optimum(self.instance.cost(values), self.instance.world(values))
                if not all(evaluate(f, found.world) for f in extra):
                    continue
                best = found if best is None or found.cost < best.cost else best
        return best

    def optimum_within(self, units: tuple[int, ...], parent: tuple[int, ...], cost: int) -> Optimum | None:
        """One SAT call on the parent's final assumptions and the other literals, when
        the parent is the empty set or among the last few asked about (solving the parent
        first costs about what solving the evidence does)."""
        if self.instance.unsat_reason is not None or self._handed_over(units, ()):
            return None
        with self._question(units, ()):
            return self._within(units, parent, cost)

    def _within(self, units: tuple[int, ...], parent: tuple[int, ...], cost: int) -> Optimum | None:
        core = self._renewed()
        found = self._recent.get(parent) if parent else core.solve(())
        if found is None or found.cost + self.instance.offset != cost:
            return None
        more = self.instance.constraints(tuple(u for u in units if u not in parent), ())
        if more is None or not core.sat(found.assumptions + [c[0] for c in more]):
            return None
        return self._optimum_of(Solution(found.cost, model_of(core.oracle), []))

    @contextmanager
    def optimal_worlds(self, units: tuple[int, ...], extra: tuple[Formula, ...], cost: int,
                       parent: tuple[int, ...] | None = None) -> Iterator[OptimalWorlds | None]:
        """The solver under its final assumptions for the evidence; with ``parent``
        (evidence literals, all among ``units``, with the same optimum), the parent's
        final assumptions and the other literals: its optimal worlds that satisfy them
        are those of the evidence, and its solution serves every set it is a subset of
        (the sets one literal larger come one after the other in a conversion)."""
        if self._handed_over(units, extra):
            yield None
            return
        with ExitStack() as stack:
            try:
                stack.enter_context(self._question(units, extra))
                view = stack.enter_context(self._worlds(units, extra, cost, parent))
            except OverBudget:  # (toulbar2 answers it: Backend.backbone)
                self._hand_over(units, extra)
                view = None
            yield view

    @contextmanager
    def _worlds(self, units: tuple[int, ...], extra: tuple[Formula, ...], cost: int,
                parent: tuple[int, ...] | None) -> Iterator[OptimalWorlds | None]:
        if parent is not None and not extra:
            core = self._renewed()
            found = self._of_literals(core, parent)
            if found is not None and found.cost + self.instance.offset == cost:
                more = self.instance.constraints(tuple(u for u in units if u not in parent), ())
                if more is not None:  # (no model: the caller's optimal world of the evidence is one)
                    with self._held():
                        yield OptimalWorlds(core.oracle, found.assumptions + [c[0] for c in more], None,
                                            core.new_var, self._known.setdefault(parent, []))
                    return
        with self._solved(units, extra) as (core, solution):
            if solution is None or solution.cost + self.instance.offset != cost:
                shown = "none" if solution is None else solution.cost + self.instance.offset
                raise BackendError(f"the core-guided solver's optimum ({shown}) is not the known one ({cost})")
            with self._held():
                yield OptimalWorlds(core.oracle, solution.assumptions, solution.model, core.new_var)

    @contextmanager
    def _held(self) -> Iterator[None]:
        """While a view of the solver is out: questions asked meanwhile keep the solver."""
        self._views += 1
        try:
            yield
        finally:
            self._views -= 1


def _diverse(instance: MaxSatInstance) -> bool:
    """Whether the model's weights are many and distinct (where toulbar2 may take a
    question the core-guided search finds too many cores for) and toulbar2 holds them."""
    from .cost_network import MAX_TOTAL_WEIGHT

    return instance.distinct_weights >= MANY_DISTINCT_WEIGHTS and instance.total_weight <= MAX_TOTAL_WEIGHT
