"""A cost function network as a core and its leaves: small parts that one or two core
variables cut off from the rest, each summarised by a table over those variables.

A learned model's network is often a few *hub* variables that everything touches (the
object of each cluster of pracmln's object-recognition model) and, hanging off each hub,
many small parts that touch nothing else (the cluster's colour, shape and text atoms).
Remove the hubs and the network falls apart into connected components; a component
whose *boundary* (the hubs its cost functions touch) has few values is a **leaf**.
Given the values of its boundary, a leaf is independent of everything else, so the
least cost of the whole network is the least cost of the **core** (the hubs and the
components that are not leaves) plus, per leaf, its *message*: the least cost of its
own cost functions over its own variables, for each value of its boundary (bucket
elimination of the leaf: Dechter, Artificial Intelligence 1999).

Evidence on a leaf's variables changes its message only; evidence on core variables
restricts the core.  A MAP question is then a search over the core (or, when the core's
assignments are few, one pass over its table: :class:`DenseCore`), and an optimal world
is an optimal core assignment with, in each leaf, a least-cost assignment of its own
variables given the boundary's values.  The optimal worlds are exactly these: every
optimal core assignment combined with every least-cost assignment of every leaf given
it (docs/map-engine.md proves it), which is how the literals true in all of them are
read off (:meth:`Decomposition.present`).

Costs are exact ints; a violated hard function costs ``hard``, which the caller chooses
above every finite total, and sums are clamped there, so that anything at or above
``hard`` reads "impossible".
"""

from __future__ import annotations

__all__ = ["Decomposition", "Leaf", "Posed", "DenseCore", "Restriction", "decompose", "HUB_DEGREE", "MAX_BOUNDARY",
           "MAX_LEAF_TABLE", "MAX_DENSE_CORE", "MAX_POSED", "merged"]

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from .cost_network import HARD, MAX_TABLE, CostFunction, CostNetwork

Table = NDArray[np.int64]
"""Costs over the assignments of some variables, an axis per variable."""

HUB_DEGREE = 16
"""A variable with at least this many neighbours (variables it shares a cost function
with) is a hub: a leaf is cut off by hubs only."""

MAX_BOUNDARY = 3
"""A leaf's boundary has at most this many variables (a search adds its changed message
to the core as one cost function, and toulbar2 adds those of at most three variables
on top of a stored state)..."""

MAX_LEAF_TABLE = 1 << 16
"""... and its table (every assignment of its boundary and of its own variables) at most
this many entries."""

MAX_POSED = 1 << 22
"""The leaves' tables under evidence remembered hold at most this many entries in all."""

MAX_DENSE_CORE = 1 << 22
"""A core with at most this many assignments is solved as one table (:class:`DenseCore`:
a question is a few array passes, a backbone the optimal entries of one)."""

SMALL_CORE = 1 << 12
"""A core table this small is passed over whole (cheaper than its min-marginals' slices)."""

Restriction = Mapping[int, frozenset[int]]
"""Evidence on variables: variable -> the values it may take."""


@dataclass(frozen=True)
class Leaf:
    """A part of the network that its boundary cuts off from the rest.

    :ivar boundary: core variables (network indices), ascending.
    :ivar variables: its own variables, ascending.
    :ivar table: the cost of every assignment of ``boundary + variables`` (axes in that
        order) under the leaf's cost functions, clamped at ``hard``.
    """

    boundary: tuple[int, ...]
    variables: tuple[int, ...]
    table: Table

    def restricted(self, restriction: Restriction, hard: int) -> Table:
        """The table with the values ``restriction`` forbids (of the leaf's own variables)
        at ``hard``."""
        table = self.table
        for axis, v in enumerate(self.variables, len(self.boundary)):
            allowed = restriction.get(v)
            if allowed is None:
                continue
            mask = np.full(table.shape[axis], hard, dtype=np.int64)
            mask[sorted(allowed)] = 0
            shape = [1] * table.ndim
            shape[axis] = table.shape[axis]
            table = np.minimum(table + mask.reshape(shape), hard)
        return table

    def message(self, table: Table) -> Table:
        """The least cost of the leaf's own variables, per boundary assignment."""
        least: Table = table.reshape(*table.shape[:len(self.boundary)], -1).min(axis=-1)
        return least


