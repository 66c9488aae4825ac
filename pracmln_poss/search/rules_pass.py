"""The rules pass of the rule search: the rules of each evidence set (:func:`run_rules`,
the cases :mod:`.rules` lists), from the tables the penalties pass made
(:class:`Tables`) and the backbones ``X(E)`` found on the way (:class:`RuleState`).

Below size ``k``, ``X(E)`` is the engine's backbone from a known optimum, or read off
the table of penalties (``x`` in ``X(E)`` iff ``pen(E + {not x}) > pen(E)``); at size
``k`` the backbone starts from a known optimum and skips what rational monotonicity
already gives.  In the lifted search a head keeps one literal per class of those a
renaming fixing ``E`` maps onto each other (:func:`one_per_class`)."""

from __future__ import annotations

__all__ = ["Tables", "RuleState", "TimedState", "run_rules", "drop_each", "combine_rules", "one_per_class", "AtomParts", "RULES",
           "decided", "kind_of", "backbone_kind", "work_clock", "IMPOSSIBLE", "CAUTIOUS", "KNOWN", "ENGINE"]

import bisect
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..map.engine import MapEngine, Optimum, World
from ..weights import INF, Level
from .canonical import canonical_parts
from .checkpoint import Packed, RuleChunk, unpack_optimum, unpack_world
from .evidence import EvidenceSet
from .rule import BlockingRule, DefaultRule
from .rule_search import Canonical, RuleSearch, by_abs
from .symmetry import Symmetry
from .workers import Phase


@dataclass(frozen=True)
class Tables:
    """What the rules of any evidence set are computed from, once the optima are known."""

    penalty: dict[EvidenceSet, Level]  # per representative
    worlds: dict[EvidenceSet, World]  # an optimal world of each possible representative below size k
    levels: tuple[Level, ...]  # the finite penalties, ascending
    base: int  # the optimum without evidence (a penalty is an optimum less this)

    @classmethod
    def of(cls, optima: dict[EvidenceSet, Packed | None], k: int) -> Tables:
        """The tables of the optima of every evidence set (None: impossible)."""
        empty = optima.get(())
        base = empty[0] if empty is not None else 0
        penalty = {e: INF if o is None else o[0] - base for e, o in optima.items()}
        return cls(penalty, {e: unpack_world(o) for e, o in optima.items() if o is not None and len(e) < k},
                   tuple(sorted({p for p in penalty.values() if p != INF})), base)


_Rest = tuple[int, EvidenceSet, Canonical, Level]
"""``(y, E - {y}, its representative and renaming, its penalty)``."""


