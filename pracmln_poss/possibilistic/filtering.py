"""Redundancy filtering (the paper's footnote on CORA), in both of its modes.

*aggressive*: remove, one at a time, a formula entailed by the other remaining
formulas of equal or higher level.  *conservative*: remove a formula only when the
remaining formulas of equal or higher level that are no longer than it entail it
(the result stays easier to read).  Either way every cut keeps its models: a
removed formula at level ``x`` is entailed by formulas kept at ``>= x``.

Formulas are tried lowest level first and, within a level, longest first (then in
theory order), so that long, derived rules go before the short ones that imply them.
An incremental SAT solver serves the checks; the levels are worked from the highest
down, which decides the same (see :func:`keep_flags`), so that a check has a few
assumptions, whatever the size of its level or of the theory.
"""

from __future__ import annotations

__all__ = ["FILTER_MODES", "FilterResult", "filter_redundant", "formula_length", "keep_flags"]

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations, groupby
from typing import Generic, TypeVar, overload

from pysat.solvers import Solver

from .. import arguments
from ..collector import collection_paused
from ..errors import UnknownNameError
from ..logic.cnf import Clause, VarPool, clauses_of, clausify
from ..logic.formula import Atom, Formula, Implies, NodeMemo, PredAtom, conjunction, negate, walk
from ..stopping import SAT_SOLVER, Guard, given
from ..weights import INF
from .ground_clauses import ClauseGrounder
from .lifted_theory import LiftedTheory
from .theory import Level, PossibilisticFormula, PossibilisticTheory

T = TypeVar("T", PossibilisticTheory, LiftedTheory)

FILTER_MODES = ("none", "conservative", "aggressive")
"""The redundancy filters, by name."""


@dataclass(frozen=True)
class FilterResult(Generic[T]):
    """The filtered theory (of the type given) and the formulas removed, in removal order."""

    theory: T
    removed: tuple[PossibilisticFormula, ...]


def formula_length(f: Formula) -> int:
    """The number of atom occurrences: the length of a clause or rule."""
    return sum(1 for g in walk(f) if isinstance(g, (Atom, PredAtom)))


@overload
def filter_redundant(theory: PossibilisticTheory, mode: str = ..., solver: str = ..., guard: Guard | None = ...
                     ) -> FilterResult[PossibilisticTheory]: ...
@overload
def filter_redundant(theory: LiftedTheory, mode: str = ..., solver: str = ..., guard: Guard | None = ...
                     ) -> FilterResult[LiftedTheory]: ...
def filter_redundant(theory: PossibilisticTheory | LiftedTheory, mode: str = "aggressive", solver: str = SAT_SOLVER,
                     guard: Guard | None = None) -> FilterResult[PossibilisticTheory] | FilterResult[LiftedTheory]:
    """Remove redundant formulas; every cut of the result has the same models as before.

    A formula of a ground theory goes when the other remaining ones of equal or higher
    level entail it.  A first-order rule of a lifted theory goes when its groundings
    follow from the groundings of the other remaining rules.  For the rules of evidence
    classes (finite levels) one grounding is tested: their variables range over
    interchangeable constants and are pairwise distinct, so their groundings are images
    of each other under symmetries of the theory, and one follows exactly when all do.
    Certain rules (the MLN's hard formulas, over whole domains and without ``!=``) are
    tested with all their groundings.

    :param guard: the run's guard, which the SAT calls go through (None: one of their own).
    :raises UnknownNameError: for a mode not in :data:`FILTER_MODES`.
    """
    arguments.instance("theory", theory, PossibilisticTheory | LiftedTheory, "a PossibilisticTheory or a LiftedTheory")
    _check_mode(mode)
    if isinstance(theory, LiftedTheory) and mode == "none":
        return FilterResult(theory, ())  # nothing to ground
    with collection_paused():  # (clauses by the million, and no cycle among them)
        kept, removed = _filter(theory, mode, solver, guard)
    if isinstance(theory, LiftedTheory):
        return FilterResult(replace(theory, formulas=kept), removed)
    return FilterResult(theory.with_formulas(kept), removed)


