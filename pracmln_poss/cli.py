"""The ``pracmln-poss`` command line: one command per thing a user does with a model.

- ``map MODEL [--db FILE] [--evidence LIT ...]``: a MAP world and, per atom, whether it
  is true in all, some or no MAP worlds (``--time-limit``, ``--anytime``);
- ``convert MODEL -o OUT``: the possibilistic theory (the transformations, ``-k``,
  ``--jobs``, a checkpoint to resume from);
- ``query THEORY --evidence ... --query F``: a possibilistic query (entailed or not, at
  which consistency level, how many formulas drowned);
- ``explain THEORY ...``: why, with the rules that make it follow (``--mln``: the MAP
  world where it fails);
- ``verify THEORY --mln MODEL``: the theory against MAP inference, pair by pair;
- ``show THEORY``: the theory level by level, with its warnings.

Errors go to stderr as ``pracmln-poss: error: ...`` with exit status 2; an interrupt
exits with 130, SIGTERM and SIGHUP with 143 and 129, whatever solver is running (a signal
inherited ignored, as SIGHUP under nohup, stays ignored)
(:mod:`pracmln_poss.stopping`).
"""

from __future__ import annotations

__all__ = ["main", "build_parser"]

import argparse
import errno
import json
import os
import re
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import BrokenExecutor
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar

from .collector import Freezer
from .errors import OutputError, PossError, PossWarning, SourcePosition, TimeLimitReached, closest
from .formats import FORMATS
from .logic.syntax import GRAMMARS
from .map import BACKENDS, DEFAULT_BACKEND
from .possibilistic.filtering import FILTER_MODES
from .startup import PROG, importing, is_python_handler, later
from .startup import interrupted as interrupted_at_start
from .stopping import INTERRUPTS, MAX_TIME_LIMIT, expire, interrupted, stoppable
from .version import __version__
from .weights import DEFAULT_RESOLUTION, INF, Resolution, format_weight, weight_number

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    from types import FrameType

    from .bridge.loader import LoadedModel
    from .bridge.project import ProjectSettings
    from .bridge.query import Query
    from .console import ProgressDisplay
    from .formats.output import Destination
    from .formats.questions import Question
    from .insight.show import Flag as RuleFlag
    from .map.inference import MapInference
    from .map.world import Optimum
    from .model.ground_mln import GroundMLN
    from .possibilistic.protocol import Theory
    from .possibilistic.theory import PossibilisticFormula
    from .transformations.options import Flag



class UsageError(PossError, ValueError):
    """A command-line option with a value out of range."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors that name the closest valid option or choice, and
    arguments added when first needed (:attr:`later`)."""

    later: Callable[[argparse.ArgumentParser], None] | None = None
    """Adds this parser's arguments when it first parses or shows its help (a command's
    arguments that cost imports the other commands do not need)."""

    def _complete(self) -> None:
        add, self.later = self.later, None
        if add is not None:
            add(self)

    def parse_known_args(self, args: Iterable[str] | None = None, namespace: Any = None,
                         ) -> tuple[Any, list[str]]:
        self._complete()  # (a command's parser is asked by its parent's, whatever the Python: 3.11-3.13)
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        self._complete()
        return super().format_help()

    def format_usage(self) -> str:
        self._complete()
        return super().format_usage()

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {self.suggest(message)} (see {self.prog} --help)\n")

    def suggest(self, message: str) -> str:
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            hint = closest(choice[1], re.findall(r"'([^']*)'", choice[2]))
            return f"{message}; {hint}" if hint else message
        unknown = re.match(r"unrecognized arguments: (.*)", message)
        if unknown:
            options = [o for o in self._option_string_actions if o.startswith("--")]
            hints = [f"{word}: {closest(word.split('=')[0], options, n=1)}" for word in unknown[1].split()
                     if word.startswith("--") and closest(word.split("=")[0], options)]
            return f"{message} ({'; '.join(hints)})" if hints else message
        return message


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Read a Markov logic network as the possibilistic logic theory of its MAP inference.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    m = sub.add_parser("map", help="exact MAP inference: a MAP world and the literals true in all MAP worlds")
    m.add_argument("model", metavar="MODEL", nargs="?", help=_MODEL_HELP)  # (required: see _positional_back)
    _model_options(m)
    m.add_argument(
        "--evidence", "-e", metavar="LIT", nargs="+", action="extend", default=[],
        help="evidence literals such as bird(Tweety) or !flies(Tweety) (repeatable)",
    )
    _closed_world_options(m)
    m.add_argument("--database-penalty", action="store_true",
                   help="count the database's and the closed world's atoms in the penalty of the evidence (one "
                   "more MAP solve, of the model without them); by default they are part of the model")
    m.add_argument("--query-preds", metavar="Q,...", dest="focus_query_preds",
                   help="print only the atoms of these predicates (default: a project's queries, else all; "
                   "'all' for all)")
    m.add_argument("--backend", choices=BACKENDS, default=DEFAULT_BACKEND,
                   help="MAP solver (default: auto, which picks oll, toulbar2 or cpsat per model)")
    m.add_argument("--json", action="store_true", help="print JSON: penalty, world, entailed")
    m.add_argument("--time-limit", metavar="SECONDS", type=_seconds, default=None,
                   help="give up after SECONDS, with exit status 3 (default: no limit)")
    m.add_argument("--anytime", action="store_true",
                   help="with --time-limit: print the best world found when the limit passes, marked as not "
                   "proven optimal (and nothing said of all MAP worlds)")
    m.set_defaults(run=_run_map)

    c = sub.add_parser("convert", help="convert an MLN into a possibilistic logic theory")
    c.later = _convert_arguments
    c.set_defaults(run=_run_convert)

    x = sub.add_parser("explain", help="why a query follows from a theory under evidence, or why not")
    _theory_query_options(x)
    x.add_argument("--mln", metavar="MODEL", help="when not entailed, show a MAP world of this MLN instead")
    _model_options(x, _THEORY_LIMITS)
    _closed_world_options(x)
    x.add_argument("--json", action="store_true", help="print JSON")
    x.set_defaults(run=_run_explain)

    v = sub.add_parser("verify", help="certify a theory against exact MAP inference of its MLN")
    v.add_argument("theory", metavar="THEORY", help="a theory file (text or JSON format)")
    v.add_argument("--mln", metavar="MODEL", required=True, help="the MLN the theory claims to capture")
    _model_options(v, _THEORY_LIMITS)
    v.add_argument("-k", type=int, required=True, help="check all E, C with |E| + |C| <= k + 1")
    _focus_arguments(v)
    v.add_argument("--sample", type=int, metavar="N", help="check exactly N pairs, drawn at random (seeded)")
    v.add_argument("--backend", choices=BACKENDS, default=DEFAULT_BACKEND, help="MAP solver (default: auto)")
    v.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    v.add_argument("--json", action="store_true", help="print JSON")
    shown_v = v.add_mutually_exclusive_group()
    shown_v.add_argument("--progress", action="store_true", help="report progress on stderr even when it is not a terminal")
    shown_v.add_argument("--quiet", action="store_true", help="no progress report")
    v.set_defaults(run=_run_verify)

    w = sub.add_parser("show", help="the theory per level as if-then rules, with warnings")
    w.add_argument("theory", metavar="THEORY", help="a theory file (text or JSON format)")
    w.add_argument("--mln", metavar="MODEL", help="flag rules that overturn the literal reading of its formulas")
    _model_options(w, _THEORY_LIMITS)
    w.add_argument("--query-preds", metavar="P,...", help="flag rules concluding about other predicates")
    w.add_argument("--digest", action="store_true",
                   help="one screen instead: what holds with no evidence, what one observation changes, what two "
                   "do that their parts do not, the flagged rules, the rules per level band")
    w.set_defaults(run=_run_show)

    r = sub.add_parser("report", help="the theory as one HTML page: its digest, then every rule, browsable")
    r.add_argument("theory", metavar="THEORY", help="a theory file (text or JSON format)")
    r.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE (default: stdout)")
    r.add_argument("--mln", metavar="MODEL", help="mark rules that overturn the literal reading of its formulas")
    _model_options(r, _THEORY_LIMITS)
    r.add_argument("--query-preds", metavar="P,...", help="mark rules concluding about other predicates")
    r.set_defaults(run=_run_report)

    q = sub.add_parser("query", help="possibilistic inference: is a formula entailed by a theory under evidence")
    _theory_query_options(q)
    q.add_argument("--json", action="store_true", help="print JSON: entailed, consistency_level, drowned")
    q.add_argument("--force", action="store_true",
                   help="ground a lifted theory even above 10,000,000 groundings")
    q.set_defaults(run=_run_query)
    return parser


