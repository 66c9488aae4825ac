"""A pass's chunks run spread over it, and the time left from those done
(``search/tally.py``): what is done of the items says what the rest will cost, whatever
their order hides."""

from __future__ import annotations

import pytest

from pracmln_poss.search import tally as tally_module
from pracmln_poss.search.tally import Tally, spread, spread_order
from pracmln_poss.search.workers import chunked


def test_spread_visits_every_position_once_and_every_first_few_are_spread():
    for n in (0, 1, 2, 3, 7, 64, 1000):
        order = list(spread(n))
        assert sorted(order) == list(range(n))
    order = list(spread(1000))
    assert order[0] == 500 and sorted(order[1:3]) == [250, 750]
    assert max(b - a for a, b in zip(sorted(order[:15]), sorted(order[:15])[1:])) <= 1000 // 8 + 1


@pytest.mark.parametrize("n", [1, 5, 64, 65, 1000, 14_780, 339_308])
def test_the_spread_order_runs_each_chunk_once_and_reaches_the_last_ones_early(n):
    sizes = [len(c) for c in chunked(range(n))]
    order = spread_order(sizes)
    assert sorted(order) == list(range(len(sizes)))
    ahead = len(sizes) - int(len(sizes) * tally_module.LAST)
    rest = [sizes[c] for c in order[ahead:]]
    assert rest == sorted(rest, reverse=True)  # (the largest of the rest first: workers end a pass together)
    if n >= 1000:  # the first chunk run holds the middle item; the spread reaches the pass's last items
        middle = sum(sizes) // 2
        assert sum(sizes[:order[0]]) <= middle < sum(sizes[:order[0] + 1])
        assert any(c >= ahead for c in order[:ahead])  # (of the last eighth of the chunks: not all left to the end)


class _Clock:
    def __init__(self, monkeypatch):
        self.now = 0.0
        monkeypatch.setattr(tally_module.time, "monotonic", lambda: self.now)


def test_the_time_left_is_the_chunks_left_at_their_neighbours_cost_and_the_pace_kept(monkeypatch):
    """Four chunks of 10 items; the first costs 1 s an item, the last 0.1 s: the two
    between are predicted by position between them (0.7 and 0.4 s an item), at the pace
    the pass kept since its first chunk began (seconds per second its chunks took), less
    the time since the last chunk was done."""
    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "FIRST", 1)
    tally = Tally([10, 10, 10, 10])
    assert tally.left() is None  # (nothing done: nothing to go by)
    clock.now = 20.0
    tally.finished(0, 10.0)  # (began at 10: the time before, preparing the pass, is not its pace)
    assert tally.left() == pytest.approx(3 * 10 * 1.0)  # (one chunk: its cost everywhere)
    clock.now = 22.0
    tally.finished(3, 1.0)
    pace = (22.0 - 10.0) / 11.0
    assert tally.left() == pytest.approx((7.0 + 4.0) * pace)
    clock.now = 25.0
    assert tally.left() == pytest.approx((7.0 + 4.0) * pace - 3.0)
    clock.now = 1000.0
    assert tally.left() == 0.0
    assert tally.done == 20


def test_the_time_since_the_last_chunk_is_taken_off_the_chunks_under_way_only(monkeypatch):
    """Told the order the chunks run in, the tally takes the time since the last chunk
    was done off those under way (the first not done, one per worker) and no further: a
    chunk that runs longer than foreseen leaves the others' time whole."""
    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "FIRST", 1)
    tally = Tally([10, 10, 10, 10], order=[0, 3, 1, 2])
    clock.now = 10.0
    tally.finished(0, 10.0)
    clock.now = 11.0
    tally.finished(3, 1.0)  # (chunk 1 under way, and chunk 2: 5.5 s foreseen each)
    pace = 11.0 / 11.0
    clock.now = 14.0
    assert tally.left() == pytest.approx((5.5 + 5.5) * pace - 3.0)
    clock.now = 30.0  # (chunk 1 ran 19 s, foreseen 5.5)
    assert tally.left() == pytest.approx(5.5 * pace)
    tally.finished(1, 19.0)
    assert tally.left() == pytest.approx(10 * (10.0 + 19.0 + 1.0) / 30 * 30.0 / 30.0)  # (chunk 2 at its neighbours')
    two = Tally([10, 10, 10, 10], order=[0, 3, 1, 2])  # (on two workers: chunks 1 and 2 both under way)
    clock.now = 100.0
    two.finished(0, 10.0)
    two.finished(3, 10.0)
    clock.now = 150.0
    assert two.left() == 0.0
    assert tally.order == [0, 3, 1, 2] and Tally([1, 2]).order is None


def test_the_rough_time_left_waits_for_a_few_chunks(monkeypatch):
    """Before :data:`FIRST` chunks, the time left is the mean cost per item of those
    worked, over the items left, once :data:`ROUGH` have been (one chunk alone can cost
    many times the mean), or all there are to work (the others taken from a checkpoint)."""
    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "ROUGH", 2)
    tally = Tally([10, 10, 10, 10])
    clock.now = 10.0
    tally.finished(1, 10.0)
    assert tally.rough() is None
    tally.finished(2, 5.0)  # (another worker's)
    assert tally.rough() == pytest.approx(20 * 15.0 / 20 * (10.0 / 15.0))
    resumed = Tally([10, 10, 10])
    resumed.resumed(0)
    resumed.resumed(1)
    resumed.finished(2, 1.0)
    assert resumed.rough() == 0.0  # (nothing left: the one chunk to work is done)
    single = Tally([10, 10, 10])
    single.resumed(0)
    single.resumed(2)
    assert single.rough() is None  # (none worked yet)