def _filter(theory: PossibilisticTheory | LiftedTheory, mode: str, solver: str, guard: Guard | None
            ) -> tuple[tuple[PossibilisticFormula, ...], tuple[PossibilisticFormula, ...]]:
    """The formulas kept, in theory order, and those removed, in removal order."""
    formulas = theory.formulas
    lengths = _lengths([pf.formula for pf in formulas])
    contents: list[Formula | list[Clause]] = []
    tests: list[Formula | list[Clause]] = []
    if isinstance(theory, LiftedTheory):
        grounder = ClauseGrounder(dict(theory.types), theory.atom_numbers)
        for pf, variables in zip(formulas, theory.rule_variables):
            made = None if pf.steps == INF else grounder.clauses(pf.formula, variables)
            if made is not None:  # (the rule's groundings as clauses, the first one as its test)
                clauses, first = made
                contents.append(clauses)
                tests.append(first)
                continue
            groundings = theory.groundings(pf)
            contents.append(conjunction(groundings))
            tests.append(conjunction(groundings) if pf.steps == INF or not groundings else groundings[0])
    else:
        tests = [pf.formula for pf in formulas]
        contents = list(tests)
    kept = keep_flags(len(theory.atoms), [pf.steps for pf in formulas], lengths, contents, tests, mode, solver, guard)
    order = sorted(range(len(formulas)), key=lambda i: (formulas[i].steps, -lengths[i], i))
    return (tuple(pf for pf, k in zip(formulas, kept) if k), tuple(formulas[i] for i in order if not kept[i]))


def _lengths(formulas: Sequence[Formula]) -> list[int]:
    """:func:`formula_length` of each formula, that of each side of an ``=>`` once per
    side object (a read theory's rules share their sides)."""
    side = NodeMemo(formula_length)
    return [side(f.left) + side(f.right) if isinstance(f, Implies) else formula_length(f) for f in formulas]


def _negated(test: Formula | list[Clause], pool: VarPool) -> list[Clause]:
    """Clauses of the negation of a test: of a formula, Tseitin's; of clauses
    ``C1 ^ ... ^ Cm``, one of them false (``a_k`` says ``C_k`` is: its literals all false)."""
    if not isinstance(test, list):
        return clausify(negate(test), pool)
    if len(test) == 1:
        return [(-lit,) for lit in test[0]]
    out: list[Clause] = []
    chosen = []
    for clause in test:
        a = pool.new()
        chosen.append(a)
        out.extend((-a, -lit) for lit in clause)
    out.append(tuple(chosen))
    return out


FRESH = 100_000
""":func:`keep_flags` starts a new solver, with only what it keeps, once this many
variables (and more than four per clause kept) have been added since the last."""


def _fresh(solver: str, n_atoms: int, sizes: list[int]) -> tuple[Solver, VarPool, dict[int, int]]:
    """A SAT solver for :func:`keep_flags`, its variables (the atoms first) and a gate
    per item length of ``sizes`` (each implying the shorter ones)."""
    pool = VarPool(n_atoms)
    gate = {size: pool.new() for size in sizes}
    sat = Solver(name=solver)
    for shorter, longer in zip(sizes, sizes[1:]):
        sat.add_clause([-gate[longer], gate[shorter]])
    return sat, pool, gate


def _count(table: dict[int, int], length: int, change: int) -> bool:
    """Add ``change`` to ``table[length]``, dropping a count that reaches 0; whether
    ``table`` is empty after."""
    left = table.get(length, 0) + change
    if left:
        table[length] = left
    else:
        del table[length]
    return not table