def _focus_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--evidence-preds", metavar="P,...",
        help="evidence only over atoms of these predicates (default: all predicates)",
    )
    p.add_argument(
        "--query-preds", metavar="Q,...", dest="focus_query_preds",
        help="conclusions only about atoms of these predicates (default: a project's queries, "
        "else all predicates; 'all' for all)",
    )


def _theory_query_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("theory", metavar="THEORY", nargs="?",  # (required: see _positional_back)
                   help="a theory file (text or JSON format)")
    p.add_argument(
        "--evidence", "-e", metavar="LIT", nargs="+", action="extend", default=[],
        help="evidence literals (or ground formulas), added as certain (repeatable)",
    )
    p.add_argument("--query", "-q", metavar="FORMULA", help="a ground formula, e.g. flies(Tweety)")
    p.add_argument("--questions", metavar="FILE",
                   help="instead of --query and --evidence: a file of questions, one per line (-q FORMULA "
                   "[-e LIT ...], or a JSON object with \"query\" and \"evidence\"), all answered after one load "
                   "(--json: one JSON object per line)")


_MODEL_HELP = (
    "the MLN: a pracmln .mln file, a pracmln project PROJECT.pracmln (the model, database, grammar "
    "and query predicates its query.conf names) or a model in one, PROJECT.pracmln:NAME.mln"
)


_THEORY_LIMITS = "; 10,000,000 groundings of a lifted theory"


def _model_options(p: argparse.ArgumentParser, limits: str = "") -> None:
    """The options of a model; ``limits``: the command's own size limits, for ``--force``."""
    p.add_argument(
        "--db", metavar="FILE",
        help="a pracmln .db file (or PROJECT.pracmln:NAME.db): evidence and domain constants",
    )
    p.add_argument(
        "--domain", metavar="NAME=C1,C2,...", action="append", default=[],
        help="replace a domain of the model (repeatable), e.g. --domain person=Anna,Bob",
    )
    p.add_argument(
        "--domain-size", metavar="NAME=N", action="append", default=[],
        help="replace a domain by N fresh constants (repeatable), e.g. --domain-size cluster=1 gives Cluster1",
    )
    p.add_argument(
        "--ignore-unknown-preds", action="store_true",
        help="leave out the database's literals of predicates the model does not declare (pracmln's option; "
             "default: the project's, else they are an error)",
    )
    p.add_argument(
        "--grammar", choices=GRAMMARS, default=None,
        help="pracmln grammar of the model (default: the project's, else StandardGrammar)",
    )
    p.add_argument(
        "--resolution", default=DEFAULT_RESOLUTION,
        help=f"unit of the exact integer weights (default {DEFAULT_RESOLUTION})",
    )
    p.add_argument(
        "--force", action="store_true",
        help=f"go ahead above the size limits (1,000,000 ground atoms, 10,000,000 ground formulas{limits})",
    )