@dataclass(frozen=True)
class Posed:
    """A question's evidence as the core sees it.

    :ivar core: the evidence on core variables.
    :ivar free: the evidence on variables in no cost function (outside the core).
    :ivar tables: per leaf with evidence (by index), its table under it.
    :ivar grown: per such leaf with a boundary, the boundary and how much its message grows.
    :ivar constant: how much the messages of such leaves without a boundary grow (at
        least ``hard``: the evidence is impossible).
    """

    core: Restriction
    free: Restriction
    tables: Mapping[int, Table]
    grown: tuple[tuple[tuple[int, ...], Table], ...]
    constant: int


class _Remembered:
    """Leaves posed so far (:meth:`Decomposition._leaf_posed`) and their tables' entries in all."""

    def __init__(self) -> None:
        self.found: dict[tuple[int, tuple[tuple[int, frozenset[int]], ...]], tuple[Table, int, Table | None]] = {}
        self.size = 0


@dataclass(frozen=True)
class Decomposition:
    """A network's core and leaves (:func:`decompose`).

    :ivar core: the core's variables (network indices), ascending.
    :ivar functions: the cost functions over core variables only.
    :ivar leaves: the leaves.
    :ivar leaf_of: a leaf's variable -> the index of its leaf.
    :ivar hard: the cost of a violated hard function (and of anything impossible).
    """

    network: CostNetwork
    core: tuple[int, ...]
    functions: tuple[CostFunction, ...]
    leaves: tuple[Leaf, ...]
    leaf_of: Mapping[int, int]
    hard: int

    @cached_property
    def _in_core(self) -> frozenset[int]:
        return frozenset(self.core)

    @cached_property
    def _messages(self) -> tuple[Table, ...]:
        """Each leaf's message without evidence."""
        return tuple(leaf.message(leaf.table) for leaf in self.leaves)

    def pose(self, restriction: Restriction) -> Posed:
        """The evidence (values each variable may take) as the core sees it."""
        core: dict[int, frozenset[int]] = {}
        free: dict[int, frozenset[int]] = {}
        on_leaves: dict[int, dict[int, frozenset[int]]] = {}
        in_core = self._in_core
        for v, allowed in restriction.items():
            i = self.leaf_of.get(v)
            if i is not None:
                on_leaves.setdefault(i, {})[v] = allowed
            elif v in in_core:
                core[v] = allowed
            else:
                free[v] = allowed
        tables: dict[int, Table] = {}
        grown: list[tuple[tuple[int, ...], Table]] = []
        constant = 0
        for i, restricted in sorted(on_leaves.items()):
            table, least, more = self._leaf_posed(i, restricted)
            tables[i] = table
            constant = min(constant + least, self.hard)
            if more is not None:
                grown.append((self.leaves[i].boundary, more))
        return Posed(core, free, tables, tuple(grown), constant)

    @cached_property
    def _leaves_posed(self) -> _Remembered:
        return _Remembered()

    def _leaf_posed(self, i: int, restricted: dict[int, frozenset[int]]) -> tuple[Table, int, Table | None]:
        """Leaf ``i`` under evidence on its variables: its table, the least growth of its
        message, and the rest of the growth per boundary assignment (None: no boundary, or
        impossible).  Remembered: the questions of a search share their literals."""
        key = (i, tuple(sorted(restricted.items())))
        memo = self._leaves_posed
        found = memo.found.get(key)
        if found is not None:
            return found
        leaf = self.leaves[i]
        table = leaf.restricted(restricted, self.hard)
        before, after = self._messages[i], leaf.message(table)
        more = np.where(after >= self.hard, self.hard, after - before)
        # (the least growth goes to the constant: toulbar2 takes a cost function
        # added on top of a stored state at its word only when its least cost is 0)
        least = int(np.min(more))
        rest = np.where(more >= self.hard, self.hard, more - least) if leaf.boundary and least < self.hard else None
        found = (table, least, rest)
        if table is not leaf.table:
            table.flags.writeable = False  # (shared by the questions that pose it)
        if memo.size + table.size <= MAX_POSED:
            memo.found[key] = found
            memo.size += table.size
        return found

    def table(self, posed: Posed, i: int) -> Table:
        """Leaf ``i``'s table under the question."""
        found = posed.tables.get(i)
        return self.leaves[i].table if found is None else found

    @cached_property
    def _least(self) -> list[tuple[list[int], NDArray[np.intp], NDArray[np.int64]]]:
        """Per boundary, the own variables of its leaves and, per boundary assignment,
        their values in each leaf's first least-cost assignment without evidence."""
        groups: dict[tuple[int, ...], list[Leaf]] = {}
        for leaf in self.leaves:
            groups.setdefault(leaf.boundary, []).append(leaf)
        out = []
        for boundary, leaves in groups.items():
            parts: list[NDArray[np.intp]] = []
            for leaf in leaves:
                own = leaf.table.shape[len(boundary):]
                flat = leaf.table.reshape(*leaf.table.shape[:len(boundary)], -1)
                parts.extend(np.unravel_index(flat.argmin(axis=-1), own))
            variables = np.array([v for leaf in leaves for v in leaf.variables], dtype=np.intp)
            out.append((list(boundary), variables, np.stack(parts, axis=-1).astype(np.int64)))
        return out

    def completed(self, core_values: Sequence[int], posed: Posed) -> list[int]:
        """A least-cost assignment of every variable given the core's values (in
        ``core`` order): each leaf's first least-cost assignment given its boundary's
        values, the least value its evidence allows to a variable in no cost function."""
        values = np.zeros(len(self.network.variables), dtype=np.int64)
        for v, allowed in posed.free.items():
            values[v] = min(allowed)
        values[list(self.core)] = core_values
        for boundary, variables, least in self._least:
            values[variables] = least[tuple(values[boundary])]
        for i, table in posed.tables.items():  # (the leaves with evidence)
            leaf = self.leaves[i]
            local = table[tuple(values[list(leaf.boundary)])]
            values[list(leaf.variables)] = np.unravel_index(int(np.argmin(local)), local.shape)
        out: list[int] = values.tolist()
        return out

    def present(self, posed: Posed, core_assignments: NDArray[np.intp], wanted: Iterable[int]
                ) -> dict[int, set[int]]:
        """For each variable of ``wanted``, the values it takes in some optimal world,
        given every optimal core assignment (the rows, in ``core`` order): a core variable's
        from the rows; a leaf variable's from the least-cost assignments of its leaf given
        the boundary values the rows have."""
        position = {v: p for p, v in enumerate(self.core)}
        out: dict[int, set[int]] = {}
        by_leaf: dict[int, list[int]] = {}
        for v in wanted:
            p = position.get(v)
            if p is not None:
                out[v] = set(core_assignments[:, p].tolist())
            elif v in self.leaf_of:
                by_leaf.setdefault(self.leaf_of[v], []).append(v)
            else:  # (in no cost function: any value its evidence allows)
                out[v] = set(posed.free.get(v, range(self.network.variables[v].size)))
        for i, variables in by_leaf.items():
            leaf = self.leaves[i]
            places = [position[v] for v in leaf.boundary]
            table = self.table(posed, i)
            width = len(leaf.boundary)
            seen = np.zeros(table.shape[width:], dtype=bool)  # own assignments least-cost under some row
            # (sets of rows, not np.unique: that imports numpy.ma, a fifth of numpy's start-up)
            for beta in set(map(tuple, core_assignments[:, places].tolist())):
                local = table[beta]
                seen |= local == np.min(local)
            for v in variables:
                axis = leaf.variables.index(v)
                others = tuple(a for a in range(seen.ndim) if a != axis)
                out[v] = {int(x) for x in np.flatnonzero(seen.any(axis=others))}
        return out

    def base_messages(self) -> dict[tuple[int, ...], Table]:
        """The leaves' messages without evidence, summed per boundary (clamped at ``hard``)."""
        out: dict[tuple[int, ...], Table] = {}
        for leaf, message in zip(self.leaves, self._messages):
            found = out.get(leaf.boundary)
            out[leaf.boundary] = message if found is None else np.minimum(found + message, self.hard)
        return out


