"""The benchmark history (asv, ``asv.conf.json`` at the top of the repository): the
user CPU seconds of whole ``pracmln-poss`` commands (start-up, grounding and output
included) on the workloads of ``benchmarks/workloads.py``, at any commit.

    .venv/bin/asv continuous --factor 1.2 LAST_LANDED HEAD   # a workload 20% slower is named
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import workloads  # noqa: E402


class _Commands:
    """A track per workload: user CPU seconds of the command (once; CPU time does not
    count other load, so one run is as good as the lowest of several)."""

    table: dict[str, workloads.Workload] = {}
    timeout = 300.0  # (commits before #28 take minutes where it takes seconds: they are cut off here)
    rounds = 1
    repeat = 1
    number = 1

    def setup(self, name: str) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="pracmln-poss-asv-"))
        self.argv = self.table[name](self.directory)

    def teardown(self, name: str) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    def track_user_seconds(self, name: str) -> float:
        # (the command is killed before asv's own time-out, which stops this process only)
        return workloads.user_seconds(self.argv, timeout=self.timeout - 20)

    track_user_seconds.unit = "seconds"  # type: ignore[attr-defined]


class Map(_Commands):
    """``pracmln-poss map``: dense and sparse evidence, learned models, growing domains."""

    table = workloads.MAP_WORKLOADS
    params = list(table)
    param_names = ["workload"]


class Convert(_Commands):
    """``pracmln-poss convert``: the lifted search on the paper's models and a learned one."""

    table = workloads.CONVERT_WORKLOADS
    params = list(table)
    param_names = ["workload"]


class Read(_Commands):
    """``pracmln-poss show``, ``query`` and ``explain`` on theories of those conversions (each made once, untimed)."""

    table = workloads.READ_WORKLOADS
    params = list(table)
    param_names = ["workload"]