def _closed_world_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cw", action=argparse.BooleanOptionalAction, default=None,
                   help="pracmln's closed world: atoms of every predicate but the query predicates (the project's "
                   "queries) and the functional ones that the database leaves open are false (default: the project's cw)")
    p.add_argument("--cw-preds", metavar="P,...",
                   help="atoms of these predicates that the database leaves open are false (default: the project's "
                   "cw_preds)")


def _query(args: argparse.Namespace, db: object = None, sources: object = None) -> Query:
    """The model and database as MAP inference takes them: the one decision of the closed
    world (:func:`.bridge.query.query_of`), from the options, else the project's; a
    command without closed-world options leaves the world open (``db``: one database of
    a file holding several, instead of ``--db``; ``sources``: the model's texts read
    already, instead of reading the model again)."""
    from .bridge.query import query_of

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
    from .bridge.loader import load
    from .bridge.request import Loading, LoadRequest

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


def _check_against_database(args: argparse.Namespace, query: Query, gmln: GroundMLN, evidence: list[int]) -> None:
    """A given literal whose atom the database sets the other way: an error naming the
    database, not just "the hard formulas" (the closed world leaves given atoms open)."""
    from .errors import InconsistentEvidenceError
    from .logic.syntax import atom_name

    negated = {gmln.literal_name(-lit) for lit in evidence}
    for e in query.model.evidence:
        name = atom_name(e.pred, e.args)
        if (name if e.value else f"!{name}") in negated:
            database = f"the database {args.db or query.settings.db or ''}".rstrip()
            raise InconsistentEvidenceError(
                f"evidence {'!' if e.value else ''}{name} contradicts {database}, which has {'' if e.value else '!'}{name}")


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse's ``type``)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, got {text!r}")
    if seconds > MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_TIME_LIMIT:g} seconds (31 years), got {text!r}")
    return seconds


def _run_map(args: argparse.Namespace) -> int:
    """``map``: one answer, or one per database of a file holding several (``---``), in
    order (text: a block each; ``--json``: a JSON document a line)."""
    from .bridge.database import SeveralDatabasesError

    if args.anytime and args.time_limit is None:
        raise UsageError("--anytime goes with --time-limit SECONDS (the best world found when the limit passes)")
    try:
        return _map_one(args, args.db, None)
    except SeveralDatabasesError as several:  # (the model read first: its errors come first)
        databases, sources = several.databases, several.sources
    for number, parts in enumerate(databases, 1):
        if number > 1 and not args.json:
            print()
        _map_one(args, parts, (number, len(databases)), sources)
    return 0


def _map_one(args: argparse.Namespace, db: object, of: tuple[int, int] | None, sources: object = None) -> int:
    """``map`` on one database ``db`` (the ``number``-th of ``count`` in ``of``; None:
    the only one, as given; ``sources``: the model's texts read already)."""
    from .atoms import predicate_of, split_atom
    from .bridge.database import DatabaseParts
    from .errors import TimeLimitReached
    from .logic.syntax import compact_atom
    from .stopping import deadline

    anytime: Optimum | None = None
    where: dict[str, object] = {}
    if of is not None and isinstance(db, DatabaseParts):
        where = {"database": of[0], "line": db.start.line}
    with deadline(args.time_limit):  # (the answer is printed after the limit is switched off)
        query = _query(args, db, sources)
        model, source = query.model, _source(args, query, where)
        if query.closed_preds and (of is None or of[0] == 1):  # (said once)
            print(f"{PROG}: note: the closed world ({', '.join(query.closed_preds)}) applies to map; a theory from "
                  "convert leaves the world open and answers as map --no-cw does", file=sys.stderr)
        wanted = _focus_options(args, query.settings).get("query_preds")
        if wanted is not None:
            unknown = sorted(set(wanted) - set(model.predicate_map))
            if unknown:
                raise UsageError(f"--query-preds: no predicate {', '.join(unknown)} in the model "
                                 f"({closest(unknown[0], model.predicate_map, 'its predicates')})")
        given = [split_atom(compact_atom(e).lstrip("!")) for e in args.evidence]  # (the closed world leaves them open)
        with query.inference(args.backend, args.force, given) as inference:
            gmln = inference.mln
            evidence = [gmln.literal(text) for text in args.evidence]
            _check_against_database(args, query, gmln, evidence)
            try:
                answer = inference.answer(evidence)
                penalty = inference.database_penalty(evidence) if args.database_penalty else answer.penalty
            except TimeLimitReached:
                anytime = inference.best_found(evidence)
                if not args.anytime or anytime is None:
                    raise
    shown = [name for name in gmln.atoms if wanted is None or predicate_of(name) in wanted]
    if of is not None and not args.json:
        line = f" (line {where['line']})" if where else ""
        print(f"database {of[0]} of {of[1]}{line}")
    if anytime is not None:
        _print_anytime(args, gmln, anytime, shown, where)
        return 0
    shown_set = set(shown)
    steps = gmln.resolution.to_int(penalty) if penalty != INF else INF
    # what the penalty counts, said where a database or a closed world could be in it or not
    held = " and ".join(part for part, present in (("the database", query.model.evidence),
                                                   ("the closed world", query.closed_preds)) if present)
    counted = ("" if not held else f"{held} included" if args.database_penalty
               else f"given {held}; --database-penalty counts {'them' if ' and ' in held else 'it'} too")
    if args.json:
        out: dict[str, object] = {**where, "penalty": weight_number(steps, gmln.resolution)}
        if counted:
            out["penalty_counts"] = "database and evidence" if args.database_penalty else "evidence given the database"
        out["world"] = {name: answer.world[name] for name in shown}
        out["entailed"] = {name: value for name, value in answer.entailed.items() if name in shown_set}
        print(json.dumps(out, indent=None if where else 2))  # (several databases: a line each)
        return 0
    shown_evidence = ", ".join(gmln.literal_name(e) for e in evidence)
    said = "; ".join(filter(None, [source, f"given {shown_evidence}" if source and shown_evidence else shown_evidence]))
    print(f"evidence: {said or 'none'}")
    print(f"penalty of the evidence: {format_weight(steps, gmln.resolution)}{f' ({counted})' if counted else ''}")
    width = max([len(name) for name in shown] + [4])
    if wanted is not None:
        print(f"atoms of {', '.join(wanted)} ({len(shown)} of {gmln.n_atoms}; --query-preds all for every atom)")
    print(f"{'atom':<{width}}  MAP    true in MAP worlds")
    for name in shown:
        value = answer.entailed.get(name)
        status = "some" if value is None else "all" if value else "none"
        print(f"{name:<{width}}  {'true' if answer.world[name] else 'false':<5}  {status}")
    return 0


