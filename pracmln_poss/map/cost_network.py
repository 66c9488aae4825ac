"""A ground MLN as a cost function network over multi-valued variables, for toulbar2.

Branch and bound is as strong as the bounds its local consistencies find, and those
see a variable's domain: a functional predicate's atoms (``object(c, x!)``: exactly one
``x`` per cluster) are one variable with a value per ``x``, not ``x`` Booleans tied by
hard clauses; and a formula is one cost function on the variables of its atoms (its
truth table), not clauses around an indicator variable.  That is how pracmln's own
WCSP encoding reads a model, and on pracmln's object-recognition model toulbar2 solves
it in milliseconds where the clausal encoding takes seconds.

- **Groups.**  Atoms that the hard formulas make pairwise exclusive (``!(a ^ b)``)
  form a group when a hard disjunction of them says at least one holds (exactly one:
  a value per atom) or when they are pairwise exclusive on their own (at most one: one
  value more, where none holds).  The formulas a group's domain says are dropped.
  Every other atom is a Boolean variable.
- **Tables.**  A formula (its atoms fixed by hard units substituted first) becomes one
  cost function over its variables when its table has at most :data:`MAX_TABLE`
  entries, listed as the entries whose cost is not the most common one.  A larger
  formula is clausified (Plaisted-Greenbaum); a soft one keeps its weight on an
  indicator variable, as in :mod:`.instance`; each clause is a function listing the
  tuples that violate it, and a group's atom in a clause with too many of those gets a
  Boolean channelled to its group.
"""

from __future__ import annotations

__all__ = ["CostNetwork", "Variable", "CostFunction", "HARD", "MAX_TABLE", "MAX_TOTAL_WEIGHT", "build_network"]

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..logic.cnf import VarPool, clausify
from ..logic.formula import And, Atom, Formula, Not, Or, Truth, atoms_of, compile_ground, substitute_atoms
from ..logic.leaves import map_leaves
from ..model.ground_mln import GroundMLN
from .instance import fixed_atoms
from .world import World

MAX_TABLE = 4096
"""Entries a formula's table may have (above: its clauses are encoded instead)."""

MAX_TOTAL_WEIGHT = 2**53 - 2
"""The largest total soft weight (in resolution steps) toulbar2's double costs hold exactly."""

HARD = -1
"""The cost of violating a hard formula, in :class:`CostFunction` (the backend makes
it more than all soft weights together)."""


@dataclass(frozen=True)
class Variable:
    """A variable of the network: a Boolean over one atom (``atoms`` of length 1, values
    0 false and 1 true), or a group of atoms of which value ``i`` makes ``atoms[i]`` true
    and the others false (and, with ``none``, a last value where none is true).  An
    auxiliary Boolean (an indicator, a Tseitin variable) has no atoms."""

    atoms: tuple[int, ...]
    group: bool = False
    none: bool = False

    @property
    def size(self) -> int:
        return len(self.atoms) + int(self.none) if self.group else 2


@dataclass(frozen=True)
class CostFunction:
    """Costs of the assignments of ``scope`` (variable indices): ``default``, except the
    listed ``tuples`` with their ``costs`` (:data:`HARD` for a forbidden assignment)."""

    scope: tuple[int, ...]
    default: int
    tuples: tuple[tuple[int, ...], ...]
    costs: tuple[int, ...]


