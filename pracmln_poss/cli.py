"""The ``pracmln-poss`` command line.

``pracmln-poss map MODEL.mln [--db FILE] [--evidence LIT ...] [--json]`` prints a MAP
world and, per atom, whether it is true in all, some or no MAP worlds.
``pracmln-poss query THEORY --evidence LIT ... --query FORMULA [--json]`` answers a
possibilistic query: entailed or not, at which consistency level, how many formulas
drowned.  Errors go
to stderr as ``pracmln-poss: error: ...`` with exit status 2; an interrupt exits
with 130.
"""

from __future__ import annotations

__all__ = ["main", "build_parser"]

import argparse
import json
import sys
from typing import Sequence

from . import __version__
from .errors import PossError, SourcePosition
from .formats import FORMATS
from .logic.syntax import GRAMMARS
from .map import BACKENDS
from .possibilistic.filtering import FILTER_MODES
from .transformations import METHODS
from .weights import DEFAULT_RESOLUTION, Resolution, format_weight, weight_number

PROG = "pracmln-poss"


class UsageError(PossError, ValueError):
    """A command-line option with a value out of range."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Read a Markov logic network as the possibilistic logic theory of its MAP inference.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    m = sub.add_parser("map", help="exact MAP inference: a MAP world and the literals true in all MAP worlds")
    m.add_argument("model", metavar="MODEL.mln", help="the MLN, in pracmln syntax")
    _model_options(m)
    m.add_argument(
        "--evidence", "-e", metavar="LIT", nargs="+", action="extend", default=[],
        help="evidence literals such as bird(Tweety) or !flies(Tweety) (repeatable)",
    )
    m.add_argument("--backend", choices=BACKENDS, default="rc2", help="MAP solver (default: rc2)")
    m.add_argument("--json", action="store_true", help="print JSON: penalty, world, entailed")
    m.set_defaults(run=_run_map)

    c = sub.add_parser("convert", help="convert an MLN into a possibilistic logic theory")
    c.add_argument("model", metavar="MODEL.mln", help="the MLN, in pracmln syntax")
    _model_options(c)
    c.add_argument("--method", choices=METHODS, default="defaults", help="the transformation (default: defaults)")
    c.add_argument("-k", type=int, default=1, help="largest evidence set size (defaults, selective; default 1)")
    c.add_argument(
        "--family", default="all", metavar="all|positive|FILE",
        help="selective: all sets of at most k literals, only positive ones, or a file with "
        "one evidence set per line (literals separated by commas)",
    )
    c.add_argument("--force", action="store_true", help="exhaustive: run even above 16 soft formulas")
    c.add_argument("--filter", choices=FILTER_MODES, default="none", help="redundancy filtering (default: none)")
    c.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    c.add_argument("-o", "--output", metavar="OUT", help="write here (atomically) instead of to stdout")
    shown = c.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", help="report progress on stderr even when it is not a terminal")
    shown.add_argument("--quiet", action="store_true", help="no progress report")
    c.add_argument("--backend", choices=BACKENDS, default="rc2", help="MAP solver (default: rc2)")
    c.set_defaults(run=_run_convert)

    q = sub.add_parser("query", help="possibilistic inference: is a formula entailed by a theory under evidence")
    q.add_argument("theory", metavar="THEORY", help="a theory file (text or JSON format)")
    q.add_argument(
        "--evidence", "-e", metavar="LIT", nargs="+", action="extend", default=[],
        help="evidence literals (or ground formulas), added as certain (repeatable)",
    )
    q.add_argument("--query", "-q", metavar="FORMULA", required=True, help="a ground formula, e.g. flies(Tweety)")
    q.add_argument("--json", action="store_true", help="print JSON: entailed, consistency_level, drowned")
    q.set_defaults(run=_run_query)
    return parser


def _model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="FILE", help="a pracmln .db file: evidence and domain constants")
    p.add_argument("--grammar", choices=GRAMMARS, default="StandardGrammar", help="pracmln grammar of the model")
    p.add_argument(
        "--resolution", default=DEFAULT_RESOLUTION,
        help=f"unit of the exact integer weights (default {DEFAULT_RESOLUTION})",
    )


def _load_ground(args: argparse.Namespace):
    from .bridge.loader import load_model
    from .grounding import ground

    loaded = load_model(args.model, args.db, grammar=args.grammar, resolution=Resolution(args.resolution))
    return ground(loaded.model)


def _run_map(args: argparse.Namespace) -> int:
    from .map import open_engine

    gmln = _load_ground(args)
    with open_engine(gmln, args.backend) as engine:
        evidence = [gmln.literal(text) for text in args.evidence]
        optimum = engine.optimum(evidence)
        penalty = engine.penalty(evidence)
        entailed = engine.consequences(evidence)
    world = optimum.world
    names = gmln.atoms
    if args.json:
        out = {
            "penalty": weight_number(penalty, gmln.resolution),
            "world": {names[a - 1]: world[a] for a in range(1, gmln.n_atoms + 1)},
            "entailed": {
                names[abs(lit) - 1]: lit > 0 for lit in sorted(entailed, key=abs)
            },
        }
        print(json.dumps(out, indent=2))
        return 0
    shown_evidence = ", ".join(gmln.literal_name(e) for e in evidence) or "none"
    print(f"evidence: {shown_evidence}")
    print(f"penalty of the evidence: {format_weight(penalty, gmln.resolution)}")
    width = max([len(n) for n in names] + [4])
    print(f"{'atom':<{width}}  MAP    true in MAP worlds")
    for a in range(1, gmln.n_atoms + 1):
        status = "all" if a in entailed else ("none" if -a in entailed else "some")
        print(f"{names[a - 1]:<{width}}  {'true' if world[a] else 'false':<5}  {status}")
    return 0


def _run_convert(args: argparse.Namespace) -> int:
    from .formats import atomic_write, dumps
    from .possibilistic.filtering import filter_redundant
    from .transformations import transform
    from .transformations.evidence import literal_sets, read_family

    gmln = _load_ground(args)
    options: dict[str, object] = {"backend": args.backend}
    if args.k < 0:
        raise UsageError(f"-k must be at least 0, got {args.k}")
    if args.method == "defaults":
        options["k"] = args.k
    elif args.method == "selective":
        if args.family in ("all", "positive"):
            options["family"] = list(literal_sets(gmln.n_atoms, args.k, positive_only=args.family == "positive"))
        else:
            options["family"] = read_family(args.family, gmln)
    else:
        options["force"] = args.force
    show = args.progress or (not args.quiet and sys.stderr.isatty())
    if show:
        options["progress"] = _print_progress
    theory = transform(gmln, args.method, **options)
    if args.filter != "none":
        result = filter_redundant(theory, args.filter)
        theory = result.theory
        if show:
            print(f"{PROG}: {args.filter} filtering removed {len(result.removed)} formula(s)", file=sys.stderr)
    text = dumps(theory, args.format)
    if args.output:
        atomic_write(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _print_progress(info) -> None:
    total = f"/{info.total}" if info.total is not None else ""
    size = f", size {info.size}" if info.size is not None else ""
    print(f"{PROG}: {info.phase}: {info.done}{total}{size}, {info.rules} rules so far", file=sys.stderr, flush=True)


def _run_query(args: argparse.Namespace) -> int:
    from .formats import load_theory

    theory = load_theory(args.theory)
    with theory.reasoner() as reasoner:
        try:
            result = reasoner.query(args.evidence, args.query)
        except PossError as exc:  # name the theory the evidence or query was checked against
            raise type(exc)(exc.message, exc.position or SourcePosition(args.theory)) from None
    level = result.consistency_level
    if args.json:
        out = {
            "entailed": result.entailed,
            "consistency_level": weight_number(level, theory.resolution),
            "drowned": len(result.drowned),
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"query: {args.query}")
    print(f"evidence: {', '.join(args.evidence) or 'none'}")
    print(f"entailed: {'yes' if result.entailed else 'no'}")
    print(f"consistency level: {theory.level_name(level)}")
    print(f"drowned: {len(result.drowned)} formula(s) below the consistency level")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except PossError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
