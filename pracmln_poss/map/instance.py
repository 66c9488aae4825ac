"""A ground MLN as a weighted CNF, simplified by its hard units, for the MaxSAT backends.

The atoms fixed by hard unit formulas (``.db`` evidence, mostly) are substituted
away before anything is built, formulas they decide are dropped, and every formula is
clausified once (Plaisted-Greenbaum, :mod:`pracmln_poss.logic.cnf`).  A soft formula of one
clause keeps it; a soft formula of several clauses gets an indicator variable that is
a unit soft clause.  Both the RC2 and the CP-SAT backends solve this instance.
"""

from __future__ import annotations

__all__ = ["MANY_DISTINCT_WEIGHTS", "MaxSatInstance", "build_instance", "fixed_atoms"]

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..logic.cnf import Clause, VarPool, clausify, clausify_under
from ..logic.formula import Formula, Truth, is_literal, literal_of, substitute_atoms
from ..model.ground_mln import GroundMLN
from ..weights import INF
from .world import World

MANY_DISTINCT_WEIGHTS = 32
"""From this many distinct soft weights on, ``auto`` may leave the core-guided solver
(see :func:`.choice.choose_backend` and ``benchmarks/backends.py``)."""


def fixed_atoms(mln: GroundMLN) -> tuple[dict[int, bool], str | None]:
    """The atoms hard unit formulas fix, and why the hard part is unsatisfiable when
    two of them disagree."""
    fixed: dict[int, bool] = {}
    reason = None
    for wf in mln.hard:
        if is_literal(wf.formula):
            lit = literal_of(wf.formula)
            if fixed.get(abs(lit), lit > 0) != (lit > 0):
                reason = f"hard formulas fix {mln.name(abs(lit))} both true and false"
            fixed[abs(lit)] = lit > 0
    return fixed, reason


@dataclass(frozen=True)
class MaxSatInstance:
    """Hard clauses, weighted soft clauses (positive int weights) and a constant cost.

    :ivar top: the largest variable in use (atoms are ``1..n_atoms``, then indicators
        and Tseitin variables).
    :ivar offset: the cost of soft formulas false in every world.
    :ivar unsat_reason: set when simplification already shows the hard part unsatisfiable.
    """

    n_atoms: int
    top: int
    hard: tuple[Clause, ...]
    soft: tuple[tuple[Clause, int], ...]
    offset: int
    fixed: Mapping[int, bool]
    unsat_reason: str | None
    _watch: dict[int, list[Clause]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def distinct_weights(self) -> int:
        return len({w for _, w in self.soft})

    @property
    def total_weight(self) -> int:
        """The cost of a world violating every soft clause."""
        return sum(w for _, w in self.soft)

    def world(self, values: Sequence[bool]) -> World:
        """The world of a solver's assignment (``values[v]`` for variables ``1..``; the
        fixed atoms put back)."""
        world = [False] * (self.n_atoms + 1)
        world[1:] = values[1 : self.n_atoms + 1]
        for a, v in self.fixed.items():
            world[a] = v
        return World(tuple(world))

    def cost(self, values: Sequence[bool]) -> int:
        """The exact cost of an assignment to the instance's variables (offset included)."""
        cost = self.offset
        for clause, weight in self.soft:
            if not any(values[l] if l > 0 else not values[-l] for l in clause):
                cost += weight
        return cost

    def propagate(self, literals: Iterable[int], clauses: Iterable[Clause] = ()) -> set[int] | None:
        """The literals unit propagation derives from ``literals`` with the hard clauses
        and ``clauses`` (``literals`` included); None on a conflict.  Every world of the
        hard part that satisfies ``literals`` and ``clauses`` satisfies them all."""
        watch = self._watch
        if not watch:
            for clause in self.hard:
                for l in clause:
                    watch.setdefault(-l, []).append(clause)
        extra: dict[int, list[Clause]] = {}
        queue: list[int] = []
        for clause in clauses:
            if len(clause) == 1:
                queue.append(clause[0])
            for l in clause:
                extra.setdefault(-l, []).append(clause)
        queue.extend(literals)
        true: set[int] = set()
        while queue:
            lit = queue.pop()
            if lit in true:
                continue
            if -lit in true:
                return None
            true.add(lit)
            # clauses that just lost a literal: unit or conflict?
            for clause in watch.get(lit, []) + extra.get(lit, []):
                open_lits = [l for l in clause if -l not in true]
                if not open_lits:
                    return None
                if len(open_lits) == 1 and open_lits[0] not in true:
                    queue.append(open_lits[0])
        return true

    def constraints(self, units: tuple[int, ...], extra: tuple[Formula, ...],
                    pool: VarPool | None = None) -> list[Clause] | None:
        """Evidence as clauses over this instance (units on fixed atoms checked, extra
        formulas simplified and clausified with fresh variables from ``pool``, by
        default above ``top``); None when it contradicts the fixed atoms or is
        trivially unsatisfiable."""
        out: list[Clause] = []
        for u in units:
            value = self.fixed.get(abs(u))
            if value is None:
                out.append((u,))
            elif value != (u > 0):
                return None
        pool = pool if pool is not None else VarPool(self.top)
        for f in extra:
            for clause in clausify(substitute_atoms(f, self.fixed.get), pool):
                if not clause:
                    return None
                out.append(clause)
        return out


def build_instance(mln: GroundMLN) -> MaxSatInstance:
    """The weighted CNF of ``mln`` with its hard units substituted away."""
    fixed, reason = fixed_atoms(mln)
    pool = VarPool(mln.n_atoms)
    hard: list[Clause] = []
    soft: list[tuple[Clause, int]] = []
    offset = 0
    for wf in mln.hard + mln.soft:
        constant, clauses = clausify_under(wf.formula, fixed.get, pool)
        if constant == Truth(True):
            continue
        if constant == Truth(False):
            if wf.hard:
                if reason is None:
                    reason = (
                        f"hard formula {mln.format(wf.formula)} ({wf.source or 'no source'}) "
                        "is false under the hard unit formulas"
                    )
                continue
            clauses = [()]
        if wf.weight == INF:
            hard.extend(clauses)
        elif clauses == [()]:
            offset += int(wf.weight)
        elif len(clauses) == 1:
            soft.append((clauses[0], int(wf.weight)))
        else:
            # one indicator per formula: violating it means giving up the indicator
            name = pool.new()
            hard.extend((-name, *c) for c in clauses)
            soft.append(((name,), int(wf.weight)))
    if any(not c for c in hard) and reason is None:
        reason = "the hard formulas of the MLN are unsatisfiable"
    return MaxSatInstance(mln.n_atoms, pool.top, tuple(hard), tuple(soft), offset, fixed, reason)
