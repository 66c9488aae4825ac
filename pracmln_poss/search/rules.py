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

__all__ = ["default_rules"]

from collections.abc import Generator, Sequence
from concurrent.futures import BrokenExecutor

from ..errors import ArgumentError
from ..map.engine import MapEngine
from ..stopping import INTERRUPTS, interrupted
from .checkpoint import Begun, RuleChunk
from .evidence import EvidenceSet
from .optima_pass import all_optima
from .rule import BlockingRule, DefaultRule
from .rule_search import RuleSearch
from .rules_pass import RULES, Tables, combine_rules
from .run import SearchRun, fitted, keeper, part_reporter, watched
from .workers import ChunkRunner, chunked


def default_rules(engine: MapEngine, search: RuleSearch, sets: Sequence[EvidenceSet] | None,
                  run: SearchRun | None = None) -> Generator[DefaultRule | BlockingRule, None, None]:
    """The rules of ``search`` for ``sets`` (every evidence set of at most ``search.options.k``
    literals, smallest first; with ``search.symmetry``, one per renaming class, each its
    class's representative: ``None`` finds them, :func:`~.representatives.representatives`, size
    by size with the optima).

    Free atoms are those not fixed by hard units; the sets must be over free atoms.

    :param run: what the run reports (each pass's progress, its statistics), where its
        chunks run and its checkpoint (:class:`~.run.SearchRun`; None: nothing reported,
        here, none).
    """
    run = run if run is not None else SearchRun()
    k, stats, report = search.options.k, run.stats, run.rules
    if sets is None and search.symmetry is None:
        raise ArgumentError("a search for one evidence set per renaming class (sets=None) needs a symmetry")
    with ChunkRunner(search, engine, run.executor) as runner:
        if run.optima is not None and run.optima.total is None and sets is not None:
            run.optima.total = len(sets)
        saved = run.opened(search, sets)
        try:
            sets, optima = all_optima(search, runner, sets, run.optima, saved)
            if report is not None and report.total is None:
                report.total = len(sets)
            tables = Tables.of(optima, k)
            chunks = chunked([(e, optima[e] if len(e) == k else None) for e in sets])
            del optima  # (the chunks keep what the rules need)
            done = 0
            if saved is not None:
                fitted(saved, report, "rules", saved.rules, chunks, lambda b: b.rules is not None)
            begun = saved.begun if saved is not None and isinstance(saved.begun, Begun) else None
            start = (begun.chunk, begun.items, begun.rules) if begun is not None and begun.rules is not None else None
            replayed = set(saved.rules) if saved is not None else set()
            tally = watched(report, chunks, replayed, 0, run.optima.after if run.optima is not None else None)

            def finished(i: int, result: RuleChunk, seconds: float) -> None:
                # (counted as each chunk is done, in any order: the chunks run spread come back in
                # order, and the rules found reported would wait for the first)
                stats.add(len(chunks[i]), result)
                if saved is not None:
                    saved.chunk_done(saved.rules, i, result)
                if tally is not None:
                    tally.finished(i, seconds)

            results = runner.map(RULES, tables, chunks, saved.rules if saved is not None else None,
                                 part_reporter(report, lambda: done, lambda: stats.written(search.one_per_class),
                                               start[1] if start is not None else None),
                                 start,
                                 keeper(saved, lambda i, items, parts: Begun(0, i, items, None, combine_rules(parts))),
                                 tally.order if tally is not None else None, finished)
            for i, (chunk, result) in enumerate(zip(chunks, results)):
                done += len(chunk)
                if i in replayed:  # (taken from the checkpoint: not heard finished)
                    stats.add(len(chunk), result)
                if report is not None and i in replayed:
                    report.resumed(done)
                elif report is not None:
                    report(done, stats.written(search.one_per_class), len(chunk[-1][0]))
                yield from result.rules
        except INTERRUPTS + (BrokenExecutor, GeneratorExit) as exc:
            # (an interrupt, a signal, a worker killed; or the caller closing this search early,
            # as it does when an interrupt reaches it between two rules)
            if saved is not None and (isinstance(exc, (BrokenExecutor, GeneratorExit)) or interrupted(exc)):
                saved.save()
            raise
        if report is not None:
            report(len(sets), stats.written(search.one_per_class), final=True)
        stats.map_calls = engine.calls + runner.calls
        if saved is not None:
            saved.finish()  # (kept: the caller discards it once the result is safe)
