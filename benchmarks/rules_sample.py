#!/usr/bin/env python3
"""What the estimates of a whole conversion say the rules pass will take, beside what it
took: the forecast of the rules timed while the penalties pass runs
(``search.forecast.Forecast``), first and last, and the prior it replaced (the rules pass
costing ``LATER_RULES`` times the penalties pass), on each ``convert`` workload.

Each workload runs in this process with ``-j 1`` and its progress reported; the
seconds are wall time from the reports (the first of a pass to its final one).  A factor
is the estimate over the truth, or the truth over the estimate, whichever is above 1.

    python benchmarks/rules_sample.py [--k K] [WORKLOAD ...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from workloads import CONVERT_WORKLOADS  # noqa: E402

from pracmln_poss.search import progress  # noqa: E402

DEFAULT = ["meals focused, 1 meal, 2 persons, k = 1", "CORA 4x4, k = 3", "smokers k = 2, n = 256",
           "learned smokers k = 2, n = 256", "object-recognition focused, 1 cluster, k = 2",
           "object-recognition focused, 2 clusters, k = 2", "object-recognition focused, 4 clusters, k = 1",
           "CORA 4x4, k = 4"]


def measure(name: str, k: int | None = None) -> tuple[float, float, float | None, float | None]:
    """The penalties pass's seconds, the rules pass's, and what the forecast said of the
    rules pass first and last (None: none was made); ``k``: the workload's own if None."""
    from pracmln_poss import cli

    seen: list[progress.ProgressInfo] = []
    with tempfile.TemporaryDirectory() as directory:
        argv = [a for a in CONVERT_WORKLOADS[name](Path(directory)) if a != "--quiet"]
        if k is not None:
            argv[argv.index("-k") + 1] = str(k)
        original = progress.Reporter.__init__

        def spying(self: progress.Reporter, report: progress.Progress, *args: object, **kwargs: object) -> None:
            def both(info: progress.ProgressInfo) -> None:
                seen.append(info)
                if report is not None:
                    report(info)
            original(self, both, *args, **kwargs)  # type: ignore[arg-type]

        progress.Reporter.__init__ = spying  # type: ignore[method-assign]
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                cli.main([*argv, "--progress"])
        finally:
            progress.Reporter.__init__ = original  # type: ignore[method-assign]
    penalties = [i for i in seen if i.phase.startswith("penalties") and i.note is None]
    rules = [i for i in seen if i.phase.startswith("rules") and i.note is None]
    forecasts = [i.after for i in penalties if i.after is not None]
    return (penalties[-1].elapsed, rules[-1].elapsed, forecasts[0] if forecasts else None,
            forecasts[-1] if forecasts else None)


def factor(estimate: float, truth: float) -> float:
    """How far ``estimate`` is from ``truth``, as a factor of at least 1."""
    if min(estimate, truth) <= 0:
        return float("inf")
    return max(estimate / truth, truth / estimate)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="*", default=DEFAULT, metavar="WORKLOAD")
    parser.add_argument("--k", type=int, help="k for every workload (default: each one's own)")
    args = parser.parse_args(argv)
    print(f"{'workload':<48} {'penalties':>9} {'rules':>7} {'first':>7} {'factor':>6} {'last':>7} {'factor':>6} "
          f"{'prior':>7} {'factor':>6}")
    for name in args.workloads:
        first, second, early, late = measure(name, args.k)
        prior = progress.LATER_RULES * first
        cells = ["-" if f is None else f"{f:7.2f} {factor(f, second):6.1f}" for f in (early, late)]
        print(f"{name + ('' if args.k is None else f' (k = {args.k})'):<48} {first:9.2f} {second:7.2f} "
              f"{cells[0]:>14} {cells[1]:>14} {prior:7.2f} {factor(prior, second):6.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