def _print_anytime(args: argparse.Namespace, gmln: GroundMLN, found: Optimum, shown: list[str],
                   where: Mapping[str, object]) -> None:
    """The best world found before the time limit, marked as not proven optimal
    (``where``: which database of several, for its JSON line)."""
    world = gmln.named(found.world)
    if args.json:
        out = {**where, "optimal": False, "cost": weight_number(found.cost, gmln.resolution),
               "world": {name: world[name] for name in shown}}
        print(json.dumps(out, indent=None if where else 2))
        return
    print(f"not proven optimal: the time limit of {args.time_limit:g} s passed first; the best world found "
          f"by then costs {format_weight(found.cost, gmln.resolution)} (nothing is said of all MAP worlds)")
    width = max([len(name) for name in shown] + [4])
    print(f"{'atom':<{width}}  world")
    for name in shown:
        print(f"{name:<{width}}  {'true' if world[name] else 'false'}")


def _convert_arguments(c: argparse.ArgumentParser) -> None:
    """``convert``'s arguments, added when ``convert`` parses its arguments or shows its
    help: its flags are the transformations' options, and reading them imports the rule
    search (its workers, multiprocessing, the checkpoints), which no other command needs."""
    from .transformations.conversion import METHODS
    from .transformations.options import DEFAULT_MAX_FORMULAS, MAX_EVIDENCE_SETS, MAX_LIFTED_EVIDENCE_SETS

    c.add_argument("model", metavar="MODEL", help=_MODEL_HELP)
    _model_options(c, f"; {MAX_EVIDENCE_SETS:,} evidence sets (lifted: {MAX_LIFTED_EVIDENCE_SETS:,} sets its search "
                   "examines, one per class up to renaming and the repeats met); the exhaustive transformation "
                   f"above {DEFAULT_MAX_FORMULAS} soft formulas")
    c.add_argument(
        "--method", choices=METHODS, default=None,
        help="the transformation (default: lifted for a first-order MLN, defaults for a propositional one)",
    )
    _focus_arguments(c)
    c.add_argument("--filter", choices=FILTER_MODES, default="none", help="redundancy filtering (default: none)")
    c.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    c.add_argument("-o", "--output", metavar="OUT", help="write here (atomically) instead of to stdout")
    shown = c.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", help="report progress on stderr even when it is not a terminal")
    shown.add_argument("--quiet", action="store_true", help="no progress report")
    _method_flags(c)


def _method_flags(parser: argparse.ArgumentParser) -> None:
    """``convert``'s flags for the transformations' options, made from their fields (one
    flag an option; absent from the namespace unless given)."""
    from .transformations.conversion import METHODS, method_flags

    for name, (flag, methods) in method_flags().items():
        shown = flag.help if len(methods) == len(METHODS) else f"{', '.join(methods)}: {flag.help}"
        if flag.type is None:
            parser.add_argument(*flag.names, dest=name, action="store_const", const=None, default=argparse.SUPPRESS,
                                help=shown)
        else:
            parser.add_argument(*flag.names, dest=name, type=flag.type, choices=flag.choices, metavar=flag.metavar,
                                default=argparse.SUPPRESS, help=shown)


def _given_options(args: argparse.Namespace, method: str) -> dict[str, object]:
    """The options ``convert``'s flags give, by field name, as the options take them.

    :raises UsageError: for a flag the method lacks, naming those it has.
    """
    from .transformations.conversion import METHODS, method_flags

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


_Kept = TypeVar("_Kept")
_Made = TypeVar("_Made")


def _kept(args: argparse.Namespace, value: _Kept) -> _Kept:
    """The command's ground model or theory, which lives until the command ends: frozen
    for the cyclic garbage collector until then (:class:`~.collector.Freezer`)."""
    freezer: Freezer | None = getattr(args, "freezer", None)
    return freezer.keep(value) if freezer is not None else value


