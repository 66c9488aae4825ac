"""The commands on a theory: ``query``, ``explain``, ``verify``, ``show``, ``report``."""

from __future__ import annotations

__all__ = ["run_query", "run_explain", "run_verify", "run_show", "run_report"]

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..errors import PossError, SourcePosition
from ..startup import PROG
from ..weights import weight_number
from .common import UsageError, _archive, _display, _emit, _focus_options, _kept, _load, _Made, _query

if TYPE_CHECKING:  # the commands import what they use when they run (start-up time)
    from ..formats.questions import Question
    from ..insight.show import Flag as RuleFlag
    from ..insight.verify import Counterexample
    from ..map.inference import MapInference
    from ..possibilistic.protocol import Theory
    from ..possibilistic.theory import PossibilisticFormula


def _formula_json(pf: PossibilisticFormula, theory: Theory) -> dict[str, object]:
    item: dict[str, object] = {"formula": theory.format(pf.formula), "level": weight_number(pf.steps, theory.resolution)}
    if pf.origin:
        item["origin"] = pf.origin
    return item


def _questions(args: argparse.Namespace) -> list[Question]:
    """The questions of the command: ``--questions FILE``, or the one ``--query`` with
    its ``--evidence``."""
    from ..formats.questions import Question, read_questions

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
            raise exc.at(question.position or exc.position or SourcePosition(args.theory)) from None


def _on_theory(args: argparse.Namespace, make: Callable[[], _Made]) -> _Made:
    """``make()`` (what answers questions on the theory file, or an answer), its errors
    naming the file where they name no place of their own."""
    try:
        return make()
    except PossError as exc:
        raise exc.at(exc.position or SourcePosition(args.theory)) from None


def _answers(args: argparse.Namespace, theory: Theory, questions: Sequence[Question],
             answer: Callable[[Question], tuple[dict[str, object], str]]) -> int:
    """Answer each question in order: one at a time as before, or a file's worth (text
    blocks apart by a blank line; with ``--json``, one object per line, evidence that
    contradicts the certain rules answered as ``"inconsistent"``)."""
    from ..errors import InconsistentEvidenceError
    from ..formats import write_stdout

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


def run_explain(args: argparse.Namespace) -> int:
    """``explain``: why each question is answered as it is (its rules, or a countermodel)."""
    from contextlib import ExitStack

    from ..formats import load_theory
    from ..insight.explain import COUNTERMODEL, MAP_COUNTERMODEL, Explainer, map_countermodel

    questions = _questions(args)
    # (a lifted theory is asked on its rules' ground clauses, not grounded as formulas)
    with ExitStack() as stack:
        explainer = stack.enter_context(_on_theory(args, lambda: Explainer(
            _kept(args, load_theory(args.theory, ground=False, force=args.force)), force=args.force, guard=args.guard)))
        theory = explainer.theory
        opened: list[MapInference] = []  # (the MLN's MAP, opened for the first question not entailed)

        def answer(question: Question) -> tuple[dict[str, object], str]:
            why = explainer.explain(question.evidence, question.query)
            world, world_kind = why.countermodel_world(), COUNTERMODEL
            if not why.entailed and args.mln:
                if not opened:
                    opened.append(stack.enter_context(_query(_as_converted(args, theory)).inference(
                        force=args.force, guard=args.guard)))
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


def run_verify(args: argparse.Namespace) -> int:
    """``verify``: the theory against exact MAP inference, pair by pair (status 1 at the
    first disagreement)."""
    from ..formats import load_theory
    from ..insight.verify import COUNT_LIMIT, verify

    # (k and the sample are checked by verify itself, as transform checks k: one check, one error)
    from ..model.grounding import ground as ground_model
    from ..search.focus import Focus

    theory = _kept(args, load_theory(args.theory, force=args.force))
    args = _as_converted(args, theory)
    loaded = _load(args)
    gmln = _kept(args, ground_model(loaded.model, force=args.force))
    focus_names = _focus_options(args, loaded.settings)
    focus = Focus.of_predicates(gmln, focus_names.get("evidence_preds"), focus_names.get("query_preds"))
    made_for = _made_for(args, theory)
    display = _display(args)
    result = verify(theory, gmln, args.k, sample=args.sample, seed=args.seed, focus=focus, backend=args.backend,
                    progress=display, guard=args.guard)
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
        _print_counterexample(result.counterexample, made_for)
    return 0 if result.ok else 1


def _print_counterexample(c: Counterexample, made_for: int | None) -> None:
    """The pair the theory and the MLN disagree on (and whether it is past the k the
    theory was made for)."""
    print("counterexample:")
    print(f"  evidence: {', '.join(c.evidence) or 'none'}")
    print(f"  conclusion: {' v '.join(c.conclusion)}")
    print(f"  MLN (MAP): {'entailed' if c.map_entails else 'not entailed'}")
    print(f"  theory (poss): {'entailed' if c.theory_entails else 'not entailed'}")
    if made_for is not None and len(c.evidence) + len(c.conclusion) > made_for + 1:
        print(f"  (|E| + |C| = {len(c.evidence) + len(c.conclusion)}: beyond the k = {made_for} the theory was made for)")


