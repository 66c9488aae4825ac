"""``sweep``: a model's theory across domain sizes (``--domain-size cluster=1..10``), and
what changes from size to size, as text, JSON or an HTML page; each size's theory
written as ``convert`` writes it alone at that size."""

from __future__ import annotations

__all__ = ["run_sweep", "read_sizes"]

import argparse
import copy
import math
import os
import re
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .common import UsageError, _archive, _display, _emit, _focus_options, _load
from .convert_command import _given_options, _made_by

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    from ..insight.sweep import Theory

_ITEM = re.compile(r"^\s*([0-9]{1,7})\s*(?:\.\.\s*([0-9]{1,7})\s*)?$")
MAX_SIZES = 10_000
"""The most sizes a sweep takes."""


def read_sizes(items: Sequence[str]) -> list[dict[str, int]]:
    """The sizes of ``--domain-size NAME=SIZES`` options (``N``, ``A..B``, ``N1,N2,...``
    and ranges among them): a domain given one size keeps it, the domains given several
    step through them together (so they must give as many).

    :raises UsageError: naming the option at fault.
    """
    swept: dict[str, list[int]] = {}
    for item in items:
        name, eq, spec = item.partition("=")
        name = name.strip()
        sizes: list[int] = []
        for part in spec.split(",") if eq else [""]:
            m = _ITEM.match(part)
            if not name or m is None or int(m.group(1)) < 1 or (m.group(2) and int(m.group(2)) < int(m.group(1))):
                raise UsageError(f"--domain-size expects NAME=N, NAME=A..B or NAME=N1,N2,... with sizes of at least 1, "
                                 f"got {item!r}")
            last = int(m.group(2) or m.group(1))
            if len(sizes) + last - int(m.group(1)) + 1 > MAX_SIZES:
                raise UsageError(f"--domain-size {item!r} gives more than {MAX_SIZES:,} sizes")
            sizes.extend(range(int(m.group(1)), last + 1))
        if name in swept:
            raise UsageError(f"domain {name!r} is given twice by --domain-size")
        swept[name] = sizes
    counts = {len(v) for v in swept.values() if len(v) > 1}
    if len(counts) > 1:
        shown = ", ".join(f"{name} {len(v)}" for name, v in swept.items() if len(v) > 1)
        raise UsageError(f"the domains swept together must give as many sizes each ({shown})")
    steps = max(counts, default=1)
    return [{name: v[i] if len(v) > 1 else v[0] for name, v in swept.items()} for i in range(steps)]


def run_sweep(args: argparse.Namespace) -> int:
    """``sweep``: the theory at each size, compared; the exit status."""
    from ..console import time_left
    from ..formats import check_writable, dumps
    from ..insight.sweep import size_label, sweep, sweep_json, sweep_text
    from ..insight.sweep_report import sweep_html

    if not args.domain_size:
        raise UsageError("sweep needs --domain-size NAME=SIZES (e.g. --domain-size cluster=1..10)")
    steps = read_sizes(args.domain_size)
    inputs = [("the model", _archive(args.model))] + ([("the database", _archive(args.db))] if args.db else [])
    destination = check_writable(args.output, inputs) if args.output else None
    report = check_writable(args.report, inputs) if args.report else None
    if args.theories is not None and not os.path.isdir(args.theories):
        raise UsageError(f"--theories {args.theories!r} is not a directory")
    loaded = _load(_at(args, steps[0]))
    method = args.method or "lifted"
    given = _given_options(args, method)
    focus = _focus_options(args, loaded.settings)
    display = _display(args)
    options: dict[str, object] = {"force": args.force, **focus, **given, "guard": args.guard}
    if display is not None:
        options["progress"] = display
    done: list[tuple[Mapping[str, int], float]] = []
    clock = [time.perf_counter()]

    def started(i: int, size: Mapping[str, int]) -> None:
        if i:
            done.append((steps[i - 1], time.perf_counter() - clock[0]))
        clock[0] = time.perf_counter()
        if display is not None:
            left = _forecast(done, steps[i:])
            display.note(f"size {i + 1} of {len(steps)}: {size_label(size.items())}"
                         + (f" ({time_left(left)} for the sizes left)" if left is not None else ""))

    def seen(size: Mapping[str, int], theory: Theory) -> None:
        if args.theories is None:
            return
        stem = os.path.splitext(os.path.basename(args.model.split(":")[-1]))[0]
        label = "_".join(f"{name}{n}" for name, n in size.items())
        path = os.path.join(args.theories, f"{stem}.{label}.theory")
        _emit(dumps(theory, "text", _made_by(_at(args, size), method, given, focus)), check_writable(path))

    result = sweep(loaded.model, steps, method, filter=args.filter, options=options, seen=seen, started=started,
                   name=args.model)
    if display is not None:
        display.finish(f"swept {len(steps)} size(s)")
    if report is not None:
        from ..formats import atomic_write

        atomic_write(report, sweep_html(result, os.path.basename(args.model)))
    return _emit(sweep_json(result) if args.json else sweep_text(result), destination)


def _at(args: argparse.Namespace, size: Mapping[str, int]) -> argparse.Namespace:
    """``args`` as ``convert``'s at one size: each swept domain's ``--domain-size NAME=N``."""
    one = copy.copy(args)
    one.domain_size = [f"{name}={n}" for name, n in size.items()]
    return one


def _forecast(done: list[tuple[Mapping[str, int], float]], left: Sequence[Mapping[str, int]]) -> float | None:
    """Seconds the sizes ``left`` will take, from the last two done: each size costs the
    last one's times its ratio of ground atoms' scale (the product of its sizes) to the
    power that the last two show (0 to 4; a reduced domain's cost does not grow)."""
    if len(done) < 2:
        return None
    (a, ta), (b, tb) = done[-2], done[-1]
    scale_a, scale_b = math.prod(a.values()), math.prod(b.values())
    power = 1.0
    if scale_b != scale_a and ta > 0 and tb > 0:
        power = min(4.0, max(0.0, math.log(tb / ta) / math.log(scale_b / scale_a)))
    return float(sum(tb * (math.prod(s.values()) / scale_b) ** power for s in left))