def _run_convert(args: argparse.Namespace) -> int:
    from .formats import dumps
    from .formats.family import read_family
    from .model.grounding import ground as ground_model
    from .transformations import convert, default_method
    from .transformations.conversion import has_option

    destination = _check_output(args, ())  # (before the work: the files named on the command line)
    loaded = _load(args)
    if loaded.included:  # (again, knowing every file the model's #include lines read)
        destination = _check_output(args, loaded.included)
    if (loaded.settings.cw or loaded.settings.cw_preds) and not args.quiet:
        print(f"{PROG}: the project's closed world (cw, cw_preds) is not applied to a conversion: "
              "its evidence sets range over the atoms the database leaves open", file=sys.stderr)
    gmln = _kept(args, ground_model(loaded.model, force=args.force))
    method = args.method or default_method(loaded.model)
    # only what the user gave is passed, and the method's options decide (the one rule, not a copy here)
    given = _given_options(args, method)
    made_by = _made_by(args, method, given, _focus_options(args, loaded.settings))
    if given.get("family") not in (None, "all", "positive"):
        given["family"] = read_family(str(given["family"]), gmln)
    options: dict[str, object] = {"force": args.force, **_focus_options(args, loaded.settings), **given}
    show = args.progress or (not args.quiet and sys.stderr.isatty())
    display = _display(args)
    if display is not None:
        options["progress"] = display
    jobs = given.get("jobs")
    if isinstance(jobs, int) and jobs > 1 and not args.quiet:
        from .search.workers import workers_for

        if workers_for(jobs) < jobs:
            print(f"{PROG}: -j {jobs}: using {workers_for(jobs)} worker processes (one per core)", file=sys.stderr)
    if args.output is not None and not _no_checkpoint(args) and has_option(method, "checkpoint"):
        options["checkpoint"] = _checkpoint_path(args.output)
    # the checkpoint is kept until the theory is written: a stop while it is filtered or
    # written, or a refused write, loses none of the search
    done = convert(loaded.model, method, grounded=gmln, filter=args.filter, keep_checkpoint=True, **options)
    _report_filtering(show, args.filter, done.removed)
    status = _emit(dumps(done.theory, args.format, made_by), destination)
    if "checkpoint" in options:
        from .search.checkpoint import discard

        discard(_checkpoint_path(args.output))
    if display is not None:
        # (the search's "rules found" leave out the certain ones: the model's hard formulas, written as they are)
        certain = sum(1 for pf in done.theory.formulas if pf.steps == INF)
        hard = f" ({certain:,} of them certain: the model's hard formulas)" if certain else ""
        display.finish(f"wrote {len(done.theory):,} rules in {len(done.theory.levels()):,} levels{hard}"
                       f"{' to ' + args.output if args.output else ''}")
    return status


def _made_by(args: argparse.Namespace, method: str, given: dict[str, object], focus: dict[str, list[str]]) -> str:
    """The ``convert`` command that makes this theory, as a theory file records it: the
    model and its database and domains, the method (the default one named) and its
    options as given, the focus (a project's queries named), the filter; not what leaves
    the theory as it is (the backend, workers, checkpoints, progress, --force)."""
    import shlex

    from .transformations.conversion import method_flags
    from .transformations.options import RUNTIME_NAMES

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
    from .formats import check_writable

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


def _display(args: argparse.Namespace) -> ProgressDisplay | None:
    """How a long command reports on stderr: an updating line on a terminal, plain lines
    with --progress, else notes only; nothing with --quiet."""
    from .console import ProgressDisplay

    if args.quiet:
        return None
    terminal = sys.stderr.isatty()
    return ProgressDisplay(PROG, "bar" if terminal else "lines" if args.progress else "notes")


def _check_checkpoint(path: str, inputs: Sequence[tuple[str, str]]) -> None:
    """Refuse, before the work, a checkpoint path that is taken by a directory or a
    special file, that is an input of the command, or that holds anything but a
    checkpoint (:func:`~pracmln_poss.search.checkpoint.check_place`)."""
    import stat

    from .formats import check_writable
    from .search.checkpoint import check_place

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


def _archive(path: str) -> str:
    """The file a model or database argument reads (a project's archive for ``X.pracmln:NAME``)."""
    from .bridge.project import is_project_reference, split_reference

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


def _report_filtering(show: bool, mode: str, removed: int) -> None:
    if show and mode != "none":
        print(f"{PROG}: {mode} filtering removed {removed} formula(s)", file=sys.stderr)


def _emit(text: str, output: Destination | None) -> int:
    """Write a converted theory to ``output`` (atomically) or to stdout."""
    from .formats import atomic_write, write_stdout

    if output is not None:
        atomic_write(output, text)
    else:
        write_stdout(text)
    return 0


def _checkpoint_path(output: str) -> str:
    """Where ``convert -o OUTPUT`` keeps its finished work: ``OUTPUT.checkpoint`` (shortened
    with a digest when that name would be too long for the file system)."""
    from .formats import sibling_name

    head, name = os.path.split(output)
    return os.path.join(head, sibling_name(name, ".checkpoint"))


def _formula_json(pf: PossibilisticFormula, theory: Theory) -> dict[str, object]:
    item: dict[str, object] = {"formula": theory.format(pf.formula), "level": weight_number(pf.steps, theory.resolution)}
    if pf.origin:
        item["origin"] = pf.origin
    return item


def _questions(args: argparse.Namespace) -> list[Question]:
    """The questions of the command: ``--questions FILE``, or the one ``--query`` with
    its ``--evidence``."""
    from .formats.questions import Question, read_questions

    if args.questions is None:
        if args.query is None:
            raise UsageError("give --query FORMULA (with --evidence), or --questions FILE")
        return [Question(tuple(args.evidence), args.query)]
    if args.query is not None or args.evidence:
        raise UsageError("--questions FILE holds the queries and their evidence: give it without --query and "
                         "--evidence")
    return read_questions(args.questions)


def _checked(theory: Theory, questions: Sequence[Question], args: argparse.Namespace) -> None:
    """Every question's names and syntax checked against the theory before any is
    answered (an error names the question's line)."""
    for question in questions:
        try:
            theory.ground_formula(question.query)
            for item in question.evidence:
                theory.ground_formula(item)
        except PossError as exc:
            raise type(exc)(exc.message, question.position or exc.position or SourcePosition(args.theory)) from None


