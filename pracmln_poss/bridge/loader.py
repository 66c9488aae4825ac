"""From files to plain data: ``.mln`` (+ ``.db``) -> :class:`~pracmln_poss.model.first_order.FirstOrderMLN`.

A model is read by :mod:`.mln_file` when it keeps to the constructs that reader knows
(those of learned models: it is about a hundred times faster than pracmln's parser),
and otherwise by pracmln (both of its grammars, ``#include``, template variables,
predicate groups), in one call and in time linear in the file; :class:`_LineTracker`
follows the lines pracmln reads, so that every error and every formula carries its
file and line.  pracmln's formulas are translated node by node into our own trees.
Either way, domains are merged with the database's and weights evaluated exactly (no
``eval``) in :func:`_assemble`.
"""

from __future__ import annotations

__all__ = ["LoadedModel", "READERS", "load_model", "load", "from_pracmln", "fresh_constants"]

import bisect
import io
import math
import os
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stderr
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import pracmln_database as pracmln_db
from ..compat import import_pracmln
from ..errors import (
    ArgumentTypeError,
    FormulaSyntaxError,
    ModelError,
    PossError,
    PossWarning,
    ResolutionWarning,
    SourcePosition,
    UnsupportedInputError,
    WeightError,
    closest,
)
from ..logic.formula import (
    And,
    Constant,
    Equals,
    Exists,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    PredAtom,
    Truth,
    Variable,
    walk,
)
from ..logic.syntax import GRAMMARS, check_length, compact_atom, parse_formula, split_atom, strip_comments
from ..model.closed_world import close_as_asked
from ..model.first_order import (
    MAX_DOMAIN_SIZE,
    EvidenceLiteral,
    FirstOrderMLN,
    FormulaTemplate,
    Predicate,
    fresh_constants,
)
from ..pracmln_database import PracmlnDatabase
from ..weights import INF, Resolution
from .database import DatabaseParts, read_database
from .mln_file import ParsedFormula, ParsedModel, read_mln
from .project import ProjectSettings, open_sources
from .request import READERS, Loading, LoadRequest, one_pracmln_database
from .weight_expressions import evaluate_weight


@dataclass(frozen=True)
class LoadedModel:
    """A model as we hold it (``model``) and as pracmln does (``mln``: pracmln's ``MLN``
    when pracmln read the file, else None), with the settings of the project it came
    from (all None for plain files), and the files a plain model's ``#include`` lines
    read (real paths)."""

    mln: Any
    model: FirstOrderMLN
    settings: ProjectSettings = ProjectSettings()
    included: tuple[str, ...] = ()


class _LineTracker:
    """Which line of the model file pracmln is reading, told by the texts it parses.

    pracmln parses a whole model in one call (once per line would be quadratic: each
    call revisits every formula read so far).  It hands each line, or the part of it
    after the weight, or the line without its final ``.``, to its grammar; every such
    text is indexed here by line, so that each parse is placed in O(log n) and every
    formula and error gets its file position.  Lines of ``#include`` files are placed on
    the ``#include`` line.
    """

    def __init__(self, name: str, raw: str, positions: Sequence[SourcePosition] | None = None) -> None:
        self.name = name
        self.positions = positions
        self.raw_lines = raw.split("\n")
        self.lines = [line.strip() for line in strip_comments(raw).split("\n")]
        self.keys: dict[str, list[int]] = {}
        for i, line in enumerate(self.lines):
            if not line:
                continue
            keys = {line, line[:-1].strip() if line.endswith(".") else line}
            space = line.find(" ")
            if space > 0:
                keys.add(line[space:].strip())
            for key in keys:
                self.keys.setdefault(key, []).append(i)
        self.next = 0  # the first line not consumed yet
        self.current: int | None = None  # the line being parsed
        self.include_depth = 0

    def find(self, text: str) -> int | None:
        """The line being parsed when pracmln parses ``text``."""
        if self.include_depth:
            return self.current
        found = self.keys.get(str(text).strip())
        if found:
            i = bisect.bisect_left(found, self.next)
            if i < len(found):
                self.current = found[i]
        return self.current

    def consumed(self, line: int | None) -> None:
        if line is not None and not self.include_depth:
            self.next = max(self.next, line + 1)

    def enter_include(self) -> None:
        if not self.include_depth:
            for i in range(self.next, len(self.lines)):
                if self.lines[i].startswith("#include"):
                    self.current = i
                    break
        self.include_depth += 1

    def leave_include(self) -> None:
        self.include_depth -= 1
        if not self.include_depth:
            self.consumed(self.current)

    def position(self, line: int | None = None) -> SourcePosition:
        line = self.current if line is None else line
        if line is None:
            return SourcePosition(self.name)
        if self.positions is not None:
            return self.positions[line]
        return SourcePosition(self.name, line + 1, self.raw_lines[line])


