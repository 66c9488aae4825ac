"""The rule core of Transformations 3 and 4: default rules for evidence sets of size <= k.

For every evidence set ``E`` (all of them for Transformation 3; one per renaming class
of interchangeable constants for Transformation 4, whose symmetry maps each set onto
its class's representative), with ``X(E)`` the literals true in all MAP worlds of ``E``:

- ``E`` is impossible (contradicts the hard formulas): nothing;
- some ``y`` in ``E`` has ``(M, E - {y}) |-MAP y`` (cautious monotonicity): nothing;
- else the rule ``(AND E => AND head, pen(E))``, ``head`` being ``X(E)`` less the
  literals of ``E``, the fixed ones, and what rational monotonicity already gives
  (Prop. 3: ``x`` in ``X(E - {y})`` where ``pen(E - {y}) = pen(E)``); no rule when
  nothing is left;
- when ``pen(E) > 0``, the blocking rule ``(not AND body, lambda'_E)`` with ``lambda'_E``
  the level just below ``pen(E)`` among the penalties of all evidence sets, and
  ``body`` ``E`` (short form) or ``E`` with ``X(E)`` (long form); it is omitted when
  ``lambda'_E = pen(E - {y})`` for some ``y`` whose negation the rules of ``E - {y}``
  conclude.

A :class:`~.focus.Focus` restricts the evidence sets to literals over the evidence and query
atoms, and the heads to query literals (docs/focus.md proves that the theory then
answers exactly the questions ``(M, E) |-MAP OR C`` with ``E`` over the evidence atoms,
``C`` over the query atoms and ``|E| + |C| <= k + 1``).

Most of the work is MAP inference, and most of it is avoided: an optimal world of
``E - {y}`` that satisfies ``y`` (renamed) is optimal for ``E``; below size ``k``,
``X(E)`` is read off the table of penalties (``x`` in ``X(E)`` iff
``pen(E + {not x}) > pen(E)``); at size ``k`` the backbone starts from a known optimum
and skips what rational monotonicity already gives.
"""

from __future__ import annotations

__all__ = ["default_rules", "RuleStats", "RuleSearch", "RuleOptions", "OptimaChunk"]

import bisect
import os
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence, Sized
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, Protocol, TypeVar

from ..errors import ArgumentError
from ..map.engine import MapEngine, Optimum, World
from ..map.instance import fixed_atoms
from ..map.interchangeable import Interchangeable
from ..model.ground_mln import GroundMLN
from ..stopping import INTERRUPTS, interrupted
from ..weights import INF, Level
from .canonical import canonical_map, canonical_parts
from .checkpoint import Begun, Checkpoint, Packed, RuleChunk, pack_optimum, search_key, unpack_optimum, unpack_world
from .evidence import EvidenceSet
from .focus import Focus
from .progress import Reporter
from .representatives import extensions, set_order
from .rule import BlockingRule, DefaultRule
from .symmetry import Memo, Symmetry, used_constants
from .tally import Tally, spread_order
from .workers import ChunkRunner, Keep, Part, Phase, chunked


@dataclass
class RuleStats:
    """What a run of the rule search did."""

    evidence_sets: int = 0
    skipped_cautious: int = 0
    skipped_impossible: int = 0
    rules: int = 0
    blocking_rules: int = 0
    conclusions: int = 0  # of the rules (a lifted theory writes a rule per conclusion)
    map_calls: int = 0

    def written(self, per_conclusion: bool) -> int:
        """The rules a theory of these gets: one per rule, or one per conclusion."""
        return (self.conclusions if per_conclusion else self.rules) + self.blocking_rules

    def add(self, sets: int, result: RuleChunk) -> None:
        """Count a chunk of ``sets`` evidence sets and what the search found for them."""
        self.evidence_sets += sets
        self.skipped_impossible += result.impossible
        self.skipped_cautious += result.cautious
        for rule in result.rules:
            if isinstance(rule, BlockingRule):
                self.blocking_rules += 1
            else:
                self.rules += 1
                self.conclusions += len(rule.head)


def _opened(saved: Checkpoint, report: Reporter | None) -> Checkpoint:
    """The checkpoint, loaded when it belongs to this search; ``report`` notes whether it
    resumes from it, and how far, or why not."""
    if not saved.load() and saved.refused is not None and report is not None:
        report.note(f"not resuming from {saved.path}: {saved.refused}; starting over (the file will be replaced)")
    if saved.resumed and report is not None:
        under_way = "".join(f", {len(chunks)} chunk(s) of size {size}" for size, chunks in saved.partial.items()
                            if chunks)
        taken = saved.begun if isinstance(saved.begun, Begun) else None
        started = "" if taken is None else (f", and {taken.items} evidence set(s) of the chunk under way"
                                            f" ({'optima' if taken.optima is not None else 'rules'})")
        report.note(f"resuming from {saved.path}: {len(saved.optima)} size(s) of optima{under_way} and "
                    f"{len(saved.rules)} chunk(s) of rules done{started}")
    return saved