@dataclass(frozen=True)
class DenseCore:
    """A core small enough to be one table: the cost of each of its assignments under its
    own functions and the leaves' messages without evidence (axes in ``core`` order).

    A question adds to it a vector over one or two of its variables (evidence on them,
    the grown messages of leaves they cut off), so its least cost is read off the
    table's least costs per value of those variables (its min-marginals, computed once
    per set of variables), and its optimal assignments are in the slices at the values
    that reach it: a question costs a pass over a slice, not over the table."""

    table: Table
    order: tuple[int, ...]
    hard: int
    marginals: dict[tuple[int, ...], Table]

    @classmethod
    def of(cls, decomposition: Decomposition) -> DenseCore:
        core = decomposition.core
        sizes = [decomposition.network.variables[v].size for v in core]
        table = np.zeros(sizes, dtype=np.int64)
        hard = decomposition.hard
        for scope, values in _tables(decomposition.functions, decomposition.network, hard):
            table = np.minimum(table + _broadcast(values, scope, core), hard)
        for scope, message in decomposition.base_messages().items():
            table = np.minimum(table + _broadcast(message, scope, core), hard)
        return cls(table, core, hard, {})

    def optimal(self, decomposition: Decomposition, posed: Posed, every: bool) -> tuple[int, NDArray[np.intp]]:
        """The least cost of the question (at least ``hard``: none), and its optimal
        assignments (rows, in ``core`` order): all of them with ``every``, else the
        first one found."""
        hard, table, position = self.hard, self.table, self._position
        added: dict[int, Table] = {}
        wide: list[tuple[tuple[int, ...], Table]] = []
        for v, allowed in posed.core.items():
            mask = np.full(table.shape[position[v]], hard, dtype=np.int64)
            mask[sorted(allowed)] = 0
            added[position[v]] = mask
        for scope, values in posed.grown:
            if len(scope) == 1:
                p = position[scope[0]]
                added[p] = values if p not in added else np.minimum(added[p] + values, hard)
            else:
                wide.append((scope, values))
        none = np.zeros((0, table.ndim), dtype=np.intp)
        if wide or len(added) > 2 or table.size <= SMALL_CORE:  # (one pass over the whole table)
            whole = table + posed.constant
            for p, values in added.items():
                whole = whole + _broadcast(values, (self.order[p],), self.order)
            for scope, values in wide:
                whole = whole + _broadcast(values, scope, self.order)
            cost = min(int(np.min(whole)), hard)
            if cost >= hard:
                return hard, none
            found = np.argwhere(whole == cost) if every else np.array(
                [np.unravel_index(int(np.argmin(whole)), whole.shape)], dtype=np.intp)
            return cost, found.astype(np.intp)
        axes = tuple(sorted(added))
        least = self._marginal(axes) + posed.constant
        for i, p in enumerate(axes):
            shape = [1] * len(axes)
            shape[i] = table.shape[p]
            least = least + added[p].reshape(shape)
        cost = min(int(np.min(least)), hard)
        if cost >= hard:
            return hard, none
        rows = []
        for x in np.argwhere(least == cost):
            index: list[int | slice] = [slice(None)] * table.ndim
            for p, value in zip(axes, x):
                index[p] = int(value)
            part = table[tuple(index)]
            target = cost - (int(least[tuple(x)]) - int(self._marginal(axes)[tuple(x)]))
            found = np.argwhere(part == target) if every else np.array(
                [np.unravel_index(int(np.argmin(part)), part.shape)], dtype=np.intp)
            free = [p for p in range(table.ndim) if p not in axes]
            full = np.empty((len(found), table.ndim), dtype=np.intp)
            full[:, free] = found
            full[:, list(axes)] = x
            rows.append(full)
            if not every:
                break
        return cost, np.concatenate(rows)

    @cached_property
    def _position(self) -> dict[int, int]:
        """Core variable -> its axis."""
        return {v: p for p, v in enumerate(self.order)}

    def _marginal(self, axes: tuple[int, ...]) -> Table:
        """The table's least cost per assignment of the variables at ``axes``."""
        found = self.marginals.get(axes)
        if found is None:
            others = tuple(p for p in range(self.table.ndim) if p not in axes)
            found = self.marginals[axes] = self.table.min(axis=others) if others else self.table
        return found