def test_on_two_workers_the_pace_is_half_the_seconds_the_chunks_took(monkeypatch):
    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "FIRST", 2)
    tally = Tally([10, 10, 10, 10])
    clock.now = 10.0
    tally.finished(0, 10.0)
    assert tally.left() is None  # (fewer than FIRST chunks: the middle one alone may be of sets that cost nothing)
    tally.finished(3, 10.0)  # (another worker's, done as long)
    assert tally.left() == pytest.approx(20 * 1.0 * 0.5)


def test_a_chunk_taken_from_a_checkpoint_counts_as_done_in_no_time(monkeypatch):
    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "FIRST", 1)
    tally = Tally([10, 10, 10])
    tally.resumed(1)
    clock.now = 5.0
    tally.finished(0, 5.0)
    tally.finished(1, 99.0)  # (a chunk resumed is not heard again)
    assert (tally.done, tally.resumed_items) == (20, 10)
    assert tally.left() == pytest.approx(5.0)  # (the one chunk left, at the first's cost, at the pace kept)


def test_a_reporter_weighed_with_a_tally_says_its_count_and_its_time_left(monkeypatch):
    """The count is the chunks done in any order (more than the results given back in
    order), the time left the tally's; before it has its first chunks, the pass's prior
    less the time since it was weighed, and then the two weighed by the share of the
    pass done (the prior a quarter, the tally three quarters once three of four chunks
    are done)."""
    from pracmln_poss.search.progress import Reporter

    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "FIRST", 1)
    seen = []
    report = Reporter(seen.append, "rules of evidence sets", 40, interval=0.0)
    tally = Tally([10, 10, 10, 10])
    report.weigh(tally, prior=60.0)
    clock.now = 4.0
    report(0, 0)
    assert seen[-1].done == 0 and seen[-1].estimate == pytest.approx(56.0)
    for now, chunk, share, tally_left in [(10.0, 2, 0.25, 18.0), (16.0, 0, 0.5, 12.0), (22.0, 1, 0.75, 6.0)]:
        clock.now = now
        tally.finished(chunk, 6.0)  # (each 6 s, one after the other from 4 s: pace 1)
        report(0, 0)
        assert tally.left() == pytest.approx(tally_left)
        assert seen[-1].done == 40 * share and seen[-1].remaining == seen[-1].estimate
        assert seen[-1].estimate == pytest.approx(share * tally_left + (1 - share) * (60.0 - now))


def test_a_chunk_not_done_is_priced_by_the_worked_ones_nearest_it_on_either_side(monkeypatch):
    """Eight chunks of 10 items, four worked: the chunk between the second and third is
    priced by the two on each side together (their seconds over their items), not by the
    two next to it alone, which differ tenfold as neighbouring chunks do."""
    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "FIRST", 1)
    tally = Tally([10] * 8)
    for chunk, seconds in [(0, 4.0), (2, 10.0), (5, 1.0), (7, 4.0)]:  # (one after the other from 0 s: pace 1)
        clock.now += seconds
        tally.finished(chunk, seconds)
    # chunk 1: 0 and 2 on its left and right (of 0, 2, 5): 0, 2, 5; chunks 3, 4: 0, 2, 5, 7; chunk 6: 2, 5, 7
    expected = 10 * (15.0 / 30) + 2 * 10 * (19.0 / 40) + 10 * (15.0 / 30)
    assert tally._predicted(1) == pytest.approx(5.0)
    assert tally.left() == pytest.approx(expected)


def test_without_a_prior_the_time_left_is_none_until_a_chunk_is_done_then_what_those_done_cost(monkeypatch):
    """A pass weighed without a prior says no time left before its first chunk is done
    (the rate of the items before it would stand in: over CORA at k = 4 the optima of
    the smaller sets said 13 minutes of a pass that took 45 s), then, until the tally
    can say more, the items left at what those done cost (from :data:`ROUGH` chunks
    on, one here)."""
    from pracmln_poss.search.progress import Reporter

    clock = _Clock(monkeypatch)
    monkeypatch.setattr(tally_module, "ROUGH", 1)
    seen = []
    report = Reporter(seen.append, "penalties of evidence sets", 100, interval=0.0)
    clock.now = 1.0
    report(50, 0)  # (the sets of the smaller sizes, fast)
    clock.now = 2.0
    report(60, 0)
    tally = Tally([10, 10, 10, 10])
    report.weigh(tally, offset=60)
    report(60, 0)
    assert seen[-1].remaining is None and seen[-1].remaining_overall is None
    clock.now = 12.0
    tally.finished(1, 10.0)
    report(60, 0)
    assert seen[-1].done == 70 and seen[-1].remaining == pytest.approx(30.0)  # (1 s an item, 30 items left)