def _fits(counts: dict[int, int] | None, longest: int | None) -> bool:
    """Whether ``counts`` (items' lengths) holds an item no longer than ``longest``."""
    return counts is not None and bool(counts) and (longest is None or min(counts) <= longest)


class _Switched:
    """The clauses of the items kept, and of those of the level under way still undecided,
    by their literals (sorted), with the lengths of the items they belong to.  A test
    clause follows from them, without a solver call, when one of them subsumes it (its
    literals a part of the test's), or when one resolution step gives such a clause: a
    ``P v l`` and a binary ``-l v m`` with ``P`` and ``m`` in the test (an "exactly one"
    hard rule's ``-object(c,A) v -object(c,B)`` and a rule concluding ``object(c,A)``
    give the rule concluding ``-object(c,B)`` from the same premise)."""

    WIDEST = 6
    """Test clauses wider than this are left to the solver (a clause has 2^n parts)."""

    MOST = 8
    """An item of more clauses is left out: keeping its clauses costs more than the calls
    they save (a CORA rule's 31 groundings, against an object-recognition rule's 2)."""

    def __init__(self) -> None:
        self.lengths: dict[Clause, dict[int, int]] = {}
        # (implied[l][m]: the binary clauses -l v m, by length; implying: every l that
        # has been a key there, a set that only grows, so that a clause filed in ``less``
        # under one of its literals is found there again when it is removed)
        self.implied: dict[int, dict[int, dict[int, int]]] = {}
        self.implying: set[int] = set()
        # (less[P][l]: the clauses P v l with l in implying, by length)
        self.less: dict[Clause, dict[int, dict[int, int]]] = {}

    def add(self, clauses: Formula | list[Clause], length: int) -> None:
        self._change(clauses, length, 1)

    def remove(self, clauses: Formula | list[Clause], length: int) -> None:
        self._change(clauses, length, -1)

    def _change(self, clauses: Formula | list[Clause], length: int, change: int) -> None:
        if not isinstance(clauses, list) or len(clauses) > self.MOST:
            return
        for clause in clauses:
            key = tuple(sorted(clause))
            if _count(self.lengths.setdefault(key, {}), length, change):
                del self.lengths[key]
            if len(clause) == 2:
                a, b = clause
                for l, m in ((-a, b), (-b, a)):
                    heads = self.implied.setdefault(l, {})
                    if _count(heads.setdefault(m, {}), length, change):
                        del heads[m]
                        if not heads:
                            del self.implied[l]
                    self.implying.add(l)
            for l in clause:
                if l in self.implying:
                    self._less(tuple(x for x in key if x != l), l, length, change)

    def _less(self, rest: Clause, l: int, length: int, change: int) -> None:
        literals = self.less.get(rest)
        if change < 0 and (literals is None or l not in literals):
            return  # (filed before l implied anything: one missing entry only costs a call)
        if literals is None:
            literals = self.less[rest] = {}
        if _count(literals.setdefault(l, {}), length, change):
            del literals[l]
            if not literals:
                del self.less[rest]

    def subsume(self, test: list[Clause], longest: int | None) -> bool:
        """Whether every clause of ``test`` follows from a clause here, or from two by one
        resolution step (of items no longer than ``longest``, when given)."""
        return all(self._subsumed(clause, longest) for clause in test)

    def _subsumed(self, clause: Clause, longest: int | None) -> bool:
        if len(clause) > self.WIDEST:
            return False
        ordered = sorted(clause)
        lengths, less = self.lengths, self.less
        parts = [part for size in range(len(ordered) + 1) for part in combinations(ordered, size)]
        for part in parts:
            counts = lengths.get(part)
            if counts and (longest is None or min(counts) <= longest):
                return True
        for part in parts:
            literals = less.get(part)
            if literals:
                for l, counts in literals.items():
                    heads = self.implied.get(l)
                    if heads and _fits(counts, longest) and any(_fits(heads.get(m), longest) for m in ordered):
                        return True
        return False


