"""A MAP backend on pracmln's own infrastructure: ``WCSPInference`` (toulbar2).

pracmln finds a most probable world; we compute its cost with our exact int
arithmetic.  The ground MLN is handed to pracmln as one unary predicate per atom
over a one-constant domain (pracmln has no zero-arity predicates), soft formulas
with their weights, hard formulas and extra constraints as hard formulas, unit
evidence as a database.  pracmln rescales weights to integers per problem, so on
weights that differ by less than its scale this backend may return a world that
is not optimal under exact arithmetic; it is a cross-check, not the default.
"""

from __future__ import annotations

__all__ = ["WCSPBackend"]

import functools
import io
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, redirect_stderr, redirect_stdout, suppress
from typing import Any

from pysat.solvers import Solver

from ..compat import import_pracmln
from ..errors import BackendError, PossError
from ..logic.cnf import VarPool, clausify
from ..logic.formula import And, Formula, Truth, atoms_of, evaluate, is_literal, literal_of, substitute_atoms, walk
from ..logic.syntax import format_formula
from ..model.ground_mln import GroundMLN
from ..stopping import SAT_SOLVER, Guard, run_handlers
from ..weights import INF
from .backend import Backend
from .engine import world_cost
from .instance import fixed_atoms
from .world import Optimum, World

_CONST = "O"


