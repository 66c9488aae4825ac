#!/usr/bin/env python3
"""Conversions on 1 and 2 worker processes and on a Dask cluster, side by side.

Cases (the issue's): CORA over 4 papers and 4 persons (``examples/paper/cora.mln``) at
k = 3, and pracmln's object-recognition project, one cluster, focused on ``object``,
at k = 2; with ``--cora-k4`` also CORA at k = 4.  Each run is a fresh process, whole
(interpreter start-up, imports, grounding, writing included):

- ``1 process``: ``pracmln-poss convert ... -j 1``;
- ``2 workers``: ``pracmln-poss convert ... -j 2`` (a local process pool);
- ``dask, 2 workers``: the same conversion from Python on a ``dask.distributed``
  ``LocalCluster`` of two worker processes (cluster start-up included), through
  ``Client.get_executor()``.

Peak MB is the largest sum of the resident memory of the whole process tree (the
command, its workers, the Dask scheduler and nannies), sampled every 50 ms.  Every
output is compared byte for byte with the single-process one.  Each conversion runs
``--repeat`` times (default 3), its runs interleaved (1 process, 2 workers, Dask, then
again), so that a machine's drift touches all alike; the table gives the median seconds
(and the range), the largest peak, and the speed-up of the medians.  Targets (2 cores):
2 workers at least 1.8x faster than 1; CORA k = 3 under 10 s with 2 workers; CORA k = 4
under 3 minutes::

    python benchmarks/parallel.py [--cora-k4] [--skip-dask] [--only TEXT] [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import support
from support import EXE, ROOT

sys.path.insert(0, str(ROOT))

DASK = r"""
import ast
import sys
from distributed import Client, LocalCluster
from pracmln_poss.bridge.loader import load_model
from pracmln_poss.formats import dumps
from pracmln_poss.transformations import convert_mln

def main():
    args = sys.argv[1:]
    out = args[args.index("-o") + 1]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        options = ast.literal_eval(args[args.index("--python") + 1])
        model = load_model(args[0], **options.pop("load", {})).model
        done = convert_mln(model, executor=client.get_executor(), **options)
    with open(out, "w") as f:
        f.write(dumps(done.theory))

if __name__ == "__main__":
    main()
"""


def measure(cmd: list[str]) -> tuple[float, float]:
    """Seconds and peak MB (whole process tree) of ``cmd`` in a fresh process."""
    seconds, peak, _ = support.measure(cmd)
    return seconds, peak


def object_recognition() -> str | None:
    found = sorted(support.pracmln_examples().glob("object-recognition/object-recognition.pracmln"))
    return str(found[0]) if found else None


def cases(cora_k4: bool) -> list[tuple[str, list[str], dict[str, object]]]:
    """(name, command-line arguments, the same as Python options for the Dask run)."""
    out: list[tuple[str, list[str], dict[str, object]]] = [
        ("CORA 4x4, k = 3", ["examples/paper/cora.mln", "-k", "3"], {"k": 3}),
    ]
    project = object_recognition()
    if project is not None:
        evidence = "color,goggles,goggles_Logo,goggles_Product,goggles_Text,scene,shape"
        out.append((
            "object-recognition, 1 cluster, focused, k = 2",
            [f"{project}:learnt.cll.scenes-new-object-detection.mln", "--domain-size", "cluster=1",
             "--evidence-preds", evidence, "-k", "2"],
            {"k": 2, "evidence_preds": evidence.split(","), "query_preds": ["object"],
             "load": {"domain_sizes": {"cluster": 1}}},
        ))
    if cora_k4:
        out.append(("CORA 4x4, k = 4", ["examples/paper/cora.mln", "-k", "4"], {"k": 4}))
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cora-k4", action="store_true", help="add CORA at k = 4 (minutes)")
    parser.add_argument("--skip-dask", action="store_true", help="leave out the Dask runs")
    parser.add_argument("--only", metavar="TEXT", help="only the conversions whose name contains TEXT")
    parser.add_argument("--repeat", metavar="N", type=int, default=3, help="runs of each (median; default 3)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    print("| conversion | run | seconds (median) | range | peak MB | speed-up | same bytes |")
    print("|---|---|---:|---|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, cli, python in cases(args.cora_k4):
            if args.only and args.only not in name:
                continue
            runs = [("1 process", [str(EXE), "convert", *cli, "-j", "1", "--quiet", "--no-checkpoint"]),
                    ("2 workers", [str(EXE), "convert", *cli, "-j", "2", "--quiet", "--no-checkpoint"])]
            if not args.skip_dask:
                model = cli[0]
                runs.append(("dask, 2 workers", [sys.executable, "-c", DASK, model, "--python", repr(python)]))
            seconds: dict[str, list[float]] = {label: [] for label, _ in runs}
            peaks: dict[str, float] = dict.fromkeys(seconds, 0.0)
            same: dict[str, bool] = dict.fromkeys(seconds, True)
            reference: bytes | None = None
            for _round in range(args.repeat):
                for label, cmd in runs:
                    target = Path(tmp) / f"{label.replace(' ', '_').replace(',', '')}.theory"
                    taken, peak = measure([*cmd, "-o", str(target)])
                    # (the command line's theory says which command made it; the Dask
                    # run's, made from Python, does not: the rest must be the same bytes)
                    data = b"".join(line for line in target.read_bytes().splitlines(keepends=True)
                                    if not line.startswith(b"// made by: "))
                    reference = data if reference is None else reference
                    seconds[label].append(taken)
                    peaks[label] = max(peaks[label], peak)
                    same[label] = same[label] and data == reference
            single = statistics.median(seconds["1 process"])
            for label, _ in runs:
                median = statistics.median(seconds[label])
                shown = "reference" if label == "1 process" else ("yes" if same[label] else "**NO**")
                print(f"| {name} | {label} | {median:.1f} | {min(seconds[label]):.1f}-{max(seconds[label]):.1f} | "
                      f"{peaks[label]:.0f} | {single / median:.2f}x | {shown} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
