"""What a long command shows on stderr (pracmln_poss.console)."""

from __future__ import annotations

import io

from pracmln_poss.console import ProgressDisplay, duration
from pracmln_poss.search.progress import LATER_RULES, ProgressInfo


def test_a_long_run_is_announced_once_without_a_terminal(monkeypatch):
    monkeypatch.setattr(ProgressDisplay, "ESTIMATE_AFTER", 0.0)
    out = io.StringIO()
    display = ProgressDisplay("p", "notes", stream=out)
    display(ProgressInfo("penalties of evidence classes", 100, 200, 2, 0, 2.0, later=LATER_RULES))
    assert out.getvalue() == ""  # 2 s left in this pass, 1.4 x 4 s in the rules: 7.6 s
    display(ProgressInfo("penalties of evidence classes", 100, 100_000, 2, 0, 2.0, later=LATER_RULES))
    display(ProgressInfo("penalties of evidence classes", 200, 100_000, 2, 0, 4.0, later=LATER_RULES))
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("p: 100,000 evidence classes; about ")
    assert "--progress shows more, --quiet nothing" in lines[0]
    display.finish("wrote 5 rules in 2 levels")
    assert out.getvalue().splitlines()[-1].startswith("p: wrote 5 rules in 2 levels (")


def test_a_short_run_says_nothing_without_a_terminal():
    out = io.StringIO()
    display = ProgressDisplay("p", "notes", stream=out)
    display(ProgressInfo("rules of evidence sets", 10, 20, 1, 3, 1.0))
    display.finish("wrote 5 rules in 2 levels")
    assert out.getvalue() == ""


def test_plain_lines_come_every_interval_and_at_the_end(monkeypatch):
    monkeypatch.setattr(ProgressDisplay, "ESTIMATE_AFTER", 0.0)
    out = io.StringIO()
    display = ProgressDisplay("p", "lines", stream=out)
    for done in range(1, 50):
        display(ProgressInfo("rules of evidence sets", done, 50, 1, done, 1.0))
    display(ProgressInfo("rules of evidence sets", 50, 50, 1, 50, 1.0))
    lines = out.getvalue().splitlines()
    assert lines == ["p: rules of evidence sets: 1 of 50, size 1, 1 rules found, about 49 s left",
                     "p: rules of evidence sets: 50 of 50, size 1, 50 rules found"]


def test_the_estimate_covers_the_later_passes():
    info = ProgressInfo("penalties of evidence classes", 100, 1000, 2, 0, 10.0, later=LATER_RULES)
    assert info.remaining == 90.0 and info.remaining_overall == 90.0 + LATER_RULES * 100.0
    assert duration(45) == "45 s" and duration(185) == "3 min 5 s" and duration(7800) == "2 h 10 min"


def test_no_time_left_is_shown_before_the_rate_settles():
    out = io.StringIO()
    display = ProgressDisplay("p", "lines", stream=out)
    display(ProgressInfo("rules of evidence sets", 1, 50, 1, 1, 1.0))
    assert out.getvalue() == "p: rules of evidence sets: 1 of 50, size 1, 1 rules found\n"
    display._start -= ProgressDisplay.ESTIMATE_AFTER  # ten seconds later
    display._last_line -= display.line_interval
    display(ProgressInfo("rules of evidence sets", 2, 50, 1, 2, 2.0))
    assert out.getvalue().splitlines()[-1].endswith("about 48 s left")


def test_the_bar_fits_80_columns_keeping_the_time_left(monkeypatch):
    import re

    monkeypatch.setattr(ProgressDisplay, "ESTIMATE_AFTER", 0.0)
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    display = ProgressDisplay("p", "bar", stream=out)
    display(ProgressInfo("penalties of evidence classes", 141_641, 339_308, 4, 105_809, 10.0, later=LATER_RULES,
                         recent_rate=10_000.0))
    display._bar.refresh()
    line = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out.getvalue()).split("\r")[-1].rstrip()
    assert "left" in line and len(line) <= 80, line
    display.finish("done")


def test_a_progress_bar_leaves_no_thread_behind():
    """tqdm starts a monitor thread with its first bar and never ends it: a host program
    that showed our progress kept a thread of ours (and tqdm's own class is left as it was)."""
    import threading

    import tqdm

    interval = tqdm.tqdm.monitor_interval
    before = {t.ident for t in threading.enumerate()}
    display = ProgressDisplay("p", "bar", stream=io.StringIO())
    display(ProgressInfo("rules of evidence sets", 5, 10, 1, 0, 1.0))
    display.finish("done")
    assert {t.name for t in threading.enumerate() if t.ident not in before} == set()
    assert tqdm.tqdm.monitor_interval == interval