def _broadcast(values: Table, scope: tuple[int, ...], order: tuple[int, ...]) -> Table:
    """``values`` (an axis per variable of ``scope``) with its axes in the order they
    have in ``order`` and shaped to broadcast over axes ``order``."""
    position = {v: i for i, v in enumerate(order)}
    axes = sorted(range(len(scope)), key=lambda i: position[scope[i]])
    shape = [1] * len(order)
    for i in axes:
        shape[position[scope[i]]] = values.shape[i]
    return np.transpose(values, axes).reshape(shape)


def _tables(functions: Iterable[CostFunction], network: CostNetwork, hard: int
            ) -> Iterable[tuple[tuple[int, ...], Table]]:
    """The functions as dense tables, those of one scope summed (clamped at ``hard``),
    axes ascending (each scope sorted)."""
    summed: dict[tuple[int, ...], Table] = {}
    for f in functions:
        sizes = [network.variables[v].size for v in f.scope]
        values = np.full(sizes, hard if f.default == HARD else f.default, dtype=np.int64)
        for entry, cost in zip(f.tuples, f.costs):
            values[entry] = hard if cost == HARD else cost
        order = sorted(range(len(f.scope)), key=lambda i: f.scope[i])
        scope = tuple(f.scope[i] for i in order)
        values = np.transpose(values, order)
        found = summed.get(scope)
        summed[scope] = values if found is None else np.minimum(found + values, hard)
    return summed.items()


