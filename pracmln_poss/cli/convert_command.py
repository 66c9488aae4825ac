"""``convert``: the possibilistic theory of a model, written (checkpoint, progress,
filtering, what made it)."""

from __future__ import annotations

__all__ = ["run_convert"]

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import OutputError, SourcePosition
from ..startup import PROG
from ..weights import DEFAULT_RESOLUTION, INF
from .common import UsageError, _archive, _display, _emit, _focus_options, _kept, _load

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    from ..formats.output import Destination
    from ..transformations.options import Flag


def _given_options(args: argparse.Namespace, method: str) -> dict[str, object]:
    """The options ``convert``'s flags give, by field name, as the options take them.

    :raises UsageError: for a flag the method lacks, naming those it has.
    """
    from ..transformations.conversion import METHODS, method_flags

    flags = method_flags()
    given = {name: vars(args)[name] for name in flags if name in vars(args)}
    takes = METHODS[method].names()
    lacking = [name for name in given if name not in takes]
    if lacking:
        own = [flag.name for name, (flag, _) in flags.items() if name in takes]
        raise UsageError(f"the {method} transformation has no {', '.join(flags[name][0].name for name in lacking)}; "
                         f"its options: {', '.join(own)}")
    return {name: _read(flags[name][0], value) for name, value in given.items()}


def _read(flag: Flag, value: object) -> object:
    return flag.read(value) if flag.read is not None and isinstance(value, str) else value


def _no_checkpoint(args: argparse.Namespace) -> bool:
    """Whether ``convert`` was told not to keep a checkpoint (``--no-checkpoint``)."""
    return "checkpoint" in vars(args)


def run_convert(args: argparse.Namespace) -> int:
    """``convert``: the theory of the model, written to ``-o`` (or standard output); the
    exit status."""
    from ..formats import dumps
    from ..formats.family import read_family
    from ..formats.sections import counted
    from ..model.grounding import ground as ground_model
    from ..transformations import convert_mln, default_method
    from ..transformations.conversion import has_option

    destination = _check_output(args, ())  # (before the work: the files named on the command line)
    loaded = _load(args)
    if loaded.included:  # (again, knowing every file the model's #include lines read)
        destination = _check_output(args, loaded.included)
    if (loaded.settings.cw or loaded.settings.cw_preds) and not args.quiet:
        print(f"{PROG}: the project's closed world (cw, cw_preds) is not applied to a conversion: "
              "its evidence sets range over the atoms the database leaves open", file=sys.stderr)
    method = args.method or default_method(loaded.model)
    # only what the user gave is passed, and the method's options decide (the one rule, not a copy here)
    given = _given_options(args, method)
    made_by = _made_by(args, method, given, _focus_options(args, loaded.settings))
    options: dict[str, object] = {"force": args.force, **_focus_options(args, loaded.settings), **given,
                                  "guard": args.guard, "keep": lambda made: _kept(args, made)}
    if given.get("family") not in (None, "all", "positive"):  # (a family file names ground atoms)
        grounded = options["grounded"] = _kept(args, ground_model(loaded.model, force=args.force))
        options["family"] = read_family(str(given["family"]), grounded)
    show = args.progress or (not args.quiet and sys.stderr.isatty())
    display = _display(args)
    if display is not None:
        options["progress"] = display
    jobs = given.get("jobs")
    if isinstance(jobs, int) and jobs > 1 and not args.quiet:
        from ..search.workers import workers_for

        if workers_for(jobs) < jobs:
            print(f"{PROG}: -j {jobs}: using {workers_for(jobs)} worker processes (one per core)", file=sys.stderr)
    if args.output is not None and not _no_checkpoint(args) and has_option(method, "checkpoint"):
        options["checkpoint"] = _checkpoint_path(args.output)
    # the checkpoint is kept until the theory is written: a stop while it is filtered or
    # written, or a refused write, loses none of the search
    done = convert_mln(loaded.model, method, filter=args.filter, keep_checkpoint=True, **options)
    _report_filtering(show, args.filter, done.removed)
    status = _emit(dumps(done.theory, args.format, made_by), destination)
    if isinstance(options.get("checkpoint"), str):  # (--no-checkpoint gives None: no file of this run's)
        from ..search.checkpoint import discard

        discard(str(options["checkpoint"]))
    if display is not None:
        # (the search's "rules found" leave out the certain ones: the model's hard formulas, written as they are)
        certain = sum(1 for pf in done.theory.formulas if pf.steps == INF)
        hard = f" ({certain:,} of them certain: the model's hard formulas)" if certain else ""
        display.finish(f"wrote {counted(len(done.theory), 'rule')} in {counted(len(done.theory.levels()), 'level')}{hard}"
                       f"{' to ' + args.output if args.output else ''}")
    return status