def test_the_time_left_follows_a_pass_that_slows_down(monkeypatch):
    """Items that grow slower (larger evidence sets come last) are seen in the recent
    rate: the estimate is the time the rest takes at today's pace, not the average's."""
    from pracmln_poss.search import progress

    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    seen = []
    report = progress.Reporter(seen.append, "rules of evidence sets", 3000, interval=0.5)
    done = 0
    for _ in range(40):  # 20 s at 100 items per second
        clock[0] += 0.5
        done += 50
        report(done, 0)
    for _ in range(40):  # then 20 s at 10 items per second
        clock[0] += 0.5
        done += 5
        report(done, 0)
    info = seen[-1]
    truth = (3000 - done) / 10
    assert info.rate > 40 and abs(info.remaining - truth) < truth * 0.2  # the average would say under a quarter


def test_the_time_left_holds_when_items_come_in_bursts(monkeypatch):
    """Workers hand in a chunk at a time, tens of seconds apart, and the reports between
    two chunks bring nothing: the rate is that of the chunks, not one that falls at every
    report in between (meals on two workers said 5 min 35 s, then 11 min 59 s, then
    30 min 15 s left, while 2 min remained)."""
    from pracmln_poss.search import progress

    clock = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    seen: list[ProgressInfo] = []
    report = progress.Reporter(seen.append, "penalties of evidence classes", 4000, interval=0.5)
    report(0, 0)
    done = 0
    for _ in range(10):  # 200 items every 10 s, a report every 0.5 s in between
        for _tick in range(19):
            clock[0] += 0.5
            report(done, 0)
        clock[0] += 0.5
        done += 200
        report(done, 0)
    truths = [(4000 - info.done) / 20 for info in seen[-20:]]  # (20 items per second)
    assert all(info.remaining is not None and info.remaining < 2 * truth for info, truth in zip(seen[-20:], truths))
    # (a silence longer than the chunks take is a slowdown, and the rate falls)
    clock[0] += 60
    report(done, 0)
    assert seen[-1].recent_rate is not None and seen[-1].recent_rate < 5


def test_a_pass_without_a_total_yet_counts_so_far():
    import re

    out = io.StringIO()
    display = ProgressDisplay("p", "bar", stream=out)
    display(ProgressInfo("penalties of evidence classes", 1234, None, 2, 0, 1.0))
    display._bar.refresh()
    line = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out.getvalue()).split("\r")[-1].rstrip()
    assert "1234 so far" in line and "?" not in line, line
    display.finish("done")


def test_a_theory_on_course_to_be_large_is_announced_once_in_every_mode():
    for mode in ("notes", "lines", "bar"):
        out = io.StringIO()
        display = ProgressDisplay("p", mode, stream=out)
        display(ProgressInfo("penalties of evidence classes", 5_000, 10_000, 2, 0, 1.0))  # (no rules made yet)
        display(ProgressInfo("rules of evidence classes", 100, 10_000, 2, 900, 1.0))  # (1 %: too early to tell)
        display(ProgressInfo("rules of evidence classes", 400, 10_000, 2, 14_800, 2.0))
        display(ProgressInfo("rules of evidence classes", 800, 10_000, 2, 30_000, 3.0))
        said = [line for line in out.getvalue().splitlines() if "on course" in line]
        assert said == ["p: the theory is on course for about 370,000 rules (14,800 from 400 of 10,000 evidence "
                        "classes); --evidence-preds and --query-preds focus it, --filter conservative shrinks it"], mode


def test_a_small_theory_or_a_finished_pass_is_not_announced():
    out = io.StringIO()
    display = ProgressDisplay("p", "notes", stream=out)
    display(ProgressInfo("rules of evidence classes", 400, 10_000, 2, 3_000, 2.0))  # (75,000 projected)
    display(ProgressInfo("rules of evidence classes", 10_000, 10_000, 2, 2_000_000, 9.0))  # (done: the end says it)
    assert out.getvalue() == ""
    from pracmln_poss.console import _round

    assert [_round(n) for n in (371_041, 2_004_144, 123_456_789, 99_949)] == [
        "370,000", "2 million", "123 million", "100,000"]


def test_a_measured_sample_of_the_later_passes_replaces_the_prior():
    """Once the rules pass is sampled, the whole run's time left is this pass's and the
    sample's (not ``later`` times the penalties pass)."""
    guessed = ProgressInfo("penalties of evidence classes", 50, 100, 2, 0, 10.0, later=LATER_RULES)
    measured = ProgressInfo("penalties of evidence classes", 50, 100, 2, 0, 10.0, later=LATER_RULES, after=0.5)
    assert guessed.remaining_overall == 10.0 + LATER_RULES * 20.0
    assert measured.remaining_overall == 10.0 + 0.5 and measured.overall
    assert ProgressInfo("rules of evidence classes", 1, 2, 2, 0, 1.0).overall is False

    from pracmln_poss.search import progress

    seen: list[ProgressInfo] = []
    penalties = progress.Reporter(seen.append, "penalties of evidence classes", 10, interval=0.0, later=LATER_RULES)
    penalties(5, 0, 1)
    penalties.expect_after(3.0)
    penalties(10, 0, 1, final=True)
    assert seen[0].after is None and seen[1].after == 3.0