def _made_for(args: argparse.Namespace, theory: Theory) -> int | None:
    """The k the theory was made for (its made-by line's), said on stderr when ``verify``
    checks beyond it."""
    from ..formats.sections import made_k

    made_for = made_k(theory.made_by)
    if made_for is not None and args.k > made_for and not args.quiet:
        print(f"{PROG}: the theory was made for k = {made_for} (its made-by line): it answers exactly the questions "
              f"with |E| + |C| <= {made_for + 1}; -k {args.k} checks larger ones too, where it need not agree",
              file=sys.stderr)
    return made_for


def _as_converted(args: argparse.Namespace, theory: Theory) -> argparse.Namespace:
    """``args`` with the domains and database the theory was converted with (its made-by
    line's ``--domain``, ``--domain-size`` and ``--db``), when the command gives the MLN
    none of its own: the MLN over the theory's atoms, as a user means it."""
    if args.domain or args.domain_size or args.db or not theory.made_by:
        return args
    import copy
    import shlex

    from ..formats.sections import made_options, made_words

    model = made_words(theory.made_by)[2:3] if theory.made_by.startswith(f"{PROG} convert ") else []
    if not model or not _same_file(model[0], args.mln):  # (another model: its own domains)
        return args
    given = {flag: made_options(theory.made_by, flag) for flag in ("--domain", "--domain-size", "--db")}
    if not any(given.values()):
        return args
    out = copy.copy(args)
    out.domain, out.domain_size = given["--domain"], given["--domain-size"]
    out.db = given["--db"][-1] if given["--db"] else None
    if not getattr(args, "quiet", False):
        shown = " ".join(f"{flag} {shlex.quote(v)}" for flag, values in given.items() for v in values)
        print(f"{PROG}: the MLN over the domains the theory was converted with (its made-by line): {shown}",
              file=sys.stderr)
    return out


def _same_file(one: str, other: str) -> bool:
    """Whether two model arguments name one file (a project's member: the same member)."""
    if one == other:
        return True
    try:
        same = os.path.samefile(_archive(one), _archive(other))
    except (OSError, ValueError):
        return False
    return same and one.partition(".pracmln:")[2] == other.partition(".pracmln:")[2]


def _flags(args: argparse.Namespace, theory: Theory) -> list[RuleFlag]:
    """The warnings ``--mln`` and ``--query-preds`` ask for, on the theory's own rules."""
    from ..insight.show import lifted_flags, off_target_rules, overturned_readings

    flags: list[RuleFlag] = []
    if args.mln or args.query_preds:
        # warnings are found on the grounding (made only for them); a lifted theory shows them on its rules
        ground, sources = theory.ground_with_sources(args.force)
        if args.mln:
            from ..model.grounding import ground as ground_model

            model = _query(_as_converted(args, theory)).closed_model
            flags.extend(overturned_readings(ground, ground_model(model, force=args.force), args.guard))
        if args.query_preds:
            flags.extend(off_target_rules(ground, [p.strip() for p in args.query_preds.split(",") if p.strip()]))
        flags = lifted_flags(flags, ground, sources, theory)
    return flags


def run_show(args: argparse.Namespace) -> int:
    """``show``: the theory level by level, with its warnings (or its digest)."""
    from ..formats import load_theory, write_stdout
    from ..insight.show import show_text

    theory = _kept(args, load_theory(args.theory, ground=False, force=args.force))
    flags = _flags(args, theory)
    if args.digest:
        from ..insight.digest import digest_text

        write_stdout(digest_text(theory, flags))
        return 0
    write_stdout(show_text(theory, flags))
    return 0


def run_report(args: argparse.Namespace) -> int:
    """``report``: the theory as one self-contained HTML page."""
    from ..formats import load_theory
    from ..insight.report import report_html

    output = None
    if args.output is not None:
        from ..formats import check_writable

        inputs = [("the theory", args.theory)] + [(what, _archive(path)) for what, path in
                                                   (("the model", args.mln), ("the database", args.db)) if path]
        output = check_writable(args.output, inputs)
    theory = _kept(args, load_theory(args.theory, ground=False, force=args.force))
    page = report_html(theory, _flags(args, theory), title=os.path.basename(args.theory))
    return _emit(page, output)


def run_query(args: argparse.Namespace) -> int:
    """``query``: whether the theory entails each question, at which level, what drowned."""
    from ..formats import load_theory
    from ..possibilistic.reasoner import Reasoner

    questions = _questions(args)
    # (a lifted theory is answered on its rules' ground clauses, not grounded as formulas)
    theory = _kept(args, load_theory(args.theory, ground=False, force=args.force))
    with _on_theory(args, lambda: Reasoner(theory, force=args.force, guard=args.guard)) as reasoner:

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
