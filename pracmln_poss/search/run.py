"""What one run of the rule search reports and where it runs (:class:`SearchRun`): the
progress of its two passes, what it did (:class:`RuleStats`), its checkpoint and its
executor, made for the run and handed to the search whole; and what tells a pass's
reporter and checkpoint how far its chunks are."""

from __future__ import annotations

__all__ = ["RuleStats", "SearchRun", "search_run", "part_reporter", "keeper", "watched", "fitted"]

import os
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from ..stopping import Guard
from .checkpoint import Begun, Checkpoint, RuleChunk
from .evidence import EvidenceSet
from .progress import LATER_RULES, Progress, Reporter
from .rule import BlockingRule
from .rule_search import RuleSearch
from .tally import Tally, spread_order
from .workers import Keep, Part, executor_for


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


@dataclass(frozen=True)
class SearchRun:
    """What one run of the rule search reports and where its chunks run, made for the
    run (:func:`search_run`) and handed to :func:`~.rules.default_rules` whole.

    :ivar optima: told how far the penalties pass is (None: no one listens).
    :ivar rules: told how far the rules pass is (None: no one listens).
    :ivar stats: filled in with what the search did.
    :ivar executor: where the chunks of each pass run (None: here).  The rules are the
        same, and come in the same order, whatever runs them.
    :ivar checkpoint: a file keeping finished work, resumed from when it belongs to the
        search (:mod:`.checkpoint`; None: none); left when the search ends, for the
        caller to :func:`~.checkpoint.discard` once the result is safe.
    """

    optima: Reporter | None = None
    rules: Reporter | None = None
    stats: RuleStats = field(default_factory=RuleStats)
    executor: Executor | None = None
    checkpoint: str | os.PathLike[str] | None = None

    def opened(self, search: RuleSearch, sets: Sequence[EvidenceSet] | None) -> Checkpoint | None:
        """The run's checkpoint for ``search`` over ``sets`` (None: the run keeps none),
        loaded when it belongs to that search; the rules pass's reporter notes whether it
        resumes from it, and how far, or why not.  The search's key, a digest of the whole
        model, is made only here: for a checkpoint."""
        if self.checkpoint is None:
            return None
        mln = search.mln
        return _opened(Checkpoint(self.checkpoint, search.key(sets), mln.n_atoms, search.options.k,
                                  max_level=sum(int(wf.weight) for wf in mln.soft)), self.rules)


@contextmanager
def search_run(progress: Progress | None, what: str, total: int | None, *, stats: RuleStats | None = None,
               jobs: int = 1, executor: Executor | None = None,
               checkpoint: str | os.PathLike[str] | None = None, guard: Guard | None = None) -> Iterator[SearchRun]:
    """A run whose passes tell ``progress`` of the penalties and the rules of ``what``
    (``total`` of them; None: not known before they are found), on ``executor``, else
    on ``jobs`` worker processes (:func:`~.workers.executor_for`: started here, stopped
    as the block ends; ``guard``: the run's)."""
    with executor_for(jobs, executor, guard) as runner:
        yield SearchRun(Reporter(progress, f"penalties of {what}", total, later=LATER_RULES),
                        Reporter(progress, f"rules of {what}", total),
                        stats if stats is not None else RuleStats(), runner, checkpoint)


def fitted(saved: Checkpoint | None, report: Reporter | None, what: str, kept: dict[int, T], chunks: Sequence[Sized],
           of_pass: Callable[[Begun], bool], length: Callable[[T], int] | None = None) -> None:
    """:meth:`~pracmln_poss.search.checkpoint.Checkpoint.fit` of a pass's chunks ``kept`` (of ``what``: optima, rules),
    noted on ``report`` when some were left out."""
    if saved is not None and saved.fit(kept, chunks, of_pass, length) and report is not None:
        report.note(f"{saved.path}: chunks of {what} that do not fit this search were left out and are found again")


def _opened(saved: Checkpoint, report: Reporter | None) -> Checkpoint:
    """The checkpoint, loaded when it belongs to this search; ``report`` notes whether it
    resumes from it, and how far, or why not."""
    if not saved.load() and saved.refused is not None and report is not None:
        replaced = "" if saved.aside else " (the file will be replaced)"
        report.note(f"not resuming from {saved.path}: {saved.refused}; starting over{replaced}")
    if saved.resumed and report is not None:
        under_way = "".join(f", {len(chunks)} chunk(s) of size {size}" for size, chunks in saved.partial.items()
                            if chunks)
        taken = saved.begun if isinstance(saved.begun, Begun) else None
        started = "" if taken is None else (f", and {taken.items} evidence set(s) of the chunk under way"
                                            f" ({'optima' if taken.optima is not None else 'rules'})")
        report.note(f"resuming from {saved.path}: {len(saved.optima)} size(s) of optima{under_way} and "
                    f"{len(saved.rules)} chunk(s) of rules done{started}")
    return saved


def part_reporter(report: Reporter | None, done: Callable[[], int], rules: Callable[[], int], begun: int | None = None
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
T = TypeVar("T")


def keeper(saved: Checkpoint | None, begun: Callable[[int, int, list[R]], Begun]) -> Keep[R] | None:
    """What keeps, in the checkpoint, what is done of the chunk under way: made from its
    parts only when the checkpoint is written (joined after every part, they would cost
    work quadratic in a chunk's parts)."""
    if saved is None:
        return None

    def keep(chunk: int, items: int, parts: list[R]) -> None:
        saved.begun = lambda: begun(chunk, items, parts)
        saved.save(force=False)

    return keep


def watched(report: Reporter | None, chunks: Sequence[Sized], replayed: Iterable[int], offset: int,
             prior: float | None) -> Tally | None:
    """A tally of ``chunks`` (those ``replayed`` taken from a checkpoint) that ``report``
    is weighed with (after ``offset`` items; ``prior``: what the pass is expected to
    take), when someone listens to it (None: no one); they run in :func:`.spread_order`."""
    if report is None or report.progress is None:
        return None
    sizes = [len(c) for c in chunks]
    tally = Tally(sizes, spread_order(sizes))
    for i in replayed:
        tally.resumed(i)
    report.weigh(tally, offset, prior)
    return tally