def _on_theory(args: argparse.Namespace, make: Callable[[], _Made]) -> _Made:
    """``make()`` (what answers questions on the theory file, or an answer), its errors
    naming the file where they name no place of their own."""
    try:
        return make()
    except PossError as exc:
        raise type(exc)(exc.message, exc.position or SourcePosition(args.theory)) from None


def _answers(args: argparse.Namespace, theory: Theory, questions: Sequence[Question],
             answer: Callable[[Question], tuple[dict[str, object], str]]) -> int:
    """Answer each question in order: one at a time as before, or a file's worth (text
    blocks apart by a blank line; with ``--json``, one object per line, evidence that
    contradicts the certain rules answered as ``"inconsistent"``)."""
    from .errors import InconsistentEvidenceError
    from .formats import write_stdout

    if args.questions is None:
        question = questions[0]
        # (an error names the theory the evidence or query was checked against)
        out, text = _on_theory(args, lambda: answer(question))
        write_stdout(json.dumps(out, indent=2) + "\n" if args.json else text)
        return 0
    _checked(theory, questions, args)
    for number, question in enumerate(questions):
        try:
            out, text = answer(question)
        except InconsistentEvidenceError as exc:
            out = {"inconsistent": exc.message}
            text = (f"query: {question.query}\nevidence: {', '.join(question.evidence) or 'none'}\n"
                    f"inconsistent: {exc.message}\n")
        if args.json:
            write_stdout(json.dumps({"query": question.query, "evidence": list(question.evidence), **out}) + "\n")
        else:
            write_stdout(("\n" if number else "") + text)
    return 0


def _run_explain(args: argparse.Namespace) -> int:
    from contextlib import ExitStack

    from .formats import load_theory
    from .insight.explain import COUNTERMODEL, MAP_COUNTERMODEL, Explainer, map_countermodel

    questions = _questions(args)
    # (a lifted theory is asked on its rules' ground clauses, not grounded as formulas)
    with ExitStack() as stack:
        explainer = stack.enter_context(_on_theory(args, lambda: Explainer(
            _kept(args, load_theory(args.theory, ground=False)), force=args.force)))
        theory = explainer.theory
        opened: list[MapInference] = []  # (the MLN's MAP, opened for the first question not entailed)

        def answer(question: Question) -> tuple[dict[str, object], str]:
            why = explainer.explain(question.evidence, question.query)
            world, world_kind = why.countermodel_world(), COUNTERMODEL
            if not why.entailed and args.mln:
                if not opened:
                    opened.append(stack.enter_context(_query(args).inference(force=args.force)))
                world, world_kind = map_countermodel(opened[0], question.evidence, question.query), MAP_COUNTERMODEL
            out: dict[str, object] = {
                "entailed": why.entailed,
                "consistency_level": weight_number(why.consistency_steps, theory.resolution),
                "rules": [_formula_json(pf, theory) for pf in why.rules],
                "drowned": [_formula_json(pf, theory) for pf in why.drowned],
                "conflicting": [_formula_json(pf, theory) for pf in why.conflicting],
                "would_decide": [{**_formula_json(pf, theory), "query": value} for pf, value in why.would_decide],
                "countermodel": world,
            }
            text = why.text(world, world_kind)
            if world is None and not why.entailed and args.mln:
                text += "the MLN entails the query: the theory and the MLN disagree here (see `verify`)\n"
            return out, text

        return _answers(args, theory, questions, answer)


def _run_verify(args: argparse.Namespace) -> int:
    from .formats import load_theory
    from .insight.verify import COUNT_LIMIT, verify

    # (k and the sample are checked by verify itself, as transform checks k: one check, one error)
    from .model.grounding import ground as ground_model
    from .search.focus import Focus

    theory = _kept(args, load_theory(args.theory, force=args.force))
    loaded = _load(args)
    gmln = _kept(args, ground_model(loaded.model, force=args.force))
    focus_names = _focus_options(args, loaded.settings)
    focus = Focus.of_predicates(gmln, focus_names.get("evidence_preds"), focus_names.get("query_preds"))
    display = _display(args)
    result = verify(theory, gmln, args.k, sample=args.sample, seed=args.seed, focus=focus, backend=args.backend,
                    progress=display)
    if display is not None:
        display.finish(f"checked {result.pairs_checked:,} pairs")
    if args.json:
        out: dict[str, object] = {
            "ok": result.ok, "k": result.k, "mode": result.mode, "pairs_checked": result.pairs_checked,
            "pairs_total": result.pairs_total, "pairs_impossible": result.pairs_impossible,
            "evidence_sets": result.evidence_sets, "seconds": round(result.seconds, 3), "seed": result.seed,
            "evidence_preds": focus_names.get("evidence_preds"), "query_preds": focus_names.get("query_preds"),
        }
        if result.counterexample:
            out["counterexample"] = {
                "evidence": list(result.counterexample.evidence),
                "conclusion": list(result.counterexample.conclusion),
                "map_entails": result.counterexample.map_entails,
                "theory_entails": result.counterexample.theory_entails,
            }
        print(json.dumps(out, indent=2))
    elif result.ok:
        seed = f", seed {result.seed}" if result.seed is not None else ""
        within = "".join(
            f", {side} over {', '.join(focus_names[key])}"
            for side, key in (("E", "evidence_preds"), ("C", "query_preds")) if key in focus_names
        )
        of = f"{result.pairs_total:,}" if result.pairs_total is not None else f"more than {COUNT_LIMIT:,}"
        if result.mode == "sample":
            scope = f"on a sample of {result.pairs_checked:,} of the {of} pairs with"
        else:
            scope = f"for all {of} pairs with"
        print(f"verified: (M,E) |-MAP OR C iff (T,E) |-poss OR C {scope} |E| + |C| <= {result.k + 1}{within}")
        skipped = (f", {result.pairs_impossible:,} with evidence the hard formulas rule out (nothing to check)"
                   if result.pairs_impossible and result.mode == "exhaustive" else "")
        print(f"  {result.mode}: {result.pairs_checked:,} pairs checked{skipped}, {result.evidence_sets:,} evidence "
              f"sets, {result.seconds:.2f} s{seed}")
    elif result.counterexample is not None:
        c = result.counterexample
        print("counterexample:")
        print(f"  evidence: {', '.join(c.evidence) or 'none'}")
        print(f"  conclusion: {' v '.join(c.conclusion)}")
        print(f"  MLN (MAP): {'entailed' if c.map_entails else 'not entailed'}")
        print(f"  theory (poss): {'entailed' if c.theory_entails else 'not entailed'}")
    return 0 if result.ok else 1