@contextmanager
def _tracking(
    mln: Any, base: Any, tracker: _LineTracker
) -> Iterator[tuple[Any, list[SourcePosition], dict[str, SourcePosition]]]:
    """Instrument one pracmln ``MLN`` (and its module's recursive ``parse_mln``, for
    ``#include``) to record each formula's and predicate's position while it parses;
    yields pracmln's own ``parse_mln`` for the outer call."""
    logic = mln.logic
    formula_pos: list[SourcePosition] = []
    pred_pos: dict[str, SourcePosition] = {}
    parse_domain, parse_predicate, parse_formula = logic.parse_domain, logic.parse_predicate, logic.parse_formula
    add_formula, recurse = mln.formula, base.parse_mln

    def domain(line: str) -> Any:
        at = tracker.find(line)
        result = parse_domain(line)
        if result is not None:
            tracker.consumed(at)
            result = (result[0], _integer_range(list(result[1]), tracker.position(at)))
        return result

    def predicate(line: str) -> Any:
        at = tracker.find(line)
        result = parse_predicate(line)
        pred_pos.setdefault(str(result[0]), tracker.position(at))
        tracker.consumed(at)
        return result

    def formula_text(text: str) -> Any:
        at = tracker.find(text)
        check_length(text, tracker.position(at))  # (pracmln's parser would take minutes, and gigabytes)
        try:
            return parse_formula(text)
        finally:
            tracker.consumed(at)

    def formula(f: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(f, int):
            formula_pos.append(tracker.position())
        return add_formula(f, *args, **kwargs)

    def include(*args: Any, **kwargs: Any) -> Any:
        tracker.enter_include()
        try:
            return recurse(*args, **kwargs)
        finally:
            tracker.leave_include()

    logic.parse_domain, logic.parse_predicate, logic.parse_formula = domain, predicate, formula_text
    mln.formula = formula
    base.parse_mln = include
    try:
        yield recurse, formula_pos, pred_pos
    finally:
        base.parse_mln = recurse
        for attr in ("parse_domain", "parse_predicate", "parse_formula"):
            del logic.__dict__[attr]
        del mln.__dict__["formula"]


def load_model(
    mln_path: str | os.PathLike[str],
    db_path: object = None,
    *,
    grammar: str | None = None,
    resolution: Resolution | str | float | None = None,
    domains: Mapping[str, Sequence[str]] | None = None,
    domain_sizes: Mapping[str, int] | None = None,
    reader: str = "auto",
    cw: bool | None = False,
    cw_preds: Sequence[str] | None = (),
    force: bool = False,
) -> LoadedModel:
    """Load an ``.mln`` file (and optionally a ``.db``); either may be a pracmln project
    (``X.pracmln``: the model and database its ``query.conf`` names) or a file in one
    (``X.pracmln:NAME.mln``, ``X.pracmln:NAME.db``); the database may also be pracmln's
    ``Database`` (or the list of one that ``Database.load`` returns).  The parameters are
    those of :class:`~.request.LoadRequest` and :class:`~.request.Loading` (checked once,
    here: :func:`load` reads the request).

    :param reader: ``native`` reads the file with :mod:`.mln_file` (fast, the constructs
        of learned models), ``pracmln`` with pracmln's parser (everything pracmln reads);
        ``auto`` (the default) tries the first and falls back to the second.
        ``LoadedModel.mln`` is pracmln's ``MLN`` only from the ``pracmln`` reader.
    :raises PossError: with file, line and text for anything we cannot read.
    """
    loading = Loading.of({"grammar": grammar, "resolution": resolution, "domains": domains,
                          "domain_sizes": domain_sizes, "reader": reader})
    return load(LoadRequest.of(mln_path, db_path, loading, cw=cw, cw_preds=cw_preds, force=force))


def load(request: LoadRequest) -> LoadedModel:
    """The model (and database) of ``request``, read the way it says, the closed world
    applied as it asks.

    :raises PossError: with file, line and text for anything we cannot read.
    """
    loading = request.loading
    sources = request.sources if request.sources is not None else open_sources(request.model, request.db)
    grammar = loading.grammar or sources.settings.grammar or "StandardGrammar"
    if grammar not in GRAMMARS:
        raise ModelError(f"unknown grammar {grammar!r}; valid: {', '.join(GRAMMARS)}")
    name, raw, positions = sources.model_name, sources.model_text, sources.model_positions
    for i, line in enumerate(strip_comments(raw).split("\n")):
        if line.strip().startswith("#fuzzy"):
            raise UnsupportedInputError(
                "fuzzy predicates are not supported (MAP over Boolean worlds only)",
                positions[i] if positions is not None else SourcePosition(name, i + 1, raw.split("\n")[i]),
            )
    parsed = read_mln(raw, name, grammar, positions) if loading.reader != "pracmln" else None
    mln = None
    if parsed is None:
        if loading.reader == "native":
            raise UnsupportedInputError(
                "this model uses constructs the native reader leaves to pracmln (reader='pracmln')",
                SourcePosition(name),
            )
        mln, parsed = _parse_with_pracmln(raw, name, grammar, Path(request.model), positions)
    db_domains: list[tuple[str, tuple[str, ...], SourcePosition]] = []
    evidence: list[EvidenceLiteral] = []
    if request.parts is not None:  # (one database of a file holding several, read already)
        db_domains, evidence = list(request.parts.domains), list(request.parts.evidence)
    elif sources.db_name is not None:
        db_domains, evidence = read_database(sources.db_name, grammar, text=sources.db_text, sources=sources)
    elif request.database is not None:
        db_domains, evidence = _database_parts(request.database)
    if loading.ignore_unknown_preds or sources.settings.ignore_unknown_preds:
        declared = {p.name for p in parsed.predicates}
        evidence = [e for e in evidence if e.pred in declared]
    model = _assemble(
        parsed, loading, source=name, extra_domains=db_domains, evidence=evidence,
        expand=_template_expander(mln) if mln is not None else None, prac=grammar == "PRACGrammar",
    )
    settings = sources.settings
    closed, _ = close_as_asked(model, request.cw, request.cw_preds, settings.cw, settings.cw_preds,
                               settings.queries or (), force=request.force)
    return LoadedModel(mln, closed, settings, sources.included)


def _parse_with_pracmln(raw: str, name: str, grammar: str, path: Path,
                        positions: Sequence[SourcePosition] | None = None) -> tuple[Any, ParsedModel]:
    """pracmln's ``MLN`` of the file, and the file as plain data."""
    pracmln = import_pracmln()
    import pracmln.mln.base as base

    tracker = _LineTracker(name, raw, positions)
    mln = pracmln.MLN(logic="FirstOrderLogic", grammar=grammar)
    text = "\n".join(tracker.lines)
    try:
        with _tracking(mln, base, tracker) as (parse_mln, formula_pos, pred_pos):
            if text.strip():
                with redirect_stderr(io.StringIO()):  # pracmln prints tracebacks of its own
                    parse_mln(text, searchpaths=[str(path.parent or ".")], logic="FirstOrderLogic",
                              grammar=grammar, mln=mln)
    except PossError:
        raise
    except Exception as exc:  # pracmln raises bare Exceptions of many kinds
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if len(detail) > 160:
            detail = detail[:150] + "..."
        pos = tracker.position()
        if "undefined" in detail.lower():  # e.g. "Predicate q is undefined."
            raise ModelError(detail, pos) from None
        reason = _unparsable(pos.text if pos is not None else None, grammar)
        if reason is not None:
            raise FormulaSyntaxError(f"{reason} (pracmln: {detail})", pos) from None
        raise FormulaSyntaxError(f"pracmln cannot parse this line: {detail}", pos) from None
    return mln, _parsed_from_pracmln(mln, formula_pos, pred_pos)


def _integer_range(constants: list[str], pos: SourcePosition) -> list[str]:
    """A domain's constants with Alchemy's and LoMRF's integer range ``{0,...,10}``
    written out (``0``, ``1``, ..., ``10``: pracmln would read ``...`` as a constant).

    :raises ModelError: for ``...`` anywhere else, or a range of more than
        :data:`~pracmln_poss.model.first_order.MAX_DOMAIN_SIZE` constants.
    """
    if "..." not in constants:
        return constants
    out: list[str] = []
    for i, c in enumerate(constants):
        if c != "...":
            out.append(c)
            continue
        before, after = (constants[i - 1] if i else ""), (constants[i + 1] if i + 1 < len(constants) else "")
        if not (re.fullmatch(r"-?\d+", before) and re.fullmatch(r"-?\d+", after) and int(before) < int(after)):
            raise ModelError("'...' in a domain stands for the integers between two others ({0,...,10}); "
                             f"here it comes between {before or 'nothing'!r} and {after or 'nothing'!r}", pos)
        if int(after) - int(before) > MAX_DOMAIN_SIZE:
            raise ModelError(f"the range {before},...,{after} has more than {MAX_DOMAIN_SIZE:,} constants", pos)
        out.extend(str(n) for n in range(int(before) + 1, int(after)))
    return list(dict.fromkeys(out))


def _unparsable(line: str | None, grammar: str) -> str | None:
    """Why pracmln cannot parse ``line``, where we can tell better than its message: a
    parenthesis left open or closed twice, or a formula without a weight (Alchemy's
    style, which pracmln does not read)."""
    if not line:
        return None
    text = line.split("//", 1)[0].strip()
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return "a ')' closes no '(' on this line"
    if depth > 0:
        return f"{depth} '(' not closed on this line"
    if text and not _NUMBER.match(text.split(None, 1)[0]) and not text.endswith(".") and "=" not in text.split("(")[0]:
        try:
            parse_formula(text, grammar)
        except PossError:
            return None
        if re.search(r"[=!^v]|<=>|=>", text.replace("!=", "")) or " " in text:
            return (f"a formula needs a weight before it ('1.5 {text}'), or a period after it for a hard one "
                    f"('{text}.'): pracmln reads no formula without one (Alchemy does)")
    return None


def _parsed_from_pracmln(
    mln: Any, formula_positions: Sequence[SourcePosition] = (), predicate_positions: Mapping[str, SourcePosition] | None = None
) -> ParsedModel:
    import_pracmln()
    from pracmln.mln.mlnpreds import FunctionalPredicate, FuzzyPredicate, SoftFunctionalPredicate

    pred_pos = predicate_positions or {}
    out = ParsedModel(domains={d: list(cs) for d, cs in mln.domains.items()},
                      variables=dict(getattr(mln, "vars", {}) or {}))
    for p in mln.predicates:
        pos = pred_pos.get(p.name)
        if isinstance(p, FuzzyPredicate) or p.name in getattr(mln, "fuzzypreds", ()):
            raise UnsupportedInputError(f"fuzzy predicate {p.name} is not supported", pos)
        functional = p.mutex if isinstance(p, FunctionalPredicate) else None
        soft = isinstance(p, SoftFunctionalPredicate)
        out.predicates.append(Predicate(p.name, tuple(p.argdoms), functional, soft, pos))
    translate = _Translator(mln)
    for i, (f, weight) in enumerate(zip(mln.formulas, mln.weights)):
        # (an MLN built in Python has no file: the formula's number and text say which it is)
        pos = (formula_positions[i] if i < len(formula_positions)
               else SourcePosition(f"pracmln MLN, formula {i + 1}", None, _formula_text(f)))
        # template formulas stay pracmln objects until the domains are known
        tree = f if f.template_variables() else translate(f, pos)
        out.formulas.append(ParsedFormula(tree, weight, _formula_text(f), pos))
    return out


def _template_expander(mln: Any) -> Callable[[ParsedFormula, Mapping[str, Sequence[str]]], list[ParsedFormula]]:
    """Expands pracmln template formulas (``+x``) over the final domains."""
    translate = _Translator(mln)

    def expand(item: ParsedFormula, domains: Mapping[str, Sequence[str]]) -> list[ParsedFormula]:
        if not hasattr(item.formula, "template_variants"):
            return [item]
        mln.domains.update({d: list(cs) for d, cs in domains.items()})
        return [
            ParsedFormula(translate(v, item.position), item.weight, _formula_text(v), item.position)
            for v in item.formula.template_variants()
        ]

    return expand


def from_pracmln(
    mln: Any,
    db: PracmlnDatabase | DatabaseParts | None = None,
    loading: Loading | None = None,
    *,
    source: str | None = None,
) -> FirstOrderMLN:
    """Translate a pracmln ``MLN`` (and optionally a pracmln ``Database``, or one database
    of a file of several, :class:`~.database.DatabaseParts`) to a
    :class:`~pracmln_poss.model.first_order.FirstOrderMLN`, its domains and weights as
    ``loading`` says (its grammar and reader are pracmln's own: not read)."""
    parsed = _parsed_from_pracmln(mln)
    extra: list[tuple[str, tuple[str, ...], SourcePosition]] = []
    evidence: list[EvidenceLiteral] = []
    if isinstance(db, DatabaseParts):
        extra, evidence = list(db.domains), list(db.evidence)
    elif db is not None:
        extra, evidence = _database_parts(db)
    prac = type(getattr(getattr(mln, "logic", None), "grammar", None)).__name__ == "PRACGrammar"
    return _assemble(parsed, loading if loading is not None else Loading(), source=source, extra_domains=extra, evidence=evidence,
                     expand=_template_expander(mln), prac=prac)


def _assemble(
    parsed: ParsedModel,
    loading: Loading,
    *,
    source: str | None,
    extra_domains: Sequence[tuple[str, tuple[str, ...], SourcePosition]],
    evidence: Sequence[EvidenceLiteral],
    expand: Callable[[ParsedFormula, Mapping[str, Sequence[str]]], list[ParsedFormula]] | None,
    prac: bool = False,
) -> FirstOrderMLN:
    """The model with its domains merged (the model's, then those of the database, then
    the constants its evidence uses, then the caller's replacements) and its weights
    evaluated exactly."""
    res = loading.resolution
    merged = _merged_domains(parsed, loading, extra_domains, evidence)

    templates: list[FormulaTemplate] = []
    weights: dict[str, int | float] = {}  # learned models repeat weight expressions
    values: dict[int | float, float] = {}  # steps -> the first weight that became them
    merges: list[tuple[float, float]] = []
    for item in parsed.formulas:
        key = item.weight if isinstance(item.weight, str) else None
        w = weights.get(key) if key is not None else None
        if w is None:
            value = _weight_value(item.weight, parsed.variables, merged, item.position)
            w = INF if value is None else res.to_int(value, what=f"weight {item.weight} of {item.text}")
            if value is not None and values.setdefault(w, value) != value:
                merges.append((values[w], value))
            if key is not None:
                weights[key] = w
        for variant in expand(item, merged) if expand is not None else [item]:
            templates.append(FormulaTemplate(variant.formula, w, variant.text, variant.position))
    if prac:
        _warn_variables_read_as_constants(parsed, evidence, source)
    if merges:
        a, b = merges[0]
        warnings.warn(ResolutionWarning(
            f"{source or 'the model'}: at resolution {res}, {len(merges)} distinct weight(s) become equal to "
            f"others (e.g. {a!r} and {b!r}); MAP answers may differ from the model's: use a finer resolution"
        ), stacklevel=2)
    return FirstOrderMLN(
        predicates=tuple(parsed.predicates),
        domains=tuple((d, tuple(cs)) for d, cs in merged.items()),
        formulas=tuple(templates),
        evidence=tuple(evidence),
        resolution=res,
        source=source,
    )


def _merged_domains(parsed: ParsedModel, loading: Loading,
                    extra_domains: Sequence[tuple[str, tuple[str, ...], SourcePosition]],
                    evidence: Sequence[EvidenceLiteral]) -> dict[str, list[str]]:
    """The domains merged: the model's, then those of the database, then the constants
    its evidence uses, then the caller's replacements (``loading``)."""
    by_name = {p.name: p for p in parsed.predicates}
    merged: dict[str, list[str]] = {d: list(cs) for d, cs in parsed.domains.items()}
    known = sorted(set(merged) | {d for p in parsed.predicates for d in p.domains})

    def check_domain(dom: str, what: str, pos: SourcePosition | None = None) -> None:
        if dom not in known:
            raise ModelError(f"{what} {dom!r} is not a domain of the model; its domains: {', '.join(known)}", pos)

    # constants in order of first appearance, each once (a dict per domain: linear)
    members: dict[str, dict[str, None]] = {d: dict.fromkeys(cs) for d, cs in merged.items()}
    for dom, consts, pos in extra_domains:
        check_domain(dom, "the database declares domain", pos)
        members.setdefault(dom, {}).update(dict.fromkeys(consts))
    for ev in evidence:
        p = by_name.get(ev.pred)
        if p is None:
            hint = closest(ev.pred, by_name, "the model's predicates")
            raise ModelError(f"evidence on undeclared predicate {ev.pred!r}; {hint} (--ignore-unknown-preds leaves "
                             "out the literals of predicates the model does not declare)", ev.position)
        if len(p.domains) != len(ev.args):
            raise ModelError(f"{ev.pred} takes {len(p.domains)} argument(s), given {len(ev.args)}", ev.position)
        for domain_name, c in zip(p.domains, ev.args):
            members.setdefault(domain_name, {})[c] = None
    merged = {d: list(cs) for d, cs in members.items()}
    for dom, given in (loading.domains or {}).items():
        check_domain(dom, "domain")
        for c in given:
            if not _CONSTANT.match(c):
                raise ModelError(f"{c!r} is not a valid constant (letters, digits and _-'.:;$~/ only) for domain {dom}")
        merged[dom] = list(dict.fromkeys(given))
    for dom, size in (loading.domain_sizes or {}).items():
        check_domain(dom, "domain")
        merged[dom] = fresh_constants(dom, size, merged)
    return merged


def _warn_variables_read_as_constants(parsed: ParsedModel, evidence: Sequence[EvidenceLiteral],
                                     source: str | None) -> None:
    """One line when a model read in pracmln's PRAC grammar (variables start with ``?``)
    has one-letter lower-case constants that only its formulas name: ``x`` and ``y`` in
    ``Friends(x,y)`` were meant as variables (pracmln's ``MLN.load`` takes that grammar
    unless told; a project's query.conf usually says StandardGrammar)."""
    named = {c for ev in evidence for c in ev.args}
    found: dict[str, None] = {}
    for item in parsed.formulas:
        if not isinstance(item.formula, Formula):  # (a template: pracmln's own, expanded later)
            continue
        for node in walk(item.formula):
            if isinstance(node, PredAtom):
                for arg in node.args:
                    if isinstance(arg, Constant) and len(arg.name) == 1 and arg.name.islower() \
                            and arg.name not in named:
                        found[arg.name] = None
    if found:
        shown = ", ".join(sorted(found))
        warnings.warn(PossWarning(
            f"{source or 'the model'}: read in PRACGrammar, where variables start with '?', its formulas name "
            f"constants {shown} that nothing else does: if they are variables, load it with "
            "grammar='StandardGrammar' (MLN.load(..., grammar='StandardGrammar'))"), stacklevel=3)


_CONSTANT = re.compile(r"^[A-Za-z0-9_'\-.:;$~\\/ÄÖÜäöü]+$")


def _formula_text(f: Any) -> str:
    try:
        return str(f.cstr(False))
    except Exception:  # pracmln's printer needs an attached MLN; fall back to str()
        return str(f)


_NUMBER = re.compile(r"^[ \t]*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[ \t]*$")  # ASCII blanks: float() refuses others


def _weight_value(
    weight: object,
    variables: Mapping[str, str],
    domains: Mapping[str, Sequence[str]],
    pos: SourcePosition | None,
) -> float | None:
    """A formula's weight as a finite number, or None for a hard formula."""
    if isinstance(weight, (int, float)) and not isinstance(weight, bool):
        value = float(weight)  # (a reader's own value: INF marks a hard formula)
        return None if value == INF else value
    if isinstance(weight, str) and _NUMBER.match(weight):
        value = float(weight)  # what evaluating the literal gives, without the parser
    else:
        def size(dom: str) -> int:
            if dom not in domains:
                raise ModelError(f"domSize({dom}): no such domain", pos)
            return len(domains[dom])

        value = evaluate_weight(str(weight), variables, size, pos)
    if not math.isfinite(value):  # (a hard formula is written with a final '.', not a huge weight)
        shown = weight if len(str(weight)) <= 40 else f"{str(weight)[:20]}...({len(str(weight))} characters)"
        raise WeightError(f"weight {shown!r} is not a finite number", pos)
    return value


def pracmln_database_of(mln: Any, db: object) -> PracmlnDatabase | None:
    """One pracmln ``Database`` of ``mln`` (or None) from what a caller may pass as ``db``:
    a ``Database``, the list of one ``Database.load`` returns, or a ``.db`` file's name.

    :raises ArgumentTypeError: for anything else.
    """
    if isinstance(db, (str, os.PathLike)):
        # read by us first: a line pracmln cannot parse makes it print a traceback and fail
        # on its own error message (AttributeError), ours names the file, line and text
        read_database(os.fspath(db), type(mln.logic.grammar).__name__)
        db = import_pracmln().Database.load(mln, os.fspath(db))  # (pracmln's Database, or a list of them)
    database = one_pracmln_database(db)
    if db is not None and database is None:
        raise ArgumentTypeError(f"db takes a pracmln Database, a list of one or a .db file's name, "
                                f"not {type(db).__name__}")
    return database


def _database_parts(db: PracmlnDatabase) -> tuple[list[tuple[str, tuple[str, ...], SourcePosition]], list[EvidenceLiteral]]:
    """A pracmln ``Database``'s domains and evidence, as a ``.db`` file's are read."""
    import_pracmln()
    where = SourcePosition("<pracmln Database>")
    evidence = []
    for literal in pracmln_db.database_literals(db):
        pred, args = split_atom(compact_atom(literal.removeprefix("!")))
        evidence.append(EvidenceLiteral(pred, args, not literal.startswith("!")))
    return [(d, tuple(cs), where) for d, cs in db.domains.items()], evidence


class _Translator:
    """pracmln formula objects as our formula trees, for one pracmln ``MLN``.

    Variables are left untyped: grounding types them by the argument positions they
    fill (:func:`~pracmln_poss.model.grounding.infer_variable_domains`), as pracmln does.
    """

    def __init__(self, mln: Any) -> None:
        self.prednames = frozenset(mln.prednames)  # pracmln rebuilds this list per access
        isvar = mln.logic.isvar
        self.terms: dict[str, Variable | Constant] = {}

        def term(arg: str) -> Variable | Constant:
            found = self.terms.get(arg)
            if found is None:
                found = self.terms[arg] = Variable(arg, None) if isvar(arg) else Constant(arg)
            return found

        self.term = term

    def __call__(self, f: Any, pos: SourcePosition | None) -> Formula:
        prednames, term = self.prednames, self.term

        def go(g: Any) -> Formula:
            kind = type(g).__name__
            if kind in ("Lit", "GroundLit"):
                if kind == "GroundLit":
                    atom = PredAtom(g.gndatom.predname, tuple(Constant(a) for a in g.gndatom.args))
                else:
                    if g.predname not in prednames:
                        raise ModelError(f"predicate {g.predname!r} is not declared", pos)
                    atom = PredAtom(g.predname, tuple(term(a) for a in g.args))
                return Not(atom) if g.negated else atom
            if kind == "Conjunction":
                return And(tuple(go(c) for c in g.children))
            if kind == "Disjunction":
                return Or(tuple(go(c) for c in g.children))
            if kind == "Negation":
                return Not(go(g.children[0]))
            if kind == "Implication":
                return Implies(go(g.children[0]), go(g.children[1]))
            if kind == "Biimplication":
                return Iff(go(g.children[0]), go(g.children[1]))
            if kind == "Exist":
                body = go(g.formula if hasattr(g, "formula") else g.children[0])
                return Exists(tuple(Variable(v, None) for v in g.vars), body)
            if kind == "Equality":
                eq = Equals(term(g.args[0]), term(g.args[1]))
                return Not(eq) if g.negated else eq
            if kind == "TrueFalse":
                return Truth(bool(g.value))
            raise UnsupportedInputError(f"unsupported pracmln construct {kind} in {_formula_text(g)!r}", pos)

        return go(f)
