"""The penalties pass of the rule search: an optimal world of every evidence set (so its
penalty), size by size, each from those of the sets one literal smaller when it can be
(``_run_optima``); with a symmetry, the representatives of each size found with
the optima of the size below (:func:`all_optima`)."""

from __future__ import annotations

__all__ = ["OptimaChunk", "all_optima", "combine_optima", "OPTIMA", "EXTENSIONS"]

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ..errors import ArgumentError
from ..map.engine import MapEngine, Optimum, World
from .checkpoint import Begun, Checkpoint, Packed, pack_optimum, unpack_optimum
from .evidence import EvidenceSet
from .forecast import Forecast
from .progress import Reporter
from .representatives import extensions, set_order
from .rule_search import Canonical, RuleSearch
from .run import fitted, keeper, part_reporter, watched
from .symmetry import Symmetry
from .workers import ChunkRunner, Phase, chunked


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
    return {image for part in runner.map(EXTENSIONS, None, chunks) for image in part}


def all_optima(search: RuleSearch, runner: ChunkRunner[RuleSearch], sets: Sequence[EvidenceSet] | None,
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
    fitted(saved, report, "optima", partial, chunks, lambda b: b.optima is not None and b.size == size, len)
    replayed = set(partial)
    start = _begun_optima_at(saved, size)
    offset = len(optima)  # (the sets of the sizes below)
    tally = watched(report, chunks, replayed, len(optima), None) if last else None
    if tally is not None and report is not None:
        report(offset, 0, size)  # (the size at hand from the first line: the chunks run spread, the first ones late)
    forecast = Forecast(search, runner, optima, [e for e in optima if len(e) < size], chunks) if tally is not None else None

    def finished(i: int, result: OptimaChunk, seconds: float) -> None:
        optima.update(zip(chunks[i], result.optima))
        if saved is not None:
            saved.chunk_done(partial, i, result.optima)
        if tally is not None and forecast is not None and report is not None:
            tally.finished(i, seconds)
            forecast.time(chunks[i], report, seconds)

    results = runner.map(OPTIMA, (previous, base, extend), chunks,
                         {i: OptimaChunk(packed, None) for i, packed in partial.items()},
                         part_reporter(report, lambda: len(optima), lambda: 0, start[1] if start is not None else None),
                         start, keeper(saved, _begun_optima(size)),
                         tally.order if tally is not None else None, finished)
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


def _begun_optima(size: int) -> Callable[[int, int, list[OptimaChunk]], Begun]:
    """:class:`~.checkpoint.Begun` of a chunk of optima of evidence sets of ``size``."""
    return lambda chunk, items, parts: Begun(size, chunk, items, [p for part in parts for p in part.optima], None)


class _OptimaState(NamedTuple):
    """What the chunks of one size of :func:`all_optima` share: the optima of the size
    below, the optimum without evidence (None before it is known), and whether to find the
    representatives one size larger."""

    previous: dict[EvidenceSet, Optimum | None]
    base: int | None
    extend: bool


class OptimaChunk(NamedTuple):
    """What one chunk of :func:`all_optima` gives: its sets' optima, packed, and the
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


def combine_optima(parts: list[OptimaChunk]) -> OptimaChunk:
    """The result of a chunk of optima from those of its consecutive parts (its
    extensions to be found again when a part's are: one taken from a checkpoint)."""
    return OptimaChunk([p for part in parts for p in part.optima],
                       None if any(part.extensions is None for part in parts)
                       else list({e for part in parts for e in part.extensions or ()}))


EXTENSIONS = Phase(_prepare_extensions, _run_extensions, RuleSearch, type(None))
OPTIMA = Phase(_prepare_optima, _run_optima, RuleSearch, _OptimaState, combine_optima)
"""The phases of the penalties pass (:mod:`.workers` runs their chunks here or on workers)."""