def _flags(args: argparse.Namespace, theory: Theory) -> list[RuleFlag]:
    """The warnings ``--mln`` and ``--query-preds`` ask for, on the theory's own rules."""
    from .insight.show import lifted_flags, off_target_rules, overturned_readings

    flags: list[RuleFlag] = []
    if args.mln or args.query_preds:
        # warnings are found on the grounding (made only for them); a lifted theory shows them on its rules
        ground, sources = theory.ground_with_sources(args.force)
        if args.mln:
            from .model.grounding import ground as ground_model

            flags.extend(overturned_readings(ground, ground_model(_query(args).closed_model, force=args.force)))
        if args.query_preds:
            flags.extend(off_target_rules(ground, [p.strip() for p in args.query_preds.split(",") if p.strip()]))
        flags = lifted_flags(flags, ground, sources, theory)
    return flags


def _run_show(args: argparse.Namespace) -> int:
    from .formats import load_theory, write_stdout
    from .insight.show import show_text

    theory = _kept(args, load_theory(args.theory, ground=False))
    flags = _flags(args, theory)
    if args.digest:
        from .insight.digest import digest_text

        write_stdout(digest_text(theory, flags))
        return 0
    write_stdout(show_text(theory, flags))
    return 0


def _run_report(args: argparse.Namespace) -> int:
    from .formats import load_theory
    from .insight.report import report_html

    output = None
    if args.output is not None:
        from .formats import check_writable

        inputs = [("the theory", args.theory)] + [(what, _archive(path)) for what, path in
                                                   (("the model", args.mln), ("the database", args.db)) if path]
        output = check_writable(args.output, inputs)
    theory = _kept(args, load_theory(args.theory, ground=False))
    page = report_html(theory, _flags(args, theory), title=os.path.basename(args.theory))
    return _emit(page, output)


def _run_query(args: argparse.Namespace) -> int:
    from .formats import load_theory
    from .possibilistic.reasoner import Reasoner

    questions = _questions(args)
    # (a lifted theory is answered on its rules' ground clauses, not grounded as formulas)
    theory = _kept(args, load_theory(args.theory, ground=False))
    with _on_theory(args, lambda: Reasoner(theory, force=args.force)) as reasoner:

        def answer(question: Question) -> tuple[dict[str, object], str]:
            result = reasoner.query(list(question.evidence), question.query)
            level = result.consistency_steps
            out: dict[str, object] = {"entailed": result.entailed, "consistency_level": weight_number(level, theory.resolution),
                   "drowned": len(result.drowned)}
            text = (f"query: {question.query}\nevidence: {', '.join(question.evidence) or 'none'}\n"
                    f"entailed: {'yes' if result.entailed else 'no'}\nconsistency level: {theory.steps_name(level)}\n"
                    f"drowned: {len(result.drowned)} formula(s) below the consistency level\n")
            return out, text

        return _answers(args, reasoner.theory, questions, answer)


class _Terminated(KeyboardInterrupt):
    """A signal that ends the command (SIGTERM, SIGHUP), handled as an interrupt is: the
    checkpoint saved, the workers stopped."""

    signum: int

    def __init__(self, signum: int | _Terminated) -> None:
        # (pracmln's temporary_evidence re-raises an exception as its type called with
        # the exception itself: the signal is the one that exception carries)
        number: int = signum.signum if isinstance(signum, _Terminated) else signum
        super().__init__(number)
        self.signum = number


_ending: KeyboardInterrupt | None = None  # what a signal ending the command raised: the next ones are let go


