"""A MAP backend on OR-Tools CP-SAT: exact integer optimisation of the weighted CNF.

The instance (:mod:`.instance`) becomes one CP-SAT model, built once: a Boolean per
variable, a clause per hard clause, and the objective ``sum of weights of violated soft
clauses`` as integers (a unit soft clause costs its literal's negation, a longer one a
relaxation variable).  Each call solves a copy with the evidence added, hinted with the
last optimum found; a backbone session adds ``objective <= bound`` and only looks for
feasible worlds, one clause more each call.  One worker, fixed seed: the same input
gives the same worlds.  Costs are recomputed exactly from the world, never read from
the solver's float objective.

CP-SAT is far faster than core-guided MaxSAT when weights are many and distinct (a
learned model): the object-recognition example of pracmln, with 1,719 distinct
weights, is solved in seconds where RC2 takes minutes.
"""

from __future__ import annotations

__all__ = ["CPSATBackend"]

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..errors import BackendError
from ..logic.cnf import Clause
from ..logic.formula import Formula
from ..model.ground_mln import GroundMLN
from ..stopping import Guard, run_handlers
from .backend import Backend, OverBudget, Solve
from .instance import MaxSatInstance, build_instance
from .world import Optimum

if TYPE_CHECKING:
    from ortools.sat.python import cp_model as cp_model_types