@dataclass(frozen=True)
class CostNetwork:
    """Variables, cost functions and what the atoms are in them.

    :ivar place: atom -> (variable, the value that makes the atom true) for every atom
        not fixed by a hard unit (a Boolean's is 1).
    :ivar offset: the weight of soft formulas false in every world.
    :ivar fixed: the atoms hard units fix, with their values.
    :ivar unsat_reason: set when substituting them already shows the hard part false.
    :ivar free: the variables in no cost function: any of their values goes with any
        assignment of the others, at the same cost.
    """

    n_atoms: int
    variables: tuple[Variable, ...]
    functions: tuple[CostFunction, ...]
    place: Mapping[int, tuple[int, int]]
    offset: int
    fixed: Mapping[int, bool]
    unsat_reason: str | None
    free: frozenset[int]

    @property
    def total_weight(self) -> int:
        """The largest finite cost an assignment can have (every soft cost at its worst)."""
        total = 0
        for f in self.functions:
            soft = [c for c in (f.default, *f.costs) if c != HARD]
            total += max(soft, default=0)
        return total

    def world(self, values: Sequence[int]) -> World:
        """The world of an assignment to the variables (the fixed atoms put back)."""
        world = [False] * (self.n_atoms + 1)
        for v, value in enumerate(values):
            variable = self.variables[v]
            if variable.group:
                if value < len(variable.atoms):
                    world[variable.atoms[value]] = True
            elif variable.atoms:
                world[variable.atoms[0]] = bool(value)
        for a, b in self.fixed.items():
            world[a] = b
        return World(tuple(world))

    def value_in(self, v: int, world: World) -> int:
        """The value of variable ``v`` (over atoms) in ``world``."""
        variable = self.variables[v]
        if not variable.group:
            return int(world[variable.atoms[0]])
        return next((i for i, a in enumerate(variable.atoms) if world[a]), len(variable.atoms))

    def with_value(self, world: World, v: int, value: int) -> World:
        """``world`` with variable ``v`` (over atoms) set to ``value``."""
        values = list(world.values)
        variable = self.variables[v]
        if not variable.group:
            values[variable.atoms[0]] = bool(value)
        else:
            for i, a in enumerate(variable.atoms):
                values[a] = i == value
        return World(tuple(values))

    def literal(self, lit: int) -> tuple[int, int, bool]:
        """``(variable, value, positive)``: the literal holds iff the variable has that
        value (``positive``) or has another one."""
        var, value = self.place[abs(lit)]
        if not self.variables[var].group:
            return var, int(lit > 0), True
        return var, value, lit > 0


def build_network(mln: GroundMLN) -> CostNetwork:
    """The cost function network of ``mln`` (see the module's description)."""
    fixed, reason = fixed_atoms(mln)
    hard = [substitute_atoms(wf.formula, fixed.get) for wf in mln.hard]
    groups, implied = _groups(hard)
    builder = _Builder(mln.n_atoms, fixed, groups)
    for i, (wf, g) in enumerate(zip(mln.hard, hard)):
        if i in implied:
            continue
        if g == Truth(False):
            reason = reason or (f"hard formula {mln.format(wf.formula)} ({wf.source or 'no source'}) "
                                "is false under the hard unit formulas")
            continue
        builder.formula(g, HARD)
    for wf in mln.soft:
        # (without fixed atoms a formula's table is its own: substituting would only copy it)
        builder.formula(substitute_atoms(wf.formula, fixed.get) if fixed else wf.formula, int(wf.weight))
    used = {v for f in builder.functions for v in f.scope}
    return CostNetwork(mln.n_atoms, tuple(builder.variables), tuple(builder.functions), builder.place,
                       builder.offset, fixed, reason, frozenset(range(len(builder.variables))) - used)


def _exclusion(f: Formula) -> tuple[int, int] | None:
    """``(a, b)`` for a formula saying not both atoms: ``!(a ^ b)`` or ``!a v !b``."""
    if isinstance(f, Not) and isinstance(f.arg, And) and len(f.arg.args) == 2:
        parts = f.arg.args
        if all(isinstance(p, Atom) for p in parts):
            return _pair(parts)
    if isinstance(f, Or) and len(f.args) == 2 and all(isinstance(p, Not) and isinstance(p.arg, Atom) for p in f.args):
        return _pair(tuple(p.arg for p in f.args if isinstance(p, Not)))
    return None


def _pair(parts: tuple[Formula, ...]) -> tuple[int, int] | None:
    a, b = (p.index for p in parts if isinstance(p, Atom))
    return (a, b) if a != b else None