def _terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM, SIGHUP (and Ctrl-C: as ``KeyboardInterrupt``): stop the command, once
    (``timeout`` sends its SIGTERM twice, to the process and to its group, and a second
    one must not break into the first one's way out)."""
    global _ending
    if _ending is not None:
        return
    if importing(frame):  # (a library's import broken into: the signal again once it is over)
        later(signum)
        return
    _ending = KeyboardInterrupt() if signum == signal.SIGINT else _Terminated(signum)
    # (kept: a solve started after a swallowed one raises it again)
    raise expire(_ending)


def _positional_back(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--evidence LIT ... MODEL`` puts the model among the literals (the list takes
    every word after it): take back a last word that names an existing file, else say
    what is missing and why."""
    name = "model" if hasattr(args, "model") else "theory" if hasattr(args, "theory") else None
    if name is None or getattr(args, name) is not None:
        return
    evidence = getattr(args, "evidence", [])
    if evidence and os.path.isfile(evidence[-1].split(":", 1)[0] if ".pracmln:" in evidence[-1] else evidence[-1]):
        setattr(args, name, evidence.pop())
        return
    hint = " (--evidence takes every word after it: put it last, or the file first)" if evidence else ""
    parser.error(f"the following arguments are required: {name.upper()}{hint}")


def _one_standard_input(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Standard input (``-``, ``/dev/stdin``) is one stream, read once: one input at most."""
    from .sources import STANDARD_INPUT

    given = [name for name in ("model", "mln", "theory", "db", "family") if getattr(args, name, None) in STANDARD_INPUT]
    if len(given) > 1:
        parser.error(f"standard input is read once: give it as one input only, not as {' and '.join(given)}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``argv``: the words after the program's name; None: the
    process's own); returns the exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    command = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[args.command]
    if extra:  # (the command's own parser knows its options: it names the closest)
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    _positional_back(command, args)
    _one_standard_input(command, args)
    global _ending
    _ending = None
    # (a signal the process inherits ignored, as nohup ignores SIGHUP, stays ignored; Ctrl-C
    # is taken over whatever else is ignored: left to start-up's handler, which only notes
    # it, a Ctrl-C with SIGTERM and SIGHUP both ignored stopped a solve that was asked again)
    main_thread = threading.current_thread() is threading.main_thread()
    handled = [signum for signum in (signal.SIGTERM, signal.SIGHUP) if signal.getsignal(signum) is not signal.SIG_IGN
               ] if main_thread else []
    if main_thread and is_python_handler(signal.getsignal(signal.SIGINT)):
        handled.append(signal.SIGINT)
    previous = {signum: signal.signal(signum, _terminate) for signum in handled}
    try:
        if interrupted_at_start():  # (a Ctrl-C noted inside an import, before the handler above)
            raise KeyboardInterrupt
        with warnings.catch_warnings(), Freezer() as args.freezer:
            shown = warnings.showwarning

            def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                     file: TextIO | None = None, line: str | None = None) -> None:
                if issubclass(category, PossWarning):  # ours: one line, as errors are
                    print(f"{PROG}: warning: {message}", file=sys.stderr)
                else:
                    shown(message, category, filename, lineno, file, line)

            warnings.showwarning = show
            if sys.stdout is None and not (args.run is _run_convert and args.output is not None):
                raise OutputError("standard output is closed; give -o FILE or redirect it",
                                  SourcePosition("<stdout>"))
            with stoppable():
                status: int = args.run(args)
            _flush_stdout()
        return status
    except TimeLimitReached as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 3
    except PossError as exc:  # (a refused final write: the search's work is kept)
        print(f"{PROG}: error: {exc}{_resume_hint(args) if isinstance(exc, OutputError) else ''}", file=sys.stderr)
        if isinstance(exc, OutputError) and exc.position is not None and exc.position.file == "<stdout>":
            _drop_stdout()
        return 2
    except _Terminated as exc:
        print(f"{PROG}: terminated by {signal.Signals(exc.signum).name}{_resume_hint(args)}", file=sys.stderr)
        return 128 + exc.signum
    except INTERRUPTS as exc:  # (Ctrl-C inside a SAT call arrives as PySAT's error)
        if not interrupted(exc):
            raise
        print(f"{PROG}: interrupted{_resume_hint(args)}", file=sys.stderr)
        return 130
    except BrokenExecutor:
        print(f"{PROG}: error: a worker process ended unexpectedly (killed, or out of memory?){_resume_hint(args)}",
              file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{PROG}: error: out of memory (a smaller k, domain or focus needs less){_resume_hint(args)}",
              file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if exc.errno in _OUTPUT_ERRNOS:
            print(f"{PROG}: error: cannot write to standard output: {exc.strerror or exc}", file=sys.stderr)
            _drop_stdout()
            return 2
        return _signalled(exc, args)
    except Exception as exc:
        return _signalled(exc, args)
    finally:
        for signum, handler in previous.items():
            # (the process's own command line ends by a signal: a second one is let go, to
            # its exit status; the interpreter's shutdown would reset a handler, not this)
            signal.signal(signum, signal.SIG_IGN if _ending is not None and argv is None else handler)


def _signalled(exc: Exception, args: argparse.Namespace) -> int:
    """After a signal that stops the command, the status and line of that signal, whatever
    error a library made of its exception (numpy, interrupted while it is imported, raises
    ``ImportError``); else ``exc`` goes on."""
    came = _ending
    if isinstance(came, _Terminated):
        print(f"{PROG}: terminated by {signal.Signals(came.signum).name}{_resume_hint(args)}", file=sys.stderr)
        return 128 + came.signum
    if isinstance(came, KeyboardInterrupt):
        print(f"{PROG}: interrupted{_resume_hint(args)}", file=sys.stderr)
        return 130
    raise exc


_OUTPUT_ERRNOS = {errno.EFBIG, errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT}
"""What a print to a cut standard output raises (a size limit, a full disk, a closed
descriptor): an error of the output, not a traceback."""


def _drop_stdout() -> None:
    """After standard output failed: what is still buffered goes nowhere (the interpreter's
    own flush at exit would fail again, print a traceback and end with status 120)."""
    try:
        fd = sys.stdout.fileno() if sys.stdout is not None else -1
    except (AttributeError, OSError, ValueError):
        return  # (not a file: a caller's capture)
    if fd >= 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


def _flush_stdout() -> None:
    """Flush what the command printed; a failure is an error, not exit 0 with less."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _resume_hint(args: argparse.Namespace) -> str:
    """Where a stopped conversion's finished work is, when it is kept."""
    from .search.checkpoint import is_checkpoint

    if getattr(args, "run", None) is _run_convert and args.output is not None and not _no_checkpoint(args) \
            and is_checkpoint(_checkpoint_path(args.output)):
        return f"; the finished work is in {_checkpoint_path(args.output)}: run the same command again to resume"
    return ""


if __name__ == "__main__":
    sys.exit(main())