class CPSATBackend(Backend):
    """Exact MAP inference with CP-SAT (one worker, deterministic)."""

    name = "cpsat"
    instance: MaxSatInstance  # always set: these backends solve the weighted CNF

    def __init__(self, mln: GroundMLN, instance: MaxSatInstance | None = None, seed: int = 0,
                 guard: Guard | None = None) -> None:
        from ortools.sat.python import cp_model

        super().__init__(mln, guard)
        self.cp_model = cp_model
        self.instance = instance if instance is not None else build_instance(mln)
        self.unsat_reason = self.instance.unsat_reason
        self.seed = seed
        model = cp_model.CpModel()
        variables = [model.new_bool_var(f"v{v}") for v in range(1, self.instance.top + 1)]  # (atom v at v - 1)
        self._top = self.instance.top
        for clause in self.instance.hard:
            model.add_bool_or([self._lit(variables, l) for l in clause])
        # cost = constant + sum(coef * var): a unit soft clause l costs w when l is false
        terms: list[cp_model_types.IntVar] = []
        coefs: list[int] = []
        self._relaxed: list[tuple[int, Clause]] = []  # (proto index, clause) of relaxation variables
        self._constant = 0
        for clause, weight in self.instance.soft:
            if len(clause) == 1:
                lit = clause[0]
                if lit > 0:
                    self._constant += weight
                    terms.append(variables[lit - 1])
                    coefs.append(-weight)
                else:
                    terms.append(variables[-lit - 1])
                    coefs.append(weight)
            else:
                relax = model.new_bool_var("")
                self._relaxed.append((relax.index, clause))
                model.add_bool_or([self._lit(variables, l) for l in clause] + [relax])
                terms.append(relax)
                coefs.append(weight)
        self._objective = cp_model.LinearExpr.weighted_sum(terms, coefs) if terms else 0
        if terms:
            model.minimize(self._objective)  # set once: copies keep it
        self._base = model
        self._hint: list[bool] | None = None

    @staticmethod
    def _lit(variables: list[cp_model_types.IntVar], lit: int) -> cp_model_types.LiteralT:
        """The CP-SAT literal of a DIMACS literal (variable ``v`` at ``variables[v - 1]``)."""
        return variables[lit - 1] if lit > 0 else variables[-lit - 1].Not()

    def _model(self, constraints: list[Clause]) -> tuple[cp_model_types.CpModel, list[cp_model_types.IntVar]]:
        """A copy of the base model with the evidence clauses (and the variables they
        introduce above the instance's top)."""
        model = self._base.clone()
        variables = [model.get_bool_var_from_proto_index(v - 1) for v in range(1, self._top + 1)]
        for clause in constraints:
            for l in clause:
                while abs(l) > len(variables):
                    variables.append(model.new_bool_var(""))
            model.add_bool_or([self._lit(variables, l) for l in clause])
        self._add_hint(model, variables)
        return model, variables

    def _add_hint(self, model: cp_model_types.CpModel, variables: list[cp_model_types.IntVar]) -> None:
        """Hint the last world found, relaxation variables included (a complete hint
        lets CP-SAT start from a solution); written to the model's proto in bulk."""
        hint = self._hint
        if hint is None:
            return
        model.model_proto.clear_solution_hint()  # (clear_hints, untyped, does this)
        indices = list(range(self._top))  # variable v is proto index v - 1
        values = [int(hint[v]) for v in range(1, self._top + 1)]
        for index, clause in self._relaxed:
            indices.append(index)
            values.append(0 if any(hint[l] if l > 0 else not hint[-l] for l in clause) else 1)
        proto = model.proto.solution_hint
        proto.vars.extend(indices)
        proto.values.extend(values)

    def _solve(self, model: cp_model_types.CpModel, variables: list[cp_model_types.IntVar],
               work: float | None = None) -> Optimum | None:
        """The model's optimum (or, without an objective, a world satisfying it); None when
        it has none.

        :param work: CP-SAT's deterministic time limit (the same work on every run, unlike
            seconds); past it, :class:`.OverBudget`.
        """
        cp_model = self.cp_model
        while True:
            self.guard.check()
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = 1
            solver.parameters.random_seed = self.seed
            # the conversions solve thousands of small, similar instances: one presolve pass
            # saves about a quarter of each call (measured on pracmln's object-recognition)
            solver.parameters.max_presolve_iterations = 1
            # Ctrl-C must reach Python (KeyboardInterrupt, exit 130), not just stop the search
            solver.parameters.catch_sigint_signal = False
            if work is not None:
                solver.parameters.max_deterministic_time = work
            # under a time limit, every solution found is kept as it comes (CP-SAT runs the
            # Python handlers itself: the limit's exception leaves from inside solve())
            recorder = None
            if self.guard.under_deadline:
                from .cpsat_recorder import Recorder

                recorder = Recorder()
            try:
                with self.guard.solving(solver.stop_search) as run:
                    status = solver.solve(model, recorder)
            except BaseException:
                if recorder is not None and recorder.solution is not None:
                    self.incumbent = self._optimum(self._values(recorder.solution))
                raise
            if not run.stopped:
                break
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                self.incumbent = self._found(solver)
            run_handlers()  # (Ctrl-C, SIGTERM, the time limit raise here; else ask again)
        if status == cp_model.INFEASIBLE:
            return None
        proven = status == cp_model.OPTIMAL or (status == cp_model.FEASIBLE and not model.has_objective())
        if not proven:
            if work is not None:
                raise OverBudget(f"CP-SAT after {work:g} deterministic seconds")
            raise BackendError(f"CP-SAT stopped without an answer (status {solver.status_name(status)})")
        return self._found(solver)

    def _found(self, solver: cp_model_types.CpSolver) -> Optimum:
        """The world of the solver's solution (hinted to the next call)."""
        self._hint = values = self._values(list(solver.response_proto.solution))
        return self._optimum(values)

    def _values(self, solution: list[int]) -> list[bool]:
        """A solution's values of variables ``1..top`` (variable ``v`` at proto index ``v - 1``)."""
        return [False] + [bool(x) for x in solution[: self._top]]

    def _optimum(self, values: list[bool]) -> Optimum:
        """The world of the values, with its exact cost (recomputed from the clauses, not
        the solver's float)."""
        return Optimum(self.instance.cost(values), self.instance.world(values))

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        return self.within(units, extra)

    def within(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int | None = None,
               work: float | None = None) -> Optimum | None:
        """An optimal world of the evidence, or with ``bound`` any world of cost at most
        ``bound`` (None: there is none); with ``work``, at most that much of CP-SAT's
        deterministic time (past it, :class:`.OverBudget`)."""
        constraints = self.instance.constraints(units, extra)
        if constraints is None or self.instance.unsat_reason is not None:
            return None
        model, variables = self._model(constraints)
        if bound is not None and not self._bound(model, bound):
            return None
        return self._solve(model, variables, work)

    def _bound(self, model: cp_model_types.CpModel, bound: int) -> bool:
        """Make ``model`` ask for any world of cost at most ``bound``; False when no world
        can be that cheap."""
        limit = bound - self.instance.offset - self._constant
        if isinstance(self._objective, int):
            return limit >= 0
        # any world within the bound will do (clear_objective, untyped, does these)
        model.model_proto.clear_objective()
        model.model_proto.clear_floating_point_objective()
        model.add(self._objective <= limit)
        return True

    @contextmanager
    def session(self, units: tuple[int, ...], extra: tuple[Formula, ...], bound: int) -> Iterator[Solve]:
        """Worlds of cost at most ``bound`` (a known optimum), one more clause per call:
        feasibility problems on one model, each hinted with the last world found."""
        constraints = self.instance.constraints(units, extra)
        if constraints is None or self.instance.unsat_reason is not None:
            yield lambda clause: None
            return
        model, variables = self._model(constraints)
        if not self._bound(model, bound):
            yield lambda clause: None
            return

        def solve(clause: tuple[int, ...]) -> Optimum | None:
            for l in clause:
                while abs(l) > len(variables):
                    variables.append(model.new_bool_var(""))
            model.add_bool_or([self._lit(variables, l) for l in clause])
            self._add_hint(model, variables)
            return self._solve(model, variables)

        yield solve