def merged(functions: Iterable[CostFunction], network: CostNetwork, hard: int
           ) -> tuple[list[tuple[tuple[int, ...], Table]], list[CostFunction]]:
    """The functions whose tables have at most :data:`~.cost_network.MAX_TABLE` entries as
    one dense table per scope (a learned model repeats scopes: pracmln's meals has 25,996
    functions of five variables over a few hundred scopes), and the others as they are."""
    small: list[CostFunction] = []
    large: list[CostFunction] = []
    for f in functions:
        (small if math.prod(network.variables[v].size for v in f.scope) <= MAX_TABLE else large).append(f)
    return list(_tables(small, network, hard)), large


def decompose(network: CostNetwork, hard: int, hub_degree: int | None = HUB_DEGREE) -> Decomposition:
    """The network's core and leaves (see the module's description), the hubs the
    variables of at least ``hub_degree`` neighbours; with ``hub_degree`` None, or when it
    has no leaf, every variable is in the core (those in no cost function too)."""
    variables = network.variables
    if hub_degree is None:
        return Decomposition(network, tuple(range(len(variables))), network.functions, (), {}, hard)
    neighbours: list[set[int]] = [set() for _ in variables]
    for f in network.functions:
        for v in f.scope:
            neighbours[v].update(f.scope)
    hubs = {v for v, found in enumerate(neighbours) if len(found) - 1 >= hub_degree}
    parent = list(range(len(variables)))

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for f in network.functions:
        inner = [v for v in f.scope if v not in hubs]
        for a, b in zip(inner, inner[1:]):
            parent[root(a)] = root(b)
    members: dict[int, list[int]] = {}
    for v in range(len(variables)):
        if v not in hubs and v not in network.free:
            members.setdefault(root(v), []).append(v)
    boundary: dict[int, set[int]] = {r: set() for r in members}
    for f in network.functions:
        inner = [v for v in f.scope if v not in hubs]
        if inner:
            boundary[root(inner[0])].update(v for v in f.scope if v in hubs)

    def size(vs: Iterable[int]) -> int:
        return math.prod(variables[v].size for v in vs)

    leaf_roots = sorted((r for r, vs in members.items()
                         if len(boundary[r]) <= MAX_BOUNDARY and size(boundary[r]) * size(vs) <= MAX_LEAF_TABLE),
                        key=lambda r: members[r][0])
    if not leaf_roots:
        return Decomposition(network, tuple(range(len(variables))), network.functions, (), {}, hard)
    index = {r: i for i, r in enumerate(leaf_roots)}
    leaf_of = {v: index[r] for r in leaf_roots for v in members[r]}
    own: list[list[CostFunction]] = [[] for _ in leaf_roots]
    core_functions: list[CostFunction] = []
    for f in network.functions:
        leaf = next((leaf_of[v] for v in f.scope if v in leaf_of), None)
        if leaf is None:
            core_functions.append(f)
        else:
            own[leaf].append(f)
    leaves = []
    for r, functions in zip(leaf_roots, own):
        order = (*sorted(boundary[r]), *sorted(members[r]))
        table = np.zeros([variables[v].size for v in order], dtype=np.int64)
        for scope, values in _tables(functions, network, hard):
            table = np.minimum(table + _broadcast(values, scope, order), hard)
        leaves.append(Leaf(tuple(sorted(boundary[r])), tuple(sorted(members[r])), table))
    core = tuple(v for v in range(len(variables)) if v not in leaf_of and v not in network.free)
    return Decomposition(network, core, tuple(core_functions), tuple(leaves), leaf_of, hard)