class RuleState:
    """The tables, and the backbones ``X(E)`` found so far (each computed once per process)."""

    def __init__(self, search: RuleSearch, engine: MapEngine, tables: Tables) -> None:
        self.search = search
        self.engine = engine
        self.tables = tables
        self.backbone: dict[EvidenceSet, frozenset[int]] = {}
        self.fixed_lits = frozenset(a if v else -a for a, v in search.fixed.items())
        self.parts = AtomParts(search.symmetry) if search.symmetry is not None else None

    def pen(self, lits: Iterable[int]) -> Level:
        return self.tables.penalty[self.search.canon(tuple(lits))[0]]

    def consequences(self, e: EvidenceSet, known: Optimum | None = None,
                     canon: Canonical | None = None) -> frozenset[int]:
        """X(E) over the query atoms (and E, and the fixed atoms); ``known`` is an optimum
        of ``E`` when ``E`` has ``k`` literals, ``canon`` its representative and the
        renaming onto it when the caller has them."""
        search = self.search
        if len(e) == search.options.k:  # asked about once (and most sets are of this size): not kept
            rests = [(y, rest, search.canon(rest)) for y, rest in drop_each(e)]
            return self.at_k(e, known, [(y, rest, c, self.tables.penalty[c[0]]) for y, rest, c in rests])
        rep, mapping = canon if canon is not None else search.canon(e)
        found = self.backbone.get(rep)
        if found is None:
            found = self.backbone[rep] = self._below_k(rep)
        if search.symmetry is None or not mapping:
            return found
        preimage = search.symmetry.preimage  # X(E) is X(rep) renamed back
        return frozenset(preimage(mapping, l) if l > 0 else -preimage(mapping, -l) for l in found)

    def holds(self, e: EvidenceSet, canon: Canonical, lit: int) -> bool:
        """Whether ``lit`` (of a query atom) is in X(E), for ``E`` below size ``k`` (its
        representative's X looked up through the renaming: no set is built)."""
        rep, mapping = canon
        found = self.backbone.get(rep)
        if found is None:
            found = self.backbone[rep] = self._below_k(rep)
        if self.search.symmetry is None or not mapping:
            return self.search.frame_of(rep)(lit) in found
        image = self.search.symmetry.image(mapping, abs(lit))
        return self.search.frame_of(rep)(image if lit > 0 else -image) in found

    def at_k(self, e: EvidenceSet, known: Optimum | None, rests: list[_Rest]) -> frozenset[int]:
        """X(E) for a set of ``k`` literals, by the engine (``rests``: each E - {y});
        rational monotonicity gives part of it: when pen(E) = pen(E - {y}), X(E) holds
        X(E - {y})."""
        p = self.tables.penalty[e]
        entailed = [self.consequences(rest, canon=canon) for _y, rest, canon, p_rest in rests if p_rest == p]
        framed = self.search.frame_of(e)
        return self.engine.consequences(list(e), known=known, entailed={framed(l) for x in entailed for l in x},
                                        atoms=self.search.wanted(e), parent=self.ancestor(e, p))

    def ancestor(self, e: EvidenceSet, p: Level) -> EvidenceSet | None:
        """A small subset of ``e`` with ``e``'s penalty ``p``, reached by dropping one
        literal at a time while the penalty stays (None: not even one literal can go):
        the optimal worlds of ``e`` are the subset's that satisfy ``e``, so the engine
        starts from the subset's optimum.  Literals are dropped from the end first: the
        sets of one size come in order, so those sharing a prefix come together, and the
        engine keeps the prefix's optimum for all of them."""
        penalty, canon = self.tables.penalty, self.search.canon
        a = e
        while a:
            for i in range(len(a) - 1, -1, -1):
                rest = a[:i] + a[i + 1:]
                if penalty[canon(rest)[0]] == p:
                    a = rest
                    break
            else:
                break
        return a if a != e else None

    def _below_k(self, rep: EvidenceSet) -> frozenset[int]:
        """X(rep) for a representative below size ``k``, from its known optimum: by the
        engine when it finds backbones in a few SAT calls, else read off the table of
        penalties (``x`` is in X(E) iff pen(E + {not x}) > pen(E)), a lookup per atom."""
        search, tables = self.search, self.tables
        world = tables.worlds[rep]
        p = tables.penalty[rep]
        if self.engine.sat_backbones:
            return self.engine.consequences(list(rep), known=Optimum(int(p) + tables.base, world),
                                            atoms=search.wanted(rep), parent=self.ancestor(rep, p))
        taken = {abs(l) for l in rep}
        # only literals of one MAP world can hold in all of them
        return self.fixed_lits | frozenset(rep) | frozenset(
            x for x in (a if world[a] else -a for a in search.wanted(rep) if a not in taken)
            if self.pen(rep + (-x,)) > p
        )


def work_clock(engine: MapEngine) -> float:
    """This process's CPU seconds less those ``engine`` spent making what it makes once
    (:attr:`.MapEngine.setup_seconds`): two readings differ by what the work between
    them costs an engine that has it all made, as a worker's is by the rules pass (over
    meals at k = 2 with two workers, making toulbar2 cost this process 2.3 s in its
    first sample, which priced the rules pass at twice its time)."""
    return time.process_time() - engine.setup_seconds


class TimedState(RuleState):
    """A rule state that times the backbones of the sets below size ``k`` it finds
    (:func:`work_clock`): each is found once in a pass, so a sample of the pass counts
    them apart."""

    def __init__(self, search: RuleSearch, engine: MapEngine, tables: Tables) -> None:
        super().__init__(search, engine, tables)
        self.seconds = 0.0

    def _below_k(self, rep: EvidenceSet) -> frozenset[int]:
        start = work_clock(self.engine)
        try:
            return super()._below_k(rep)
        finally:
            self.seconds += work_clock(self.engine) - start


def _prepare_rules(search: RuleSearch, engine: MapEngine, tables: Tables) -> RuleState:
    """A worker's state for :func:`run_rules`: the tables, and the backbones it finds."""
    return RuleState(search, engine, tables)