def _by_abs(lits: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(lits, key=lambda l: (abs(l), l)))


class RuleOptions(Protocol):
    """What a rule search is asked for (Transformations 3 and 4's options classes hold it).

    :ivar k: the largest evidence set.
    :ivar long_blocking: blocking rules ``not (AND E ^ AND X(E))`` instead of ``not AND E``.
    :ivar omit_redundant_blocking: drop blocking rules the rules for ``E - {y}`` entail.
    :ivar prune_heads: remove from heads what rational monotonicity gives (Prop. 3).
    """

    @property
    def k(self) -> int: ...

    @property
    def long_blocking(self) -> bool: ...

    @property
    def omit_redundant_blocking(self) -> bool: ...

    @property
    def prune_heads(self) -> bool: ...


@dataclass(frozen=True)
class RuleSearch:
    """One conversion's search without its solver: what a worker process needs besides
    a MAP engine of its own (:mod:`.workers` ships it pickled).

    :ivar options: what the search is asked for (the transformation's options, as given).
    :ivar backend: the MAP backend each worker opens (the name the engine resolved).
    :ivar symmetry: the classes of interchangeable constants (Transformation 4), or None.
    :ivar focus: evidence over its evidence atoms, conclusions about its query atoms.
    :ivar one_per_class: with ``symmetry``, a head keeps one literal of those that a
        renaming fixing ``E`` maps onto each other (the lifted rules say the rest).
    """

    mln: GroundMLN
    options: RuleOptions
    backend: str
    symmetry: Symmetry | None = None
    focus: Focus = Focus()
    one_per_class: bool = False

    def canon(self, e: EvidenceSet) -> tuple[EvidenceSet, dict[str, str]]:
        """The representative of ``e``'s class and the renaming onto it (``e`` sorted
        and no renaming without a symmetry)."""
        if self.symmetry is None:
            return _by_abs(e), {}
        return canonical_map(e, self.symmetry)

    @cached_property
    def interchangeable(self) -> Interchangeable | None:
        """The classes of interchangeable constants as the MAP searches see them (None
        without a symmetry)."""
        return None if self.symmetry is None else Interchangeable.of(self.mln, self.symmetry.classes)

    @cached_property
    def fixed(self) -> dict[int, bool]:
        """Atoms fixed by hard unit formulas, and their values."""
        return fixed_atoms(self.mln)[0]

    @cached_property
    def enumerated(self) -> list[int]:
        """The atoms evidence sets are built from (:meth:`.focus.Focus.enumerated` of the free ones)."""
        return self.focus.enumerated([a for a in range(1, self.mln.n_atoms + 1) if a not in self.fixed])

    @cached_property
    def allowed(self) -> frozenset[int]:
        """:attr:`enumerated` as a set."""
        return frozenset(self.enumerated)

    @cached_property
    def query_free(self) -> list[int]:
        """The free atoms rules may conclude about."""
        return [a for a in range(1, self.mln.n_atoms + 1) if a not in self.fixed and self.focus.is_query(a)]

    @cached_property
    def framed(self) -> bool:
        """Whether a backbone ``X(E)`` is kept as its literals over the *frame* of ``E``:
        the smallest atom of each orbit of the renamings that fix every constant of ``E``
        (:meth:`.Symmetry.frame_atoms`; ``X(E)`` is a union of such orbits, so this says
        all of it: docs/symmetry.md).  So in the lifted search, which writes one
        conclusion per orbit, unless its blocking rules are long (they write all of
        ``X(E)``), and where some constants are interchangeable."""
        return (self.symmetry is not None and self.one_per_class and not self.options.long_blocking
                and any(len(members) > 1 for members in self.symmetry.classes))

    @cached_property
    def _query_set(self) -> frozenset[int]:
        return frozenset(self.query_free)

    def wanted(self, e: EvidenceSet) -> list[int]:
        """The atoms ``X(e)`` is computed over: the free query atoms, those of ``e``'s
        frame when :attr:`framed` (a few per predicate, however large the domains)."""
        if not self.framed or self.symmetry is None:
            return self.query_free
        query = self._query_set
        return [a for a in self.symmetry.frame_atoms(used_constants(e, self.symmetry)) if a in query]

    def frame_of(self, e: EvidenceSet) -> Callable[[int], int]:
        """A literal -> the literal of its orbit in ``e``'s frame (itself unless :attr:`framed`)."""
        symmetry = self.symmetry
        if not self.framed or symmetry is None:
            return _same
        used = used_constants(e, symmetry)
        return lambda l: symmetry.in_frame(used, l) if l > 0 else -symmetry.in_frame(used, -l)

    def key(self, sets: Sequence[EvidenceSet] | None) -> str:
        """What the result depends on, as a digest (for checkpoints); ``sets`` None: the
        representatives (a function of the rest)."""
        symmetry = None if self.symmetry is None else (self.symmetry.domains, self.symmetry.classes)
        focus = tuple(None if a is None else sorted(a) for a in (self.focus.evidence, self.focus.query))
        given = None if sets is None else (len(sets), sets[:1], sets[-1:])
        o = self.options
        return search_key(self.mln, o.k, symmetry, focus, o.long_blocking, o.omit_redundant_blocking,
                          o.prune_heads, self.one_per_class, given)