class WCSPBackend(Backend):
    """MAP inference through pracmln's ``WCSPInference``; costs in exact ints."""

    name = "wcsp"

    def __init__(self, mln: GroundMLN, guard: Guard | None = None) -> None:
        super().__init__(mln, guard)
        self.fixed = fixed_atoms(mln)[0]
        import_pracmln()

    @staticmethod
    def _name(a: int) -> str:
        """Atom ``a`` as pracmln sees it: a unary predicate of its own over one constant."""
        return f"a{a}({_CONST})"

    def _text(self, f: Formula) -> str:
        return format_formula(f, self._name)

    def optimum(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> Optimum | None:
        from pracmln.mln.errors import NoConstraintsError
        from pracmln.mln.inference.wcspinfer import WCSPInference

        mln, db = self._pracmln_model(units, extra)
        quiet = io.StringIO()
        result: dict[str, float] = {}
        try:
            if mln.formulas:  # pracmln cannot ground an MLN without formulas
                self.guard.check()
                with redirect_stdout(quiet), redirect_stderr(quiet), _contained() as kill, self.guard.solving(kill):
                    mrf = mln.ground(db)
                    queries = [str(a) for a in mrf.gndatoms]
                    result = WCSPInference(mrf, queries=queries).run().results
        except NoConstraintsError:
            pass  # the evidence decides every formula: all its worlds cost the same
        except PossError:  # (a time limit, ours: not pracmln's failure)
            raise
        except Exception as exc:  # pracmln signals unsatisfiability with bare Exceptions
            # (a signal's exception that pracmln caught and replaced, or its toulbar2 killed
            # by the signal: the signal's, not pracmln's failure)
            run_handlers()
            self.guard.check()
            text = str(exc).lower()
            if "unsatisfiable" in text or "violated" in text or "contradict" in text:
                return None
            raise BackendError(f"pracmln's WCSPInference failed: {exc}") from exc
        world = self._world(result, units)
        cost = world_cost(self.mln, world)
        if cost == INF or not all(evaluate(f, world) for f in extra):
            # pracmln lets evidence override hard formulas instead of failing
            if not self._satisfiable(units, extra):
                return None
            raise BackendError("pracmln's WCSPInference returned a world that violates a hard constraint")
        return Optimum(int(cost), world)

    def _pracmln_model(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> tuple[Any, Any]:
        """pracmln's MLN of the ground model with ``extra`` as hard formulas, each atom a
        predicate over one constant, and its database of ``units``."""
        pracmln = import_pracmln()
        mln = pracmln.MLN(logic="FirstOrderLogic", grammar="StandardGrammar")
        mln.update_domain({"obj": [_CONST]})
        step = float(self.mln.resolution.step)
        weighted: list[tuple[Formula, float]] = []
        for wf in self.mln.soft:
            g = _for_pracmln(wf.formula)
            if g is not None:
                weighted.append((g, wf.weight * step))
        for f in [wf.formula for wf in self.mln.hard] + list(extra):
            g = _for_pracmln(f)
            weighted.append((g if g is not None else f, INF))
        # pracmln drops predicates no formula uses, and then fails on them
        used = set().union(*(atoms_of(f) for f, _ in weighted)) if weighted else set()
        for a in sorted(used):
            mln.predicate(pracmln.mln.mlnpreds.Predicate(f"a{a}", ["obj"]))
        for f, weight in weighted:
            mln.formula(self._text(f), weight=weight)
        db = pracmln.Database(mln)
        for u in units:
            if abs(u) in used:
                db[self._name(abs(u))] = 1.0 if u > 0 else 0.0
        return mln, db

    def _world(self, result: Mapping[str, float], units: tuple[int, ...]) -> World:
        """The world pracmln's results give (the atoms it leaves out: as the model fixes
        them, else false), ``units`` as given."""
        values = [False] * (self.mln.n_atoms + 1)
        for a in range(1, self.mln.n_atoms + 1):
            key = self._name(a)
            if key in result:
                values[a] = bool(result[key] >= 0.5)
            elif self.fixed.get(a) is not None:
                values[a] = self.fixed[a]
        for u in units:
            values[abs(u)] = u > 0
        return World(tuple(values))

    def _satisfiable(self, units: tuple[int, ...], extra: tuple[Formula, ...]) -> bool:
        pool = VarPool(self.mln.n_atoms)
        with Solver(name=SAT_SOLVER) as sat:
            for f in [wf.formula for wf in self.mln.hard] + list(extra):
                for clause in clausify(f, pool):
                    if not clause:
                        return False
                    sat.add_clause(list(clause))
            return self.guard.sat(sat, list(units))


@contextmanager
def _contained() -> Iterator[Callable[[], None]]:
    """During the block, the toulbar2 that pracmln starts (through a shell) runs in a
    session of its own, killed with its shell when the block ends early, and writes its
    ``.wcsp`` files in a folder of ours, removed whatever happens (pracmln leaves its file
    in the temp folder when interrupted).  Yields the function that kills them, and every
    later one before it runs (a signal's: pracmln's own code catches the exceptions of
    some signals' handlers and goes on)."""
    from pracmln.wcsp import wcsp as module

    folder = tempfile.mkdtemp(prefix="pracmln-poss-wcsp-")
    started: list[subprocess.Popen[Any]] = []
    stopped = False

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[Any]:
        if stopped:
            raise OSError("stopped by a signal")
        process: subprocess.Popen[Any] = subprocess.Popen(*args, start_new_session=True, **kwargs)
        started.append(process)
        return process

    def kill() -> None:
        nonlocal stopped
        stopped = True
        for process in list(started):
            if process.poll() is None:
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)

    saved = module.Popen, module.tempfile
    module.Popen = popen
    module.tempfile = types.SimpleNamespace(NamedTemporaryFile=functools.partial(tempfile.NamedTemporaryFile,
                                                                                 dir=folder))
    try:
        yield kill
    finally:
        module.Popen, module.tempfile = saved
        kill()
        for process in started:
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _for_pracmln(f: Formula) -> Formula | None:
    """``f`` simplified (no repeated parts, no double negation), or None when it is a
    contradiction pracmln would mishandle.

    pracmln's WCSP conversion treats some formulas that mention an atom twice wrongly
    (``a(O) ^ a(O)`` comes out unsatisfiable, ``!a(O) v a(O)`` not always true), so it
    never sees repeated parts, nor tautologies and contradictions (a constant soft
    formula costs every world the same: leaving it out changes no MAP world).  Other
    formulas that repeat an atom are passed as they are: this backend is a cross-check.
    """
    g = substitute_atoms(f, lambda _atom: None)
    if isinstance(g, Truth) or _constant(g):
        return None
    for node in walk(g):
        if isinstance(node, And):
            lits = [literal_of(a) for a in node.args if is_literal(a)]
            if any(-l in lits for l in lits):
                return None
    return g


def _constant(f: Formula, limit: int = 12) -> bool:
    """Whether ``f`` (over at most ``limit`` atoms) has the same value in every world."""
    atoms = sorted(atoms_of(f))
    if len(atoms) > limit:
        return False
    values = set()
    for bits in itertools.product((False, True), repeat=len(atoms)):
        values.add(evaluate(f, dict(zip(atoms, bits))))
        if len(values) == 2:
            return False
    return True