def run_rules(search: RuleSearch, engine: MapEngine, state: RuleState,
              chunk: Sequence[tuple[EvidenceSet, Packed | None]]) -> RuleChunk:
    """The rules of one chunk of evidence sets, and how many were skipped as impossible
    and by cautious monotonicity."""
    out: list[DefaultRule | BlockingRule] = []
    impossible = cautious = 0
    focus, fixed, levels = search.focus, search.fixed, state.tables.levels
    for e, known in chunk:
        p, below_e, skipped = decided(search, state, e)
        if skipped is not None:
            if skipped == IMPOSSIBLE:
                impossible += 1
            else:
                cautious += 1  # E - {y} already entails y
            continue
        if len(e) < search.options.k:
            x = state.consequences(e)
        elif known is not None and known[2] is not None:  # (found with the optimum)
            x = frozenset(known[2])
        else:
            x = state.at_k(e, unpack_optimum(known), below_e)
        head = {lit for lit in x if abs(lit) not in fixed and lit not in e and focus.is_query(abs(lit))}
        if search.options.prune_heads:
            for _y, rest, canon, p_rest in below_e:
                if p_rest == p:  # E - {y} does not entail not y (rational monotonicity)
                    head = {lit for lit in head if not state.holds(rest, canon, lit)}
        if head:
            out.append(DefaultRule(e, one_per_class(e, by_abs(head), state.parts)
                                   if search.one_per_class and state.parts is not None else by_abs(head), p))
        if p > 0:
            below = levels[bisect.bisect_left(levels, p) - 1]
            # the rules of E - {y} conclude not y when pen(E - {y}) < pen(E), if y is a query atom
            if search.options.omit_redundant_blocking and any(
                p_rest == below and focus.is_query(abs(y)) for y, _rest, _canon, p_rest in below_e
            ):
                continue
            body = e
            if search.options.long_blocking:
                body = by_abs(set(e) | {lit for lit in x if abs(lit) not in fixed and focus.is_query(abs(lit))})
            out.append(BlockingRule(e, body, below))
    return RuleChunk(out, impossible, cautious)


IMPOSSIBLE, CAUTIOUS, KNOWN, ENGINE = "impossible", "cautious", "known", "engine"
"""What the rules of a set take: nothing, the set being impossible, or decided by a
subset (cautious monotonicity); else, at size ``k``, its backbone read off (found with
its optimum) or found by the engine, the dearest by far (over meals at k = 2, 7% of
the sets and 18 of the 21 s of the rules pass)."""


def decided(search: RuleSearch, state: RuleState, e: EvidenceSet) -> tuple[Level, list[_Rest], str | None]:
    """``pen(E)``, each ``E - {y}`` with its representative and penalty, and why the rules
    of ``E`` are skipped (:data:`IMPOSSIBLE`, :data:`CAUTIOUS`; None: they are not).  Table
    lookups only, and backbones already found: no solver call."""
    penalty = state.tables.penalty
    p = penalty[e]
    if p == INF:
        return p, [], IMPOSSIBLE
    # each E - {y} once: its representative and penalty
    smaller = [(y, rest, search.canon(rest)) for y, rest in drop_each(e)]
    below_e = [(y, rest, canon, penalty[canon[0]]) for y, rest, canon in smaller]
    if any(_entails(state, rest, canon, y, p_rest, p) for y, rest, canon, p_rest in below_e):
        return p, below_e, CAUTIOUS
    return p, below_e, None


def kind_of(search: RuleSearch, state: RuleState, e: EvidenceSet, known: Packed | None) -> str:
    """What the rules of ``e``, of ``k`` literals and optimum ``known``, take (:data:`IMPOSSIBLE`,
    :data:`CAUTIOUS`, :data:`KNOWN`, :data:`ENGINE`), as :func:`run_rules` decides it."""
    skipped = decided(search, state, e)[2]
    if skipped is not None:
        return skipped
    return backbone_kind(known)


def backbone_kind(known: Packed | None) -> str:
    """How a set of ``k`` literals that its subsets do not decide gets its backbone:
    read off its optimum ``known`` (:data:`KNOWN`), or from the engine (:data:`ENGINE`)."""
    return KNOWN if known is not None and known[2] is not None else ENGINE