def _check_mode(mode: str) -> None:
    if mode not in FILTER_MODES:
        raise UnknownNameError(f"unknown filter mode {mode!r}; valid: {', '.join(FILTER_MODES)}")


def keep_flags(
    n_atoms: int,
    levels: Sequence[Level],
    lengths: Sequence[int],
    contents: Sequence[Formula | list[Clause]],
    tests: Sequence[Formula | list[Clause]],
    mode: str,
    solver: str = SAT_SOLVER,
    guard: Guard | None = None,
) -> list[bool]:
    """Which items to keep: item ``i`` (whose ground content is ``contents[i]``, a formula
    or its clauses over the atoms' numbers; ``tests[i]`` likewise) is dropped
    when ``tests[i]`` follows from the remaining items of level ``>= levels[i]`` (in
    conservative mode only those no longer than it), tried lowest level first and, within
    a level, longest first.

    The SAT calls go through ``guard``, the run's (None: one of their own).

    The levels are worked from the highest down, which decides exactly what the lowest
    first would (``docs/filtering.md``): an item's question involves only its own level
    and those above, and the items kept above a level entail every item dropped there (by
    items no longer than it), so that asking with the kept ones or with all gives the
    same answer.  Worked downwards, what is kept is final: it joins one SAT solver for
    good as soon as it is decided (in conservative mode under a gate per length, one
    assumption), and the items of the level still undecided are switched on by one
    assumption too (a chain through them).  Each question then has a few assumptions
    (a test that is one clause: its literals, assumed false), whatever the size of its
    level or of the theory.  Three shortcuts leave every answer as it is: a test that the
    clauses switched on give by subsumption or one resolution step goes without a solver
    call (``_Switched``); an item whose test the kept items give so goes before its
    level's clauses reach the solver; and a new solver with only what is kept replaces
    one grown large (``FRESH``).
    """
    _check_mode(mode)
    kept = [True] * len(contents)
    if mode == "none":
        return kept
    order = sorted(range(len(contents)), key=lambda i: (levels[i], -lengths[i], i))
    bands = [list(band) for _, band in groupby(order, key=lambda i: levels[i])]
    work = _Filtering(n_atoms, lengths, contents, tests, mode == "conservative", solver,
                      given(guard))
    try:
        for band in reversed(bands):
            work.renewed_when_large()
            work.decide(band, kept)
    finally:
        work.sat.delete()
    return kept


