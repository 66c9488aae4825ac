"""What a long command shows on stderr (pracmln_poss.console)."""

from __future__ import annotations

import io

from pracmln_poss.console import ProgressDisplay, duration
from pracmln_poss.search.progress import LATER_RULES, ProgressInfo


def test_a_long_run_is_announced_once_without_a_terminal():
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


def test_plain_lines_come_every_interval_and_at_the_end():
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