def _groups(hard: list[Formula]) -> tuple[list[tuple[tuple[int, ...], bool]], set[int]]:
    """The groups of atoms (their atoms, and whether none may hold) and the indices of
    the hard formulas their domains say."""
    excluded: dict[int, set[int]] = {}
    pair_formulas: dict[tuple[int, int], list[int]] = {}
    for i, g in enumerate(hard):
        pair = _exclusion(g)
        if pair is not None:
            a, b = pair
            excluded.setdefault(a, set()).add(b)
            excluded.setdefault(b, set()).add(a)
            pair_formulas.setdefault((min(a, b), max(a, b)), []).append(i)
    groups: list[tuple[tuple[int, ...], bool]] = []
    grouped: set[int] = set()
    implied: set[int] = set()

    def clique(atoms: Sequence[int]) -> bool:
        return all(b in excluded.get(a, ()) for a, b in itertools.combinations(atoms, 2))

    def take(atoms: tuple[int, ...], none: bool) -> None:
        groups.append((atoms, none))
        grouped.update(atoms)
        for a, b in itertools.combinations(sorted(atoms), 2):
            implied.update(pair_formulas.get((a, b), ()))

    for i, g in enumerate(hard):  # exactly one: a disjunction of pairwise exclusive atoms
        if isinstance(g, Or) and len(g.args) >= 2 and all(isinstance(p, Atom) for p in g.args):
            atoms = tuple(dict.fromkeys(p.index for p in g.args if isinstance(p, Atom)))
            if len(atoms) >= 2 and not grouped.intersection(atoms) and clique(atoms):
                take(atoms, False)
                implied.add(i)
    for a in sorted(excluded):  # at most one: pairwise exclusive atoms on their own
        if a in grouped:
            continue
        members = [a]
        for b in sorted(excluded[a]):
            if b not in grouped and all(b in excluded.get(m, ()) for m in members):
                members.append(b)
        if len(members) >= 3:
            take(tuple(members), True)
    return groups, implied