def _entails(state: RuleState, rest: EvidenceSet, canon: Canonical, y: int, p_rest: Level, p: Level) -> bool:
    """``(M, E - {y}) |-MAP y`` for ``E = rest + {y}`` of penalty ``p``.  When ``p`` is
    above ``pen(rest)``, every MAP world of ``rest`` has ``not y``: no.  Else ``y`` in
    X(rest) for a query atom when that is known, or ``pen(rest + {not y}) > pen(rest)``."""
    if p != p_rest:
        return False
    if canon[0] in state.backbone and state.search.focus.is_query(abs(y)):  # (not worth a backbone of its own)
        return state.holds(rest, canon, y)
    return state.pen(rest + (-y,)) > p_rest

def one_per_class(e: EvidenceSet, head: tuple[int, ...], parts: AtomParts) -> tuple[int, ...]:
    """The first literal of ``head`` of each class of those a renaming fixing ``e`` maps
    onto each other.

    Canonical forms are computed only where cheap keys leave it open: literals that
    differ only in constants ``e`` does not mention are alike (a renaming of those fixes
    ``e``), and literals whose shapes in ``e`` (:func:`_key_in`) differ are not."""
    symmetry = parts.symmetry
    codes = symmetry.use_codes
    uses: dict[str, list[int]] = {}
    for l in e:
        for c, code in codes[l]:
            uses.setdefault(c, []).append(code)
    mentioned = {c: tuple(sorted(found)) for c, found in uses.items()}  # e's constants, with how e uses each
    firsts: dict[tuple[object, ...], int] = {}  # the first literal of each fresh key
    for lit in head:
        firsts.setdefault(_key_in(lit, mentioned, parts, fresh_only=True), lit)
    by_shape: dict[tuple[object, ...], list[int]] = {}
    for lit in firsts.values():
        by_shape.setdefault(_key_in(lit, mentioned, parts, fresh_only=False), []).append(lit)
    keep: set[int] = set()
    for members in by_shape.values():
        seen: set[tuple[tuple[int, ...], ...]] = set()
        for lit in members:
            key = canonical_parts((e, (lit,)), symmetry) if len(members) > 1 else ()
            if key not in seen:
                seen.add(key)
                keep.add(lit)
    return tuple(lit for lit in head if lit in keep)


def _key_in(lit: int, mentioned: dict[str, tuple[int, ...]], parts: AtomParts, fresh_only: bool
            ) -> tuple[object, ...]:
    """``lit`` with some of its renamable constants replaced by their class, how the
    evidence uses them (``mentioned``: the renamable constants of the evidence, each
    with its uses), and the place of their first occurrence in ``lit``: those the
    evidence does not mention (``fresh_only``: equal keys for two literals exactly when
    a renaming of those, which fixes the evidence, maps one onto the other), or all of
    them (its shape: a renaming fixing the evidence keeps it, the uses included)."""
    pred, args = parts[abs(lit)]
    out: list[object] = [lit > 0, pred]
    for a, cls, place in args:
        if cls < 0:
            out.append(a)
            continue
        used = mentioned.get(a)
        out.append(a if fresh_only and used is not None else (cls, used, place))
    return tuple(out)


class AtomParts(dict[int, tuple[str, tuple[tuple[str, int, int], ...]]]):
    """Per atom (made when first asked for), its predicate and, per argument, the
    constant, its class (-1: alone in it, never renamed) and the place of its first
    occurrence: what :func:`_key_in` reads."""

    def __init__(self, symmetry: Symmetry) -> None:
        super().__init__()
        self.symmetry = symmetry

    def __missing__(self, atom: int) -> tuple[str, tuple[tuple[str, int, int], ...]]:
        types, classes = self.symmetry.types, self.symmetry.classes
        pred, args = self.symmetry.atom_info[atom]
        found = self[atom] = (pred, tuple((a, types[a] if len(classes[types[a]]) > 1 else -1, args.index(a))
                                          for a in args))
        return found


def drop_each(e: EvidenceSet) -> list[tuple[int, EvidenceSet]]:
    """Each literal of ``e`` with the rest of ``e``."""
    return [(y, tuple(l for l in e if l != y)) for y in e]


def combine_rules(parts: list[RuleChunk]) -> RuleChunk:
    """The result of a chunk of rules from those of its consecutive parts."""
    return RuleChunk([r for part in parts for r in part.rules], sum(part.impossible for part in parts),
                     sum(part.cautious for part in parts))


RULES = Phase(_prepare_rules, run_rules, RuleSearch, RuleState, combine_rules)
"""The rules pass (:mod:`.workers` runs its chunks here or on workers)."""
