"""``map``: a MAP world and, per atom, whether it is true in all, some or no MAP worlds
(one answer per database of a file of several)."""

from __future__ import annotations

__all__ = ["run_map"]

import argparse
import json
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..errors import TimeLimitReached, closest
from ..search.progress import ProgressInfo
from ..startup import PROG
from ..weights import INF, format_weight, weight_number
from .common import UsageError, _display, _focus_options, _query, _source

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    from ..bridge.query import Query
    from ..map.inference import MapAnswer
    from ..map.world import Optimum
    from ..model.ground_mln import GroundMLN


def _check_against_database(args: argparse.Namespace, query: Query, where: Mapping[str, object] | None = None) -> None:
    """A given literal whose atom the database sets the other way: an error naming the
    database (and which of several, ``where``), not just "the hard formulas" (the closed
    world leaves given atoms open)."""
    from ..errors import InconsistentEvidenceError
    from ..logic.syntax import atom_name, compact_atom

    given = {compact_atom(text) for text in args.evidence}
    for e in query.model.evidence:
        name = atom_name(e.pred, e.args)
        if (f"!{name}" if e.value else name) in given:
            line = e.position.line if e.position is not None else None
            which = ", ".join(filter(None, [f"database {where['database']}" if where else "",
                                            f"line {line}" if line else ""]))
            database = f"the database {args.db or query.settings.db or ''}".rstrip() + (f" ({which})" if which else "")
            raise InconsistentEvidenceError(
                f"evidence {'!' if e.value else ''}{name} contradicts {database}, which has {'' if e.value else '!'}{name}")


def run_map(args: argparse.Namespace) -> int:
    """``map``: one answer, or one per database of a file holding several (``---``), in
    order (text: a block each; ``--json``: a JSON document a line)."""
    from ..bridge.database import SeveralDatabasesError

    if args.anytime and args.time_limit is None:
        raise UsageError("--anytime goes with --time-limit SECONDS (the best world found when the limit passes)")
    start = time.monotonic()
    try:
        return _map_one(args, args.db, None)
    except SeveralDatabasesError as several:  # (the model read first: its errors come first)
        databases, sources = several.databases, several.sources
    for number, parts in enumerate(databases, 1):  # (each checked before the first answer is printed)
        _check_against_database(args, _query(args, parts, sources), _where(parts, number))
    display = _display(args)
    for number, parts in enumerate(databases, 1):
        if number > 1 and not args.json:
            print()
        if display is not None:  # (a file of 50 scenes: where it is, and what the rest will take)
            display(ProgressInfo("databases", number - 1, len(databases), None, None, elapsed=time.monotonic() - start))
        _map_one(args, parts, (number, len(databases)), sources)
    if display is not None:
        display.finish(f"answered {len(databases):,} databases")
    return 0


def _map_one(args: argparse.Namespace, db: object, of: tuple[int, int] | None, sources: object = None) -> int:
    """``map`` on one database ``db`` (the ``number``-th of ``count`` in ``of``; None:
    the only one, as given; ``sources``: the model's texts read already)."""
    from ..atoms import predicate_of, split_atom
    from ..logic.syntax import compact_atom
    anytime: Optimum | None = None
    where = _where(db, of[0]) if of is not None else {}
    with args.guard.deadline(args.time_limit):  # (the answer is printed after the limit is switched off)
        query = _query(args, db, sources)
        source = _source(args, query, where)
        if query.closed_preds and (of is None or of[0] == 1):  # (said once)
            print(f"{PROG}: note: the closed world ({', '.join(query.closed_preds)}) applies to map; a theory from "
                  "convert leaves the world open and answers as map --no-cw does", file=sys.stderr)
        wanted = _wanted(args, query)
        given = [split_atom(compact_atom(e).lstrip("!")) for e in args.evidence]  # (the closed world leaves them open)
        with query.inference(args.backend, args.force, given, args.guard) as inference:
            gmln = inference.mln
            evidence = [gmln.literal(text) for text in args.evidence]
            _check_against_database(args, query, where)
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
    counted = _counted(args, query)
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
    if wanted is not None:
        print(f"atoms of {', '.join(wanted)} ({len(shown)} of {gmln.n_atoms}; --query-preds all for every atom)")
    _print_table(answer, shown)
    return 0


def _where(db: object, number: int) -> dict[str, object]:
    """Which of several databases ``db`` is (the ``number``-th, beginning on its line)."""
    from ..bridge.database import DatabaseParts

    return {"database": number, "line": db.start.line} if isinstance(db, DatabaseParts) else {}


def _wanted(args: argparse.Namespace, query: Query) -> list[str] | None:
    """The predicates ``--query-preds`` (or the project) asks about (None: all), each
    checked against the model's."""
    wanted = _focus_options(args, query.settings).get("query_preds")
    if wanted is not None:
        predicates = query.model.predicate_map
        unknown = sorted(set(wanted) - set(predicates))
        if unknown:
            raise UsageError(f"--query-preds: no predicate {', '.join(unknown)} in the model "
                             f"({closest(unknown[0], predicates, 'its predicates')})")
    return wanted


def _counted(args: argparse.Namespace, query: Query) -> str:
    """What the penalty counts, said where a database or a closed world could be in it
    or not ("": neither is there)."""
    held = " and ".join(part for part, present in (("the database", query.model.evidence),
                                                   ("the closed world", query.closed_preds)) if present)
    return ("" if not held else f"{held} included" if args.database_penalty
            else f"given {held}; --database-penalty counts {'them' if ' and ' in held else 'it'} too")


def _print_table(answer: MapAnswer, shown: list[str]) -> None:
    """A line per atom shown: its value in the MAP world, and in how many MAP worlds it is true."""
    width = max([len(name) for name in shown] + [4])
    print(f"{'atom':<{width}}  MAP    true in MAP worlds")
    for name in shown:
        value = answer.entailed.get(name)
        status = "some" if value is None else "all" if value else "none"
        print(f"{name:<{width}}  {'true' if answer.world[name] else 'false':<5}  {status}")


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