class _Builder:
    """Variables and cost functions, made formula by formula."""

    def __init__(self, n_atoms: int, fixed: Mapping[int, bool], groups: list[tuple[tuple[int, ...], bool]]) -> None:
        self.variables: list[Variable] = []
        self.place: dict[int, tuple[int, int]] = {}
        for atoms, none in groups:
            for i, a in enumerate(atoms):
                self.place[a] = (len(self.variables), i)
            self.variables.append(Variable(atoms, True, none))
        for a in range(1, n_atoms + 1):
            if a not in fixed and a not in self.place:
                self.place[a] = (len(self.variables), 1)
                self.variables.append(Variable((a,)))
        self.functions: list[CostFunction] = []
        self.offset = 0
        self.channels: dict[int, int] = {}  # a group's atom -> the number of its channelled Boolean
        self._aux: dict[int, int] = {}  # a Tseitin or indicator variable number -> its variable
        self._tables: dict[object, tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]] = {}
        self._pool = VarPool(n_atoms)

    def formula(self, g: Formula, cost: int) -> None:
        """Add the cost function(s) of formula ``g`` (atoms fixed already substituted)
        violated at ``cost`` (:data:`HARD` for a hard formula)."""
        if isinstance(g, Truth):
            if not g.value and cost != HARD:
                self.offset += cost
            return  # (a hard FALSE is reported by the caller)
        atoms = sorted(atoms_of(g))
        scope = tuple(sorted({self.place[a][0] for a in atoms}))
        if math.prod(self.variables[v].size for v in scope) <= MAX_TABLE:
            self._table(g, atoms, scope, cost)
            return
        clauses = clausify(g, self._pool)
        if cost != HARD and len(clauses) > 1:
            indicator = self._pool.new()  # violating the formula means giving up the indicator
            clauses = [(-indicator, *c) for c in clauses]
            self._clause((indicator,), cost)
            cost = HARD
        for clause in clauses:
            self._clause(clause, cost)

    def _table(self, g: Formula, atoms: list[int], scope: tuple[int, ...], cost: int) -> None:
        # the formula with its atoms numbered 1.. in order, and where they sit in the
        # scope's variables: formulas of one template share both, hence their table
        position = {a: i + 1 for i, a in enumerate(atoms)}
        shape = _shape(g, position)
        # per variable of the scope, (its value making the atom true, the atom's position),
        # by value: the formula's atoms are few, a group's many
        mentioned: dict[int, list[tuple[int, int]]] = {v: [] for v in scope}
        place = self.place
        for a, p in position.items():
            v, value = place[a]
            mentioned[v].append((value if self.variables[v].group else 0, p))
        places = tuple((self.variables[v].size, self.variables[v].group, tuple(sorted(mentioned[v])))
                       for v in scope)
        table = self._tables.get((shape, places))
        if table is None:
            table = self._tables[(shape, places)] = self._truth_table(shape, places, len(atoms))
        falsified, satisfied = table
        if not falsified:
            return
        if not satisfied and cost != HARD:
            self.offset += cost
            return
        if len(falsified) <= len(satisfied) or cost == HARD:
            self.functions.append(CostFunction(scope, 0, falsified, (cost,) * len(falsified)))
        else:
            self.functions.append(CostFunction(scope, cost, satisfied, (0,) * len(satisfied)))

    def _truth_table(self, shape: Formula, places: tuple[tuple[int, bool, tuple[tuple[int, int], ...]], ...],
                     n: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """The assignments of a scope (each variable's size, whether it is a group, and
        which of its values make which of the formula's atoms ``1..n`` true) that falsify
        the formula ``shape``, and those that satisfy it."""
        check = compile_ground(shape)
        # a group's values that make none of the formula's atoms true act alike: one
        # class of values each, evaluated once
        classes: list[list[tuple[list[tuple[int, bool]], list[int]]]] = []
        for size, group, mentioned in places:
            if not group:
                at = mentioned[0][1]
                classes.append([([(at, False)], [0]), ([(at, True)], [1])])
                continue
            own = [([(at, j == i) for j, at in mentioned], [i]) for i, _ in mentioned]
            rest = [x for x in range(size) if x not in {i for i, _ in mentioned}]
            if rest:
                own.append(([(at, False) for _, at in mentioned], rest))
            classes.append(own)
        values = [False] * (n + 1)
        falsified: list[tuple[int, ...]] = []
        satisfied: list[tuple[int, ...]] = []
        for choice in itertools.product(*classes):
            for settings, _ in choice:
                for at, truth in settings:
                    values[at] = truth
            side = satisfied if check(values) else falsified
            side.extend(itertools.product(*(members for _, members in choice)))
        return tuple(falsified), tuple(satisfied)

    def _var(self, v: int) -> tuple[int, int]:
        """A clause variable's (network variable, value making it true)."""
        if v in self.place:
            return self.place[v]
        found = self._aux.get(v)
        if found is None:
            found = self._aux[v] = len(self.variables)
            self.variables.append(Variable(()))
        return found, 1

    def _clause(self, clause: Iterable[int], cost: int) -> None:
        """A clause (over atoms and auxiliary variables) as the tuples violating it."""
        lits = list(dict.fromkeys(clause))
        violating: dict[int, set[int]] = {}
        for lit in lits:
            var, value = self._var(abs(lit))
            variable = self.variables[var]
            if variable.group:  # a group's atom is false at every other value
                bad = {value} if lit < 0 else set(range(variable.size)) - {value}
            else:
                bad = {0} if lit > 0 else {1}
            violating[var] = violating[var] & bad if var in violating else bad
        if any(not bad for bad in violating.values()):
            return  # a tautology (literals of one variable that cover every value)
        if math.prod(len(bad) for bad in violating.values()) > MAX_TABLE:
            self._clause([self._channel(l) if abs(l) in self.place and self.variables[self.place[abs(l)][0]].group
                          else l for l in lits], cost)
            return
        scope = tuple(sorted(violating))
        tuples = tuple(itertools.product(*(sorted(violating[v]) for v in scope)))
        self.functions.append(CostFunction(scope, 0, tuples, (cost,) * len(tuples)))

    def _channel(self, lit: int) -> int:
        """The literal on a Boolean that is true exactly when the group's atom is."""
        a = abs(lit)
        number = self.channels.get(a)
        if number is None:
            group, value = self.place[a]
            number = self.channels[a] = self._pool.new()
            var, _ = self._var(number)
            size = self.variables[group].size
            # hard: the Boolean is 1 exactly when the group has the atom's value
            self.functions.append(CostFunction((group, var), 0, tuple((x, int(x != value)) for x in range(size)),
                                               (HARD,) * size))
        return number if lit > 0 else -number


def _shape(g: Formula, position: Mapping[int, int]) -> Formula:
    """``g`` with atom ``a`` renumbered ``position[a]``."""
    return map_leaves(g, lambda leaf: Atom(position[leaf.index]) if isinstance(leaf, Atom) else leaf)