def default_rules(
    engine: MapEngine,
    search: RuleSearch,
    sets: Sequence[EvidenceSet] | None,
    *,
    report_optima: Reporter | None = None,
    report_rules: Reporter | None = None,
    stats: RuleStats | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> Generator[DefaultRule | BlockingRule, None, None]:
    """The rules of ``search`` for ``sets`` (every evidence set of at most ``search.options.k``
    literals, smallest first; with ``search.symmetry``, one per renaming class, each its
    class's representative: ``None`` finds them, :func:`~.representatives.representatives`, size
    by size with the optima).

    Free atoms are those not fixed by hard units; the sets must be over free atoms.

    :param executor: where the chunks of each phase run (:mod:`.workers`; None: here).
        The rules come in the same order, and are the same, whatever runs them.
    :param checkpoint: a file to keep finished work in, resumed from when it belongs
        to this search (:mod:`.checkpoint`); left when the search ends, for the caller to
        :func:`~.checkpoint.discard` once the result is safe.
    """
    stats = stats if stats is not None else RuleStats()
    k = search.options.k
    if sets is None and search.symmetry is None:
        raise ArgumentError("a search for one evidence set per renaming class (sets=None) needs a symmetry")
    runner = ChunkRunner(search, engine, executor)
    if report_optima is not None and report_optima.total is None and sets is not None:
        report_optima.total = len(sets)
    saved = (_opened(Checkpoint(checkpoint, search.key(sets), engine.mln.n_atoms, k,
                                max_level=sum(int(wf.weight) for wf in engine.mln.soft)), report_rules)
             if checkpoint is not None else None)
    try:
        sets, optima = _all_optima(search, runner, sets, report_optima, saved)
        if report_rules is not None and report_rules.total is None:
            report_rules.total = len(sets)
        tables = _Tables.of(optima, k)
        chunks = chunked([(e, optima[e] if len(e) == k else None) for e in sets])
        del optima  # (the chunks keep what the rules need)
        done = 0
        begun = saved.begun if saved is not None and isinstance(saved.begun, Begun) else None
        start = (begun.chunk, begun.items, begun.rules) if begun is not None and begun.rules is not None else None
        replayed = set(saved.rules) if saved is not None else set()
        tally = _watched(report_rules, chunks, replayed, 0, report_optima.after if report_optima is not None else None)

        def finished(i: int, result: RuleChunk, seconds: float) -> None:
            if saved is not None:
                saved.chunk_done(saved.rules, i, result)
            if tally is not None:
                tally.finished(i, seconds)

        results = runner.map(_RULES, tables, chunks, saved.rules if saved is not None else None,
                             _part(report_rules, lambda: done, lambda: stats.written(search.one_per_class),
                                   start[1] if start is not None else None),
                             start, _keeper(saved, lambda i, items, parts: Begun(0, i, items, None, _combine_rules(parts))),
                             spread_order([len(c) for c in chunks]) if tally is not None else None, finished)
        for i, (chunk, result) in enumerate(zip(chunks, results)):
            done += len(chunk)
            stats.add(len(chunk), result)
            if report_rules is not None and i in replayed:
                report_rules.resumed(done)
            elif report_rules is not None:
                report_rules(done, stats.written(search.one_per_class), len(chunk[-1][0]))
            yield from result.rules
    except INTERRUPTS + (BrokenExecutor, GeneratorExit) as exc:
        # (an interrupt, a signal, a worker killed; or the caller closing this search early,
        # as it does when an interrupt reaches it between two rules)
        if saved is not None and (isinstance(exc, (BrokenExecutor, GeneratorExit)) or interrupted(exc)):
            saved.save()
        raise
    if report_rules is not None:
        report_rules(len(sets), stats.written(search.one_per_class), final=True)
    stats.map_calls = engine.calls + runner.calls
    if saved is not None:
        saved.finish()  # (kept: the caller discards it once the result is safe)


def _part(report: Reporter | None, done: Callable[[], int], rules: Callable[[], int], begun: int | None = None
          ) -> Part | None:
    """What reports the items of the chunk at hand as they are done (``done``: the
    items of the chunks before it, ``rules``: the rules found in them; ``begun``: the
    items of a chunk taken from a checkpoint, reported as resumed, not as worked)."""
    if report is None:
        return None
    resumed = [begun]

    def part(n: int | None) -> None:
        if n is not None and n == resumed[0]:
            resumed[0] = None
            report.resumed(done() + n)
            return
        report(done() + (n or 0), rules())

    return part


R = TypeVar("R")


def _begun_optima(size: int) -> Callable[[int, int, list[OptimaChunk]], Begun]:
    """:class:`~.checkpoint.Begun` of a chunk of optima of evidence sets of ``size``."""
    return lambda chunk, items, parts: Begun(size, chunk, items, [p for part in parts for p in part.optima], None)


def _keeper(saved: Checkpoint | None, begun: Callable[[int, int, list[R]], Begun]) -> Keep[R] | None:
    """What keeps, in the checkpoint, what is done of the chunk under way: made from its
    parts only when the checkpoint is written (joined after every part, they would cost
    work quadratic in a chunk's parts)."""
    if saved is None:
        return None

    def keep(chunk: int, items: int, parts: list[R]) -> None:
        saved.begun = lambda: begun(chunk, items, parts)
        saved.save(force=False)

    return keep


def _run_extensions(search: RuleSearch, engine: MapEngine, state: None, chunk: Sequence[EvidenceSet]
                   ) -> list[EvidenceSet]:
    """The representatives one literal larger than those of ``chunk`` (with repeats
    across chunks)."""
    symmetry = search.symmetry
    if symmetry is None:
        raise ArgumentError("a search for one evidence set per renaming class (sets=None) needs a symmetry")
    return list({image for rep in chunk for image in extensions(rep, symmetry, search.allowed)})


def _prepare_extensions(search: RuleSearch, engine: MapEngine, shared: None) -> None:
    """A worker's state for :func:`_run_extensions`: none."""
    return None


def _extended(runner: ChunkRunner[RuleSearch], chunks: Sequence[Sequence[EvidenceSet]]) -> set[EvidenceSet]:
    """The representatives one literal larger than those of ``chunks`` (found in chunks)."""
    if not chunks:
        return set()
    return {image for part in runner.map(_EXTENSIONS, None, chunks) for image in part}


def _all_optima(search: RuleSearch, runner: ChunkRunner[RuleSearch], sets: Sequence[EvidenceSet] | None,
                report: Reporter | None, saved: Checkpoint | None
                ) -> tuple[Sequence[EvidenceSet], dict[EvidenceSet, Packed | None]]:
    """The sets and an optimal world of each (None when it is impossible), size by size,
    packed (:func:`~.checkpoint.pack_optimum`: a few bytes a set, not a tuple per atom).

    With ``sets`` None, the sets are the representatives of the renaming classes
    (:func:`~.representatives.representatives`: those of size ``s + 1`` are the canonical
    images of the one-literal extensions of those of size ``s``): each chunk of size
    ``s`` returns its sets' extensions with their optima, so that one pass over the
    chunks of a size does both.
    """
    optima: dict[EvidenceSet, Packed | None] = {}
    grow = sets is None
    groups: dict[int, list[EvidenceSet]] = {0: [()]} if sets is None else _by_size(sets)
    found: list[EvidenceSet] = []
    for size in range(search.options.k + 1) if grow else sorted(groups):
        if size not in groups:  # (growing, after a size taken from the checkpoint)
            groups[size] = ([e for e, _ in saved.optima[size]] if saved is not None and size in saved.optima
                            else sorted(_extended(runner, chunked(groups[size - 1])), key=set_order))
        group = groups[size]
        if not group:
            break
        found.extend(group)
        extend = grow and size < search.options.k
        if report is not None and grow and not extend:
            report.total = len(found)
        if saved is not None and size in saved.optima:
            optima.update(saved.optima[size])
            if report is not None:
                report.resumed(len(optima))
            continue
        last = not extend if grow else size == max(groups)
        images = _optima_of_size(search, runner, group, size, optima, (groups.get(size - 1, ()), extend, last),
                                 report, saved)
        if extend:
            groups[size + 1] = sorted(images, key=set_order)
        if saved is not None:
            _size_saved(saved, size, [(e, optima[e]) for e in group] if extend else None)
    if report is not None:
        report(len(found), 0, final=True)
    if optima.get(()) is None:
        runner.engine.base()  # raises: the hard formulas are unsatisfiable
    return found, optima


def _optima_of_size(search: RuleSearch, runner: ChunkRunner[RuleSearch], group: Sequence[EvidenceSet], size: int,
                    optima: dict[EvidenceSet, Packed | None], how: tuple[Sequence[EvidenceSet], bool, bool],
                    report: Reporter | None, saved: Checkpoint | None) -> set[EvidenceSet]:
    """The optima of the sets ``group`` of ``size`` literals, into ``optima`` (which holds
    those of the sizes below), and the representatives one literal larger when asked
    (``how``: the sets of the size below, whether to find those, and whether this is the
    last size: run spread over it, and the rules pass forecast, when someone listens)."""
    below, extend, last = how
    previous = {e: optima[e] for e in below}
    base = (optima.get(()) or (None,))[0]  # (the optimum without evidence, once size 0 is done)
    chunks = chunked(group)
    images: set[EvidenceSet] = set()
    # the optima of the chunks finished before an interrupt (their extensions are
    # found again: kept, they would make the checkpoint many times larger)
    partial = saved.partial.setdefault(size, {}) if saved is not None else {}
    replayed = set(partial)
    start = _begun_optima_at(saved, size)
    offset = len(optima)  # (the sets of the sizes below)
    tally = _watched(report, chunks, replayed, len(optima), None) if last else None
    if tally is not None and report is not None:
        report(offset, 0, size)  # (the size at hand from the first line: the chunks run spread, the first ones late)
    forecast = _Forecast(search, runner, optima, Counter(len(e) for e in optima)) if tally is not None else None

    def finished(i: int, result: OptimaChunk, seconds: float) -> None:
        optima.update(zip(chunks[i], result.optima))
        if saved is not None:
            saved.chunk_done(partial, i, result.optima)
        if tally is not None and forecast is not None and report is not None:
            tally.finished(i, seconds)
            forecast.time(chunks[i], report)

    results = runner.map(_OPTIMA, (previous, base, extend), chunks,
                         {i: OptimaChunk(packed, None) for i, packed in partial.items()},
                         _part(report, lambda: len(optima), lambda: 0, start[1] if start is not None else None),
                         start, _keeper(saved, _begun_optima(size)),
                         spread_order([len(c) for c in chunks]) if tally is not None else None, finished)
    again: list[Sequence[EvidenceSet]] = []
    done = offset
    for i, (chunk, (packed, more)) in enumerate(zip(chunks, results)):
        if i in replayed:  # (taken from the checkpoint: not heard finished, where the others went in)
            optima.update(zip(chunk, packed))
        done += len(chunk)
        if more is None:
            again.append(chunk)
        else:
            images.update(more)
        if report is not None and i in replayed:
            report.resumed(done)
        elif report is not None:
            report(done, 0, size)
    return images | _extended(runner, again) if extend else images


def _watched(report: Reporter | None, chunks: Sequence[Sized], replayed: Iterable[int], offset: int,
             prior: float | None) -> Tally | None:
    """A tally of ``chunks`` (those ``replayed`` taken from a checkpoint) that ``report``
    is weighed with (after ``offset`` items; ``prior``: what the pass is expected to
    take), when someone listens to it (None: no one)."""
    if report is None or report.progress is None:
        return None
    tally = Tally([len(c) for c in chunks])
    for i in replayed:
        tally.resumed(i)
    report.weigh(tally, offset, prior)
    return tally


def _by_size(sets: Sequence[EvidenceSet]) -> dict[int, list[EvidenceSet]]:
    """The sets by their size, each size in their order."""
    groups: dict[int, list[EvidenceSet]] = {}
    for e in sets:
        groups.setdefault(len(e), []).append(e)
    return groups


def _begun_optima_at(saved: Checkpoint | None, size: int) -> tuple[int, int, OptimaChunk] | None:
    """The chunk of ``size`` whose optima a checkpoint holds in part: its index, how many
    of its sets are done, and their optima (None: none)."""
    begun = saved.begun if saved is not None and isinstance(saved.begun, Begun) else None
    if begun is None or begun.optima is None or begun.size != size:
        return None
    return begun.chunk, begun.items, OptimaChunk(begun.optima, None)


def _size_saved(saved: Checkpoint, size: int, optima: list[tuple[EvidenceSet, Packed | None]] | None) -> None:
    """A size's optima done, saved: a size below the last as its sets with their optima
    (None: the last size, which stays in its chunks, each encoded once already: a resumed
    run finds its sets again from the size below)."""
    if optima is not None:
        saved.optima[size] = optima
        saved.partial.pop(size, None)
    saved.save()


SAMPLE_SHARE = 0.02
"""What timing the rules of sets costs, as a share of the penalties pass so far (at least
:data:`SAMPLE_LEAST` seconds): the forecast of the rules pass as the optima come."""

SAMPLE_LEAST = 0.05

RULE_SECONDS = 5e-6
"""What taking in one rule costs the caller of the search (writing it, mostly): 2.1 s
for the 371,041 rules of object-recognition over 2 clusters at k = 2."""


class _Forecast:
    """How long the rules pass will take, told ``report`` (:meth:`.Reporter.expect_after`)
    as the chunks of optima of the last size are done (``optima``: of the sets found so
    far), from the rules of the first sets of each timed here, in their order (the
    chunks come spread over the pass, :mod:`.tally`; sets spread over a chunk cost three
    times what they do in the pass over CORA, which finds one after the other): for
    :data:`SAMPLE_SHARE` of the pass so far in all.  The rules pass costs 0.002 to 3.5 times the penalties pass by the
    model (meals: the backbones come with the optima; the smokers: the rules ask for
    them), so no constant makes the first estimate of a whole run hold; the sets of the
    last size are most of the sets.  The tables are as far as they are known (a penalty
    not yet found is taken as 0): the rules are thrown away, only their time counts.

    The backbones of the smaller sets the rules ask for are found once in the pass, and
    once here (one state keeps them from chunk to chunk), and priced by their size: over
    meals the one of no evidence costs what a dozen of one literal do, and found again
    for each chunk it said a rules pass of 80 s would take 20 minutes.

    :param smaller: how many sets of each size below the last there are.
    """

    def __init__(self, search: RuleSearch, runner: ChunkRunner[RuleSearch],
                 optima: Mapping[EvidenceSet, Packed | None], smaller: Mapping[int, int]) -> None:
        self.search, self.runner, self.optima, self.smaller = search, runner, optima, smaller
        self.spent = 0.0
        self.timed = self.rules = 0
        self.set_seconds = 0.0
        self.state: _TimedState | None = None

    def time(self, chunk: Sequence[EvidenceSet], report: Reporter) -> None:
        """Time the rules of sets of ``chunk`` (its optima just found), and tell ``report``."""
        empty = self.optima.get(())
        budget = max(SAMPLE_LEAST, SAMPLE_SHARE * report.elapsed)
        if empty is None or report.total is None or (self.timed and self.spent >= budget):
            return
        state = self._state(empty[0])
        k = self.search.options.k
        start, backbones = time.process_time(), state.seconds
        for e in chunk:  # (its first sets, in their order, as the pass finds them: alone, one costs 3 times as much)
            self.rules += len(_run_rules(self.search, self.runner.engine, state,
                                         [(e, self.optima[e] if len(e) == k else None)]).rules)
            self.timed += 1
            if self.spent + time.process_time() - start >= budget:
                break
        seconds = time.process_time() - start
        self.spent += seconds
        self.set_seconds += seconds - (state.seconds - backbones)
        found = [t for took in state.by_size.values() for t in took]
        mean = sum(found) / len(found) if found else 0.0
        below = sum(n * (sum(state.by_size[size]) / len(state.by_size[size]) if state.by_size.get(size) else mean)
                    for size, n in self.smaller.items())
        # (the workers find the rules; this process takes each in)
        report.expect_after((self.set_seconds / self.timed * report.total + below) / self.runner.workers
                            + RULE_SECONDS * self.rules / self.timed * report.total)

    def _state(self, base: int) -> _TimedState:
        """The rule state, over the optima found so far (the search's own engine: one of
        its own would cost its making and first optimum, 0.57 s for object-recognition
        over two objects; the questions asked here add what they teach it, about 1.5%
        more solver calls in the rest of CORA at k = 3)."""
        optima = self.optima

        def penalty_of(e: EvidenceSet) -> Level:
            if e not in optima:
                return 0
            found = optima[e]
            return INF if found is None else found[0] - base

        def world_of(e: EvidenceSet) -> World:  # (asked only of possible sets)
            found = optima[e]
            if found is None:
                raise KeyError(e)
            return unpack_world(found)

        levels = tuple(sorted({o[0] - base for o in optima.values() if o is not None}))
        tables = _Tables(Memo(penalty_of), Memo(world_of), levels, base)
        if self.state is None:
            self.state = _TimedState(self.search, self.runner.engine, tables)
        else:  # (the backbones found kept: the pass finds each once)
            self.state.tables = tables
        return self.state


class _OptimaState(NamedTuple):
    """What the chunks of one size of :func:`_all_optima` share: the optima of the size
    below, the optimum without evidence (None before it is known), and whether to find the
    representatives one size larger."""

    previous: dict[EvidenceSet, Optimum | None]
    base: int | None
    extend: bool


class OptimaChunk(NamedTuple):
    """What one chunk of :func:`_all_optima` gives: its sets' optima, packed, and the
    representatives one literal larger (None: to be found again, for a chunk taken from
    a checkpoint)."""

    optima: list[Packed | None]
    extensions: list[EvidenceSet] | None


def _prepare_optima(search: RuleSearch, engine: MapEngine,
                    shared: tuple[dict[EvidenceSet, Packed | None], int | None, bool]) -> _OptimaState:
    """A worker's state for :func:`_run_optima`: the shared optima unpacked."""
    previous, base, extend = shared
    return _OptimaState({e: unpack_optimum(p) for e, p in previous.items()}, base, extend)


def _run_optima(search: RuleSearch, engine: MapEngine, state: _OptimaState,
               chunk: Sequence[EvidenceSet]) -> OptimaChunk:
    """The optima of one chunk of sets of one size, from those of the size below, and
    (when the state says so) the representatives one literal larger.

    Most optima need no solver call: if a (renamed) optimal world of ``E - {y}``
    satisfies ``y``, it is optimal for ``E`` too (``pen(E) >= pen(E - {y})``); if
    ``E - {y}`` is impossible, so is ``E``.

    Else, when every ``E - {y}`` has penalty 0, an optimal world without evidence that
    satisfies ``E`` is optimal for ``E`` if there is one (:meth:`.MapEngine.optimum_within`:
    one SAT call on a backend that keeps those worlds); only when there is none is ``E``
    solved.

    A set of ``k`` literals whose optimum is above that of every ``E - {y}`` gets its
    backbone ``X(E)`` with it: no ``E - {y}`` entails its ``y`` then, so the rules will
    ask for it, and no subset's optimal worlds give ``E``'s, while the engine has ``E``'s
    at hand now.
    """
    previous, base, extend = state
    out = []
    for e in chunk:
        decided, found, highest = _from_subsets(e, previous, search.canon, search.symmetry)
        backbone = None
        if not decided:
            found = engine.optimum_within(list(e), (), base) if highest == base and engine.sat_backbones else None
            if found is None:
                found = engine.find_optimum(list(e))
                if found is not None and len(e) == search.options.k and found.cost > highest and engine.sat_backbones:
                    backbone = engine.consequences(list(e), known=found, atoms=search.wanted(e))
        out.append(pack_optimum(found, backbone))
    return OptimaChunk(out, _run_extensions(search, engine, None, chunk) if extend else [])


@dataclass(frozen=True)
class _Tables:
    """What the rules of any evidence set are computed from, once the optima are known."""

    penalty: dict[EvidenceSet, Level]  # per representative
    worlds: dict[EvidenceSet, World]  # an optimal world of each possible representative below size k
    levels: tuple[Level, ...]  # the finite penalties, ascending
    base: int  # the optimum without evidence (a penalty is an optimum less this)

    @classmethod
    def of(cls, optima: dict[EvidenceSet, Packed | None], k: int) -> _Tables:
        """The tables of the optima of every evidence set (None: impossible)."""
        empty = optima.get(())
        base = empty[0] if empty is not None else 0
        penalty = {e: INF if o is None else o[0] - base for e, o in optima.items()}
        return cls(penalty, {e: unpack_world(o) for e, o in optima.items() if o is not None and len(e) < k},
                   tuple(sorted({p for p in penalty.values() if p != INF})), base)


Canonical = tuple[EvidenceSet, dict[str, str]]
"""An evidence set's representative and the renaming onto it."""

_Rest = tuple[int, EvidenceSet, Canonical, Level]
"""``(y, E - {y}, its representative and renaming, its penalty)``."""


class _RuleState:
    """The tables, and the backbones ``X(E)`` found so far (each computed once per process)."""

    def __init__(self, search: RuleSearch, engine: MapEngine, tables: _Tables) -> None:
        self.search = search
        self.engine = engine
        self.tables = tables
        self.backbone: dict[EvidenceSet, frozenset[int]] = {}
        self.fixed_lits = frozenset(a if v else -a for a, v in search.fixed.items())
        self.parts = _AtomParts(search.symmetry) if search.symmetry is not None else None

    def pen(self, lits: Iterable[int]) -> Level:
        return self.tables.penalty[self.search.canon(tuple(lits))[0]]

    def consequences(self, e: EvidenceSet, known: Optimum | None = None,
                     canon: Canonical | None = None) -> frozenset[int]:
        """X(E) over the query atoms (and E, and the fixed atoms); ``known`` is an optimum
        of ``E`` when ``E`` has ``k`` literals, ``canon`` its representative and the
        renaming onto it when the caller has them."""
        search = self.search
        if len(e) == search.options.k:  # asked about once (and most sets are of this size): not kept
            rests = [(y, rest, search.canon(rest)) for y, rest in _drop_each(e)]
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


class _TimedState(_RuleState):
    """A rule state that times the backbones of the sets below size ``k`` it finds, by
    their size: each is found once in a pass, so a sample of the pass counts them apart."""

    def __init__(self, search: RuleSearch, engine: MapEngine, tables: _Tables) -> None:
        super().__init__(search, engine, tables)
        self.seconds = 0.0
        self.by_size: dict[int, list[float]] = {}  # (size -> what each backbone of it took)

    def _below_k(self, rep: EvidenceSet) -> frozenset[int]:
        start = time.process_time()
        try:
            return super()._below_k(rep)
        finally:
            took = time.process_time() - start
            self.seconds += took
            self.by_size.setdefault(len(rep), []).append(took)


def _prepare_rules(search: RuleSearch, engine: MapEngine, tables: _Tables) -> _RuleState:
    """A worker's state for :func:`_run_rules`: the tables, and the backbones it finds."""
    return _RuleState(search, engine, tables)


def _run_rules(search: RuleSearch, engine: MapEngine, state: _RuleState,
              chunk: Sequence[tuple[EvidenceSet, Packed | None]]) -> RuleChunk:
    """The rules of one chunk of evidence sets, and how many were skipped as impossible
    and by cautious monotonicity."""
    out: list[DefaultRule | BlockingRule] = []
    impossible = cautious = 0
    focus, fixed, levels = search.focus, search.fixed, state.tables.levels
    penalty = state.tables.penalty
    for e, known in chunk:
        p = penalty[e]
        if p == INF:
            impossible += 1
            continue
        # each E - {y} once: its representative, penalty and consequences
        smaller = [(y, rest, search.canon(rest)) for y, rest in _drop_each(e)]
        below_e = [(y, rest, canon, penalty[canon[0]]) for y, rest, canon in smaller]
        if any(_entails(state, rest, canon, y, p_rest, p) for y, rest, canon, p_rest in below_e):
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
            out.append(DefaultRule(e, _one_per_class(e, _by_abs(head), state.parts)
                                   if search.one_per_class and state.parts is not None else _by_abs(head), p))
        if p > 0:
            below = levels[bisect.bisect_left(levels, p) - 1]
            # the rules of E - {y} conclude not y when pen(E - {y}) < pen(E), if y is a query atom
            if search.options.omit_redundant_blocking and any(
                p_rest == below and focus.is_query(abs(y)) for y, _rest, _canon, p_rest in below_e
            ):
                continue
            body = e
            if search.options.long_blocking:
                body = _by_abs(set(e) | {lit for lit in x if abs(lit) not in fixed and focus.is_query(abs(lit))})
            out.append(BlockingRule(e, body, below))
    return RuleChunk(out, impossible, cautious)


def _entails(state: _RuleState, rest: EvidenceSet, canon: Canonical, y: int, p_rest: Level, p: Level) -> bool:
    """``(M, E - {y}) |-MAP y`` for ``E = rest + {y}`` of penalty ``p``.  When ``p`` is
    above ``pen(rest)``, every MAP world of ``rest`` has ``not y``: no.  Else ``y`` in
    X(rest) for a query atom when that is known, or ``pen(rest + {not y}) > pen(rest)``."""
    if p != p_rest:
        return False
    if canon[0] in state.backbone and state.search.focus.is_query(abs(y)):  # (not worth a backbone of its own)
        return state.holds(rest, canon, y)
    return state.pen(rest + (-y,)) > p_rest


def _one_per_class(e: EvidenceSet, head: tuple[int, ...], parts: _AtomParts) -> tuple[int, ...]:
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


def _key_in(lit: int, mentioned: dict[str, tuple[int, ...]], parts: _AtomParts, fresh_only: bool
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


class _AtomParts(dict[int, tuple[str, tuple[tuple[str, int, int], ...]]]):
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


def _same(lit: int) -> int:
    return lit


def _drop_each(e: EvidenceSet) -> list[tuple[int, EvidenceSet]]:
    """Each literal of ``e`` with the rest of ``e``."""
    return [(y, tuple(l for l in e if l != y)) for y in e]


Canon = Callable[[EvidenceSet], Canonical]
"""An evidence set -> its class's representative and the renaming onto it."""


def _from_subsets(e: EvidenceSet, optima: Mapping[EvidenceSet, Optimum | None], canon: Canon,
                  symmetry: Symmetry | None) -> tuple[bool, Optimum | None, int]:
    """``(True, None, _)`` when some ``E - {y}`` is impossible, ``(True, optimum, _)`` when a
    renamed optimum of some ``E - {y}`` satisfies ``y``, else ``(False, None, highest)``
    with the highest optimum of the sets ``E - {y}`` (-1 when there are none)."""
    inherited = None
    highest = -1
    for y in e:
        rest, mapping = canon(tuple(l for l in e if l != y))
        known = optima[rest]
        if known is None:
            return True, None, highest
        highest = max(highest, known.cost)
        if inherited is None:
            if symmetry is None:
                if known.world.satisfies(y):
                    inherited = known
            else:
                image = symmetry.image(mapping, abs(y))  # y renamed onto the representative
                if known.world.values[image] == (y > 0):
                    # the representative's optimum turned into one of the set: atom a
                    # takes the value of its image
                    inherited = Optimum(known.cost, World(symmetry.transport(mapping, known.world.values)))
    return inherited is not None, inherited, highest


def _combine_optima(parts: list[OptimaChunk]) -> OptimaChunk:
    """The result of a chunk of optima from those of its consecutive parts (its
    extensions to be found again when a part's are: one taken from a checkpoint)."""
    return OptimaChunk([p for part in parts for p in part.optima],
                       None if any(part.extensions is None for part in parts)
                       else list({e for part in parts for e in part.extensions or ()}))


def _combine_rules(parts: list[RuleChunk]) -> RuleChunk:
    """The result of a chunk of rules from those of its consecutive parts."""
    return RuleChunk([r for part in parts for r in part.rules], sum(part.impossible for part in parts),
                     sum(part.cautious for part in parts))


_EXTENSIONS = Phase(_prepare_extensions, _run_extensions, RuleSearch, type(None))
_OPTIMA = Phase(_prepare_optima, _run_optima, RuleSearch, _OptimaState, _combine_optima)
_RULES = Phase(_prepare_rules, _run_rules, RuleSearch, _RuleState, _combine_rules)
"""The phases of the rule search (:mod:`.workers` runs their chunks here or on workers)."""
