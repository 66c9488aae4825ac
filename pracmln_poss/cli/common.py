"""What the commands share: the model and database as MAP inference takes them, the loading
options, the focus, what a command keeps to its end, its output."""

from __future__ import annotations

__all__ = ["UsageError"]

import argparse
import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

from ..collector import Freezer
from ..errors import PossError
from ..startup import PROG
from ..weights import Resolution

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    from ..bridge.loader import LoadedModel
    from ..bridge.project import ProjectSettings
    from ..bridge.query import Query
    from ..console import ProgressDisplay
    from ..formats.output import Destination


class UsageError(PossError, ValueError):
    """A command-line option with a value out of range."""


def _query(args: argparse.Namespace, db: object = None, sources: object = None) -> Query:
    """The model and database as MAP inference takes them: the one decision of the closed
    world (:func:`.bridge.query.query_of`), from the options, else the project's; a
    command without closed-world options leaves the world open (``db``: one database of
    a file holding several, instead of ``--db``; ``sources``: the model's texts read
    already, instead of reading the model again)."""
    from ..bridge.query import query_of

    cw, cw_preds = getattr(args, "cw", False), getattr(args, "cw_preds", "")  # (no options: the world open)
    preds = None if cw_preds is None else [p.strip() for p in cw_preds.split(",") if p.strip()]
    model = sources if sources is not None else getattr(args, "model", None) or args.mln
    query = query_of(model, args.db if db is None else db, _load_options(args), cw=cw, cw_preds=preds,
                     force=args.force)
    if cw is None and query.settings.cw and cw_preds is not None and not getattr(args, "quiet", False):
        print(f"{PROG}: the project's cw: 1 closes every predicate but the query and functional ones besides "
              "--cw-preds (as pracmln does); --no-cw closes only those", file=sys.stderr)
    return query


def _source(args: argparse.Namespace, query: Query, where: Mapping[str, object] | None = None) -> str:
    """Where the evidence comes from, in words (``where``: which database of several)."""
    parts = []
    if query.model.evidence:
        which = f" (database {where['database']}, line {where['line']})" if where else ""
        parts.append(f"database {args.db or query.settings.db or 'of the project'}{which} "
                     f"({len(query.model.evidence):,} literals)")
    if query.closed_preds:
        parts.append(f"closed world over {', '.join(query.closed_preds)} ({query.closed_count:,} atoms false)")
    return "; ".join(parts)


def _load(args: argparse.Namespace) -> LoadedModel:
    from ..bridge.loader import load
    from ..bridge.request import Loading, LoadRequest

    return load(LoadRequest.of(getattr(args, "model", None) or args.mln, args.db, Loading.of(_load_options(args))))


def _load_options(args: argparse.Namespace) -> dict[str, object]:
    """The loading options the command line gives (grammar, resolution, domains)."""

    domains = {}
    for item in args.domain:
        name, eq, consts = item.partition("=")
        values = [c.strip() for c in consts.split(",") if c.strip()]
        if not eq or not name.strip() or not values:
            raise UsageError(f"--domain expects NAME=C1,C2,..., got {item!r}")
        domains[name.strip()] = values
    sizes = {}
    for item in args.domain_size:
        name, eq, size = item.partition("=")
        if not eq or not name.strip() or not re.fullmatch(r"[0-9]{1,12}", size.strip()) or int(size) < 1:
            raise UsageError(f"--domain-size expects NAME=N with N >= 1, got {item!r}")
        if name.strip() in domains:
            raise UsageError(f"domain {name.strip()!r} is given both by --domain and --domain-size")
        sizes[name.strip()] = int(size)
    return {"grammar": args.grammar, "resolution": Resolution(args.resolution), "domains": domains,
            "domain_sizes": sizes, "ignore_unknown_preds": getattr(args, "ignore_unknown_preds", False)}


_Kept = TypeVar("_Kept")


_Made = TypeVar("_Made")


def _kept(args: argparse.Namespace, value: _Kept) -> _Kept:
    """The command's ground model or theory, which lives until the command ends: frozen
    for the cyclic garbage collector until then (:class:`~.collector.Freezer`)."""
    freezer: Freezer | None = getattr(args, "freezer", None)
    return freezer.keep(value) if freezer is not None else value


def _display(args: argparse.Namespace) -> ProgressDisplay | None:
    """How a long command reports on stderr: an updating line on a terminal, plain lines
    with --progress, else notes only; nothing with --quiet."""
    from ..console import ProgressDisplay

    if args.quiet:
        return None
    terminal = sys.stderr.isatty()
    return ProgressDisplay(PROG, "bar" if terminal else "lines" if args.progress else "notes", smaller=_smaller(args))


def _smaller(args: argparse.Namespace) -> str:
    """What would make a theory on course to be large smaller: the focus and filtering
    options not given yet, else a smaller ``-k``."""
    focus = [flag for flag, name in (("--evidence-preds", "evidence_preds"), ("--query-preds", "focus_query_preds"))
             if getattr(args, name, None) is None]
    ways = [f"{' and '.join(focus)} focus{'es' if len(focus) == 1 else ''} it"] if focus else []
    if getattr(args, "filter", "none") == "none":
        ways.append("--filter conservative shrinks it")
    if not ways:
        ways.append("a smaller -k shrinks it")
    return ", ".join(ways)


def _archive(path: str) -> str:
    """The file a model or database argument reads (a project's archive for ``X.pracmln:NAME``)."""
    from ..bridge.project import is_project_reference, split_reference

    return split_reference(path)[0] if is_project_reference(path) else path


def _focus_options(args: argparse.Namespace, settings: ProjectSettings | None = None) -> dict[str, list[str]]:
    """``evidence_preds``/``query_preds`` from ``--evidence-preds``/``--query-preds``
    (``all``: no restriction); the query predicates default to a project's ``queries``."""
    out: dict[str, list[str]] = {}
    for option, key in (("evidence_preds", "evidence_preds"), ("focus_query_preds", "query_preds")):
        value = getattr(args, option, None)
        if value is None and key == "query_preds" and settings is not None and settings.queries:
            out[key] = list(settings.queries)
        elif value is not None and value.strip() != "all":
            names = [p.strip() for p in value.split(",") if p.strip()]
            if not names:
                raise UsageError(f"--{key.replace('_', '-')} expects P1,P2,... or all, got {value!r}")
            out[key] = names
    return out


def _emit(text: str, output: Destination | None) -> int:
    """Write a converted theory to ``output`` (atomically) or to stdout."""
    from ..formats import atomic_write, write_stdout

    if output is not None:
        atomic_write(output, text)
    else:
        write_stdout(text)
    return 0