class _Filtering:
    """What :func:`keep_flags` works with, level by level from the highest: one SAT solver
    holding the items kept (in conservative mode under a gate per length: ``gate[l]``
    switches on the items kept above the level that are no longer than ``l``, and
    assuming it assumes every shorter gate too), the clauses switched on by their
    literals (:class:`_Switched`), and the items kept so far."""

    def __init__(self, n_atoms: int, lengths: Sequence[int], contents: Sequence[Formula | list[Clause]],
                 tests: Sequence[Formula | list[Clause]], conservative: bool, solver: str, guard: Guard) -> None:
        self.n_atoms, self.lengths, self.contents, self.tests = n_atoms, lengths, contents, tests
        self.run_guard = guard
        self.conservative, self.solver = conservative, solver
        self.sizes = sorted(set(lengths)) if conservative else []
        self.enabled = _Switched()
        self.final: list[int] = []  # (the items kept by the levels done)
        self.live = 0  # (their clauses)
        self.sat, self.pool, self.gate = _fresh(solver, n_atoms, self.sizes)
        self.start = self.pool.top

    def given(self, i: int) -> bool:
        """Whether item ``i`` goes by what is switched on, without the solver."""
        test = self.tests[i]
        return isinstance(test, list) and self.enabled.subsume(test, self.lengths[i] if self.conservative else None)

    def renewed_when_large(self) -> None:
        """A new solver with only what is kept, once the variables added since the last
        pass :data:`FRESH` (a question's cost grows with the solver's variables, most of
        them the switches of items decided long ago)."""
        if self.pool.top - self.start <= max(FRESH, 4 * self.live):
            return
        self.sat.delete()
        self.sat, self.pool, self.gate = _fresh(self.solver, self.n_atoms, self.sizes)
        for j in self.final:
            for clause in clauses_of(self.contents[j], self.pool):
                self.sat.add_clause([*clause, -self.gate[self.lengths[j]]] if self.conservative else clause)
        self.start = self.pool.top

    def decide(self, band: list[int], kept: list[bool]) -> None:
        """Decide the items of one level (longest first), setting ``kept``."""
        # (an item whose test the kept items give goes at once, its clauses never in the
        # solver: it goes whenever asked, and out of the rest of the level's earlier
        # items it changes no answer, what gives it being in their support too)
        undecided = []
        for i in band:
            if self.given(i):
                kept[i] = False
            else:
                undecided.append(i)
        band = undecided
        selector, after, clauses = self._switched_on(band)
        # (switches no question asks again, set false at the level's end: a switch neither
        # assumed nor set only lets the solver add clauses, which changes no answer)
        done: list[Clause] = []
        for place, i in enumerate(band):
            # the band is longest first: the items before i are no shorter, those after
            # no longer; those before that it keeps are in for good already (below)
            self.enabled.remove(clauses[i], self.lengths[i])
            if self.given(i) or not self._needed(i, after[place + 1] if place + 1 < len(band) else None, done):
                kept[i] = False
            self._settle(i, kept[i], selector[i], clauses[i])
        done.extend((-switch,) for switch in after)
        self.sat.append_formula(done)

    def _switched_on(self, band: list[int]) -> tuple[dict[int, int], list[int], dict[int, list[Clause]]]:
        """The band's items in the solver, each under its selector, and the chain of
        switches (``after[p]`` switches on the items of the band from place ``p`` on: one
        assumption for the rest of the band, whatever its size); their clauses."""
        pool = self.pool
        selector = {i: pool.new() for i in band}
        after = [pool.new() for _ in band]
        clauses = {i: clauses_of(self.contents[i], pool) for i in band}
        batch: list[Clause] = []
        for place, i in enumerate(band):
            self.enabled.add(clauses[i], self.lengths[i])
            batch.extend((*clause, -selector[i]) for clause in clauses[i])
            batch.append((-after[place], selector[i]))
            if place + 1 < len(band):
                batch.append((-after[place], after[place + 1]))
        self.sat.append_formula(batch)
        return selector, after, clauses

    def _needed(self, i: int, rest: int | None, done: list[Clause]) -> bool:
        """Whether item ``i``'s test fails to follow from the items kept above and the
        rest of its band (switched on by ``rest``); a guard made for a test that is not
        one clause joins ``done``, to be set false at the level's end."""
        test = self.tests[i]
        if isinstance(test, list) and len(test) == 1:
            negation = [-lit for lit in test[0]]  # (a clause's negation: its literals, assumed false)
        else:
            guard = self.pool.new()
            self.sat.append_formula([(*clause, -guard) for clause in _negated(test, self.pool)])
            negation = [guard]
            done.append((-guard,))
        gate = [self.gate[self.lengths[i]]] if self.conservative else []
        return self.run_guard.sat(self.sat, [*([rest] if rest is not None else []), *negation, *gate])

    def _settle(self, i: int, keep: bool, selector: int, clauses: list[Clause]) -> None:
        """Item ``i`` decided: what it keeps joins every later question, of this band and
        below (in conservative mode under its length's gate)."""
        if keep:
            self.enabled.add(clauses, self.lengths[i])
            self.final.append(i)
            self.live += len(clauses)
        if keep and not self.conservative:
            self.sat.add_clause([selector])
            return
        self.sat.add_clause([-selector])
        if keep:
            self.sat.append_formula([(*clause, -self.gate[self.lengths[i]]) for clause in clauses])
