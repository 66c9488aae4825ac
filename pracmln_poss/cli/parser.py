"""The command line's parser: every command, its options and their help."""

from __future__ import annotations

__all__ = ["build_parser"]

import argparse
import os
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from ..errors import closest
from ..formats import FORMATS
from ..logic.syntax import GRAMMARS
from ..map import BACKENDS, DEFAULT_BACKEND
from ..possibilistic.filtering import FILTER_MODES
from ..startup import PROG
from ..stopping import MAX_TIME_LIMIT
from ..version import __version__
from ..weights import DEFAULT_RESOLUTION
from .convert_command import run_convert
from .map_command import run_map
from .sweep_command import run_sweep
from .theory_commands import run_explain, run_query, run_report, run_show, run_verify

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    pass


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
    """The parser of every command (``convert``'s method options added when it parses or
    shows its help: its arguments are built from the options classes)."""
    parser = _Parser(
        prog=PROG,
        description="Read a Markov logic network as the possibilistic logic theory of its MAP inference.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_map(sub)
    _add_convert(sub)
    _add_explain(sub)
    _add_verify(sub)
    _add_show(sub)
    _add_report(sub)
    _add_query(sub)
    _add_sweep(sub)
    return parser


def _add_map(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``map`` command's parser."""
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
    shown = m.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true",
                       help="over a file of several databases: report how far on stderr even when it is not a terminal")
    shown.add_argument("--quiet", action="store_true", help="no progress report, and no notes")
    m.set_defaults(run=run_map)


def _add_convert(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``convert`` command's parser."""
    c = sub.add_parser("convert", help="convert an MLN into a possibilistic logic theory")
    c.later = _convert_arguments
    c.set_defaults(run=run_convert)


def _add_sweep(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``sweep`` command's parser."""
    w = sub.add_parser("sweep", help="the theory of a model across domain sizes, and what changes from size to size")
    w.later = _sweep_arguments
    w.set_defaults(run=run_sweep)


def _add_explain(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``explain`` command's parser."""
    x = sub.add_parser("explain", help="why a query follows from a theory under evidence, or why not")
    _theory_query_options(x)
    x.add_argument("--mln", metavar="MODEL", help="when not entailed, show a MAP world of this MLN instead")
    _model_options(x, _THEORY_LIMITS)
    _closed_world_options(x)
    x.add_argument("--json", action="store_true", help="print JSON")
    x.set_defaults(run=run_explain)


def _add_verify(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``verify`` command's parser."""
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
    v.set_defaults(run=run_verify)


def _add_show(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``show`` command's parser."""
    w = sub.add_parser("show", help="the theory per level as if-then rules, with warnings")
    w.add_argument("theory", metavar="THEORY", help="a theory file (text or JSON format)")
    w.add_argument("--mln", metavar="MODEL", help="flag rules that overturn the literal reading of its formulas")
    _model_options(w, _THEORY_LIMITS)
    w.add_argument("--query-preds", metavar="P,...", help="flag rules concluding about other predicates")
    w.add_argument("--digest", action="store_true",
                   help="one screen instead: what holds with no evidence, what one observation changes, what two "
                   "do that their parts do not, the flagged rules, the rules per level band")
    w.set_defaults(run=run_show)


def _add_report(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``report`` command's parser."""
    r = sub.add_parser("report", help="the theory as one HTML page: its digest, then every rule, browsable")
    r.add_argument("theory", metavar="THEORY", help="a theory file (text or JSON format)")
    r.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE (default: stdout)")
    r.add_argument("--mln", metavar="MODEL", help="mark rules that overturn the literal reading of its formulas")
    _model_options(r, _THEORY_LIMITS)
    r.add_argument("--query-preds", metavar="P,...", help="mark rules concluding about other predicates")
    r.set_defaults(run=run_report)


def _add_query(sub: argparse._SubParsersAction[_Parser]) -> None:
    """The ``query`` command's parser."""
    q = sub.add_parser("query", help="possibilistic inference: is a formula entailed by a theory under evidence")
    _theory_query_options(q)
    q.add_argument("--json", action="store_true", help="print JSON: entailed, consistency_level, drowned")
    q.add_argument("--force", action="store_true",
                   help="read a theory file above 256 MB (as far as the free memory allows) and ground a lifted "
                   "theory even above 10,000,000 groundings")
    q.set_defaults(run=run_query)


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


_THEORY_LIMITS = "; 10,000,000 groundings of a lifted theory; theory files of 256 MB"


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


def _convert_arguments(c: argparse.ArgumentParser) -> None:
    """``convert``'s arguments, added when ``convert`` parses its arguments or shows its
    help: its flags are the transformations' options, and reading them imports the rule
    search (its workers, multiprocessing, the checkpoints), which no other command needs."""
    from ..transformations.conversion import METHODS
    from ..transformations.options import DEFAULT_MAX_FORMULAS, MAX_EVIDENCE_SETS, MAX_LIFTED_EVIDENCE_SETS

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


def _sweep_arguments(w: argparse.ArgumentParser) -> None:
    """``sweep``'s arguments: ``convert``'s, each ``--domain-size`` a range of sizes, and
    where the comparison goes."""
    from ..transformations.conversion import METHODS

    w.add_argument("model", metavar="MODEL", help=_MODEL_HELP)
    _model_options(w, "; those of convert")
    for action in w._actions:
        if action.dest == "domain_size":
            action.metavar = "NAME=SIZES"
            action.help = ("the sizes of a domain, each converted with that many fresh constants (repeatable): "
                           "N, A..B or N1,N2,... (e.g. --domain-size cluster=1..10, --domain-size person=2,8,64,1024); "
                           "domains given several sizes step through them together")
    w.add_argument("--method", choices=METHODS, default=None, help="the transformation (default: lifted)")
    _focus_arguments(w)
    w.add_argument("--filter", choices=FILTER_MODES, default="none", help="redundancy filtering (default: none)")
    w.add_argument("-o", "--output", metavar="OUT", help="write the comparison here (atomically) instead of to stdout")
    w.add_argument("--json", action="store_true", help="the comparison as JSON")
    w.add_argument("--report", metavar="FILE", help="also write it as an HTML page: a table, a plot of the rules "
                   "per size, the defaults and the changes")
    w.add_argument("--theories", metavar="DIR", help="write each size's theory into DIR (as convert writes it alone "
                   "at that size: MODEL.NAMEN.theory)")
    shown = w.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true", help="report progress on stderr even when it is not a terminal")
    shown.add_argument("--quiet", action="store_true", help="no progress report")
    _method_flags(w)


def _method_flags(parser: argparse.ArgumentParser) -> None:
    """``convert``'s flags for the transformations' options, made from their fields (one
    flag an option; absent from the namespace unless given)."""
    from ..transformations.conversion import METHODS, method_flags

    for name, (flag, methods) in method_flags().items():
        shown = flag.help if len(methods) == len(METHODS) else f"{', '.join(methods)}: {flag.help}"
        if flag.type is None:
            parser.add_argument(*flag.names, dest=name, action="store_const", const=None, default=argparse.SUPPRESS,
                                help=shown)
        else:
            parser.add_argument(*flag.names, dest=name, type=flag.type, choices=flag.choices, metavar=flag.metavar,
                                default=argparse.SUPPRESS, help=shown)


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
    from ..sources import STANDARD_INPUT

    given = [name for name in ("model", "mln", "theory", "db", "family") if getattr(args, name, None) in STANDARD_INPUT]
    if len(given) > 1:
        parser.error(f"standard input is read once: give it as one input only, not as {' and '.join(given)}")