def _made_by(args: argparse.Namespace, method: str, given: dict[str, object], focus: dict[str, list[str]]) -> str:
    """The ``convert`` command that makes this theory, as a theory file records it: the
    model and its database and domains, the method (the default one named) and its
    options as given, the focus (a project's queries named), the filter; not what leaves
    the theory as it is (the backend, workers, checkpoints, progress, --force)."""
    import shlex

    from ..transformations.conversion import METHODS, has_option, method_flags
    from ..transformations.options import RUNTIME_NAMES

    words = [PROG, "convert", args.model]
    if args.db:
        words += ["--db", args.db]
    for name in ("domain", "domain_size"):
        for value in getattr(args, name):
            words += [f"--{name.replace('_', '-')}", value]
    if args.grammar:
        words += ["--grammar", args.grammar]
    if args.ignore_unknown_preds:
        words += ["--ignore-unknown-preds"]
    if args.resolution != DEFAULT_RESOLUTION:
        words += ["--resolution", str(args.resolution)]
    words += ["--method", method]
    flags = method_flags()
    for name in sorted(given):
        if name not in RUNTIME_NAMES and name != "backend":
            flag = flags[name][0]
            words += [flag.names[0]] + ([] if flag.type is None else [str(vars(args)[name])])
    if "k" not in given and has_option(method, "k") and given.get("family") in (None, "all", "positive"):
        # (the k it guarantees, default or not; a family read from a file has no k)
        words += ["-k", str(METHODS[method].default("k"))]
    for key in ("evidence_preds", "query_preds"):
        if key in focus:
            words += [f"--{key.replace('_', '-')}", ",".join(focus[key])]
    return shlex.join([*words, "--filter", args.filter]) + " (the world left open)"


def _check_output(args: argparse.Namespace, included: Sequence[str]) -> Destination | None:
    """Refuse, before the work, an output ``-o`` (or its checkpoint) that is not a place
    to write, or that is one of the command's inputs: the model, the database, the
    evidence family, and the files ``included`` by the model (None: no ``-o``)."""
    if args.output is None:
        return None
    from ..formats import check_writable

    inputs = [("the model", _archive(args.model))]
    if args.db:
        inputs.append(("the database", _archive(args.db)))
    family = vars(args).get("family")
    if family not in (None, "all", "positive"):
        inputs.append(("the evidence family", family))
    inputs += [("included by the model", path) for path in included]
    destination = check_writable(args.output, inputs)
    if not _no_checkpoint(args):
        _check_checkpoint(_checkpoint_path(args.output), inputs)
    return destination


def _check_checkpoint(path: str, inputs: Sequence[tuple[str, str]]) -> None:
    """Refuse, before the work, a checkpoint path that is taken by a directory or a
    special file, that is an input of the command, or that holds anything but a
    checkpoint (:func:`~pracmln_poss.search.checkpoint.check_place`)."""
    import stat

    from ..formats import check_writable
    from ..search.checkpoint import check_place

    try:
        mode = os.lstat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise OutputError("is where the checkpoint of -o goes, and a directory or special file is there; remove it "
                          "or give --no-checkpoint", SourcePosition(path))
    if mode is not None and stat.S_ISREG(mode):
        check_writable(path, inputs)  # (the same file as an input)
    check_place(path)  # (a link, or a file that is not a checkpoint: left as it is)


def _report_filtering(show: bool, mode: str, removed: int) -> None:
    if show and mode != "none":
        print(f"{PROG}: {mode} filtering removed {removed} formula(s)", file=sys.stderr)


def _checkpoint_path(output: str) -> str:
    """Where ``convert -o OUTPUT`` keeps its finished work: ``OUTPUT.checkpoint`` (shortened
    with a digest when that name would be too long for the file system)."""
    from ..formats import sibling_name

    head, name = os.path.split(output)
    return os.path.join(head, sibling_name(name, ".checkpoint"))
