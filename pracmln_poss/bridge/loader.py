"""From pracmln to plain data: ``.mln`` (+ ``.db``) -> pracmln ``MLN`` -> :class:`FirstOrderMLN`.

pracmln parses the model (both of its grammars, ``#include``, template variables,
predicate groups); we feed it one declaration at a time so that every error and
every formula carries its file and line.  Formulas are then translated node by node
into our own trees, and weights evaluated exactly (no ``eval``).
"""

from __future__ import annotations

__all__ = ["LoadedModel", "load_model", "from_pracmln"]

import io
from contextlib import redirect_stderr
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import (
    FormulaSyntaxError,
    ModelError,
    PossError,
    SourcePosition,
    UnsupportedInputError,
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
)
from ..logic.syntax import GRAMMARS
from ..model import EvidenceLiteral, FirstOrderMLN, FormulaTemplate, Predicate
from ..weights import INF, Resolution
from .compat import import_pracmln
from ..logic.syntax import strip_comments
from .database import read_database
from .weights import evaluate_weight


@dataclass(frozen=True)
class LoadedModel:
    """A model as pracmln holds it (``mln``) and as we do (``model``)."""

    mln: Any
    model: FirstOrderMLN


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split a model into pieces pracmln can parse alone, each with its first line number.

    ``#fixweight``/``#unique`` go with the line they modify, ``#group`` blocks stay whole.
    """
    out: list[tuple[int, str]] = []
    pending: list[str] = []
    start = 0
    in_group = False
    for number, line in enumerate(strip_comments(text).splitlines(), 1):
        s = line.strip()
        if not s:
            continue
        if not pending:
            start = number
        pending.append(s)
        if s == "#group" or (s.startswith("//") and "<group>" in s):
            in_group = True
            continue
        if s == "#group.":
            in_group = False
        if in_group or s.startswith("#fixweight") or s.startswith("#unique"):
            continue
        out.append((start, "\n".join(pending)))
        pending = []
    if pending:
        out.append((start, "\n".join(pending)))
    return out


def load_model(
    mln_path: str | Path,
    db_path: str | Path | None = None,
    *,
    grammar: str = "StandardGrammar",
    resolution: Resolution | None = None,
    domains: Mapping[str, Sequence[str]] | None = None,
) -> LoadedModel:
    """Load an ``.mln`` file (and optionally a ``.db``) through pracmln.

    :param domains: domains that replace those of the files (``{"person": ["A", "B"]}``).
    :raises PossError: with file, line and text for anything we cannot read.
    """
    if grammar not in GRAMMARS:
        raise ModelError(f"unknown grammar {grammar!r}; valid: {', '.join(GRAMMARS)}")
    pracmln = import_pracmln()
    from pracmln.mln.base import parse_mln

    name = str(mln_path)
    try:
        raw = Path(mln_path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"cannot read model file: {exc.strerror}", SourcePosition(name)) from None
    lines = raw.splitlines()
    mln = pracmln.MLN(logic="FirstOrderLogic", grammar=grammar)
    formula_pos: list[SourcePosition] = []
    pred_pos: dict[str, SourcePosition] = {}
    searchpaths = [str(Path(mln_path).parent or ".")]
    for number, chunk in _chunks(raw):
        pos = SourcePosition(name, number, lines[number - 1])
        if chunk.startswith("#fuzzy"):
            raise UnsupportedInputError("fuzzy predicates are not supported (MAP over Boolean worlds only)", pos)
        before_f = len(mln.formulas)
        before_p = {p.name for p in mln.predicates}
        try:
            with redirect_stderr(io.StringIO()):  # pracmln prints tracebacks of its own
                parse_mln(chunk, searchpaths=searchpaths, logic="FirstOrderLogic", grammar=grammar, mln=mln)
        except PossError:
            raise
        except Exception as exc:  # pracmln raises bare Exceptions of many kinds
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            if "undefined" in detail.lower():  # e.g. "Predicate q is undefined."
                raise ModelError(detail, pos) from None
            raise FormulaSyntaxError(f"pracmln cannot parse this line: {detail}", pos) from None
        formula_pos.extend([pos] * (len(mln.formulas) - before_f))
        for p in mln.predicates:
            if p.name not in before_p:
                pred_pos[p.name] = pos
    db_domains: list[tuple[str, tuple[str, ...], SourcePosition]] = []
    evidence: list[EvidenceLiteral] = []
    if db_path is not None:
        db_domains, evidence = read_database(db_path, grammar)
    model = from_pracmln(
        mln,
        resolution=resolution,
        source=name,
        formula_positions=formula_pos,
        predicate_positions=pred_pos,
        extra_domains=db_domains,
        evidence=evidence,
        domains=domains,
    )
    return LoadedModel(mln, model)


def from_pracmln(
    mln: Any,
    db: Any = None,
    *,
    resolution: Resolution | None = None,
    source: str | None = None,
    formula_positions: Sequence[SourcePosition] = (),
    predicate_positions: Mapping[str, SourcePosition] | None = None,
    extra_domains: Sequence[tuple[str, tuple[str, ...], SourcePosition]] = (),
    evidence: Sequence[EvidenceLiteral] = (),
    domains: Mapping[str, Sequence[str]] | None = None,
) -> FirstOrderMLN:
    """Translate a pracmln ``MLN`` (and optionally a pracmln ``Database``) to a :class:`FirstOrderMLN`."""
    import_pracmln()
    from pracmln.mln.mlnpreds import FunctionalPredicate, FuzzyPredicate, SoftFunctionalPredicate

    res = resolution or Resolution()
    pred_pos = predicate_positions or {}
    predicates: list[Predicate] = []
    for p in mln.predicates:
        pos = pred_pos.get(p.name)
        if isinstance(p, FuzzyPredicate) or p.name in getattr(mln, "fuzzypreds", ()):
            raise UnsupportedInputError(f"fuzzy predicate {p.name} is not supported", pos)
        functional = p.mutex if isinstance(p, FunctionalPredicate) else None
        soft = isinstance(p, SoftFunctionalPredicate)
        predicates.append(Predicate(p.name, tuple(p.argdoms), functional, soft, pos))
    by_name = {p.name: p for p in predicates}

    # domains: the model's, then those of the database, then the constants its evidence uses
    merged: dict[str, list[str]] = {d: list(cs) for d, cs in mln.domains.items()}
    for dom, consts, _pos in extra_domains:
        merged.setdefault(dom, [])
        merged[dom].extend(c for c in consts if c not in merged[dom])
    if db is not None:
        for dom, consts in db.domains.items():
            merged.setdefault(dom, [])
            merged[dom].extend(c for c in consts if c not in merged[dom])
        evidence = list(evidence) + _db_evidence(db)
    for ev in evidence:
        p = by_name.get(ev.pred)
        if p is None:
            raise ModelError(f"evidence on undeclared predicate {ev.pred!r}", ev.position)
        if len(p.domains) != len(ev.args):
            raise ModelError(f"{ev.pred} takes {len(p.domains)} argument(s), given {len(ev.args)}", ev.position)
        for dom, c in zip(p.domains, ev.args):
            merged.setdefault(dom, [])
            if c not in merged[dom]:
                merged[dom].append(c)
    for dom, consts in (domains or {}).items():
        merged[dom] = list(dict.fromkeys(consts))

    templates: list[FormulaTemplate] = []
    variables = dict(getattr(mln, "vars", {}) or {})
    for i, (f, weight) in enumerate(zip(mln.formulas, mln.weights)):
        pos = formula_positions[i] if i < len(formula_positions) else None
        text = _formula_text(f)
        if f.template_variables():
            mln.domains.update({d: list(cs) for d, cs in merged.items()})
            variants = list(f.template_variants())
        else:
            variants = [f]
        w = _weight(weight, variables, merged, res, pos, text)
        for variant in variants:
            tree = _translate(variant, mln, pos)
            templates.append(FormulaTemplate(tree, w, _formula_text(variant), pos))
    return FirstOrderMLN(
        predicates=tuple(predicates),
        domains=tuple((d, tuple(cs)) for d, cs in merged.items()),
        formulas=tuple(templates),
        evidence=tuple(evidence),
        resolution=res,
        source=source,
    )


def _formula_text(f: Any) -> str:
    try:
        return f.cstr(False)
    except Exception:  # pracmln's printer needs an attached MLN; fall back to str()
        return str(f)


def _weight(
    weight: Any,
    variables: Mapping[str, str],
    domains: Mapping[str, Sequence[str]],
    res: Resolution,
    pos: SourcePosition | None,
    text: str,
) -> int | float:
    if isinstance(weight, (int, float)) and not isinstance(weight, bool):
        value = float(weight)
    else:
        def size(dom: str) -> int:
            if dom not in domains:
                raise ModelError(f"domSize({dom}): no such domain", pos)
            return len(domains[dom])

        value = evaluate_weight(str(weight), variables, size, pos)
    if value == INF:
        return INF
    if value == -INF:
        return -INF
    return res.to_int(value, what=f"weight {weight} of {text}")


def _db_evidence(db: Any) -> list[EvidenceLiteral]:
    import_pracmln()
    out = []
    for atom, truth in db.evidence.items():
        if truth is None:
            continue
        if truth not in (0, 1):
            raise UnsupportedInputError(f"soft evidence {atom} = {truth} is not supported by MAP inference")
        pred, args = atom[: atom.index("(")], atom[atom.index("(") + 1 : -1]
        out.append(EvidenceLiteral(pred, tuple(a.strip() for a in args.split(",")), bool(truth)))
    return out


def _translate(f: Any, mln: Any, pos: SourcePosition | None) -> Formula:
    """A pracmln formula object as our formula tree (variables typed by pracmln)."""
    logic = mln.logic
    try:
        types = f.vardoms()
    except Exception as exc:
        raise ModelError(f"cannot type the variables of this formula: {exc}", pos) from None

    def term(arg: str) -> Variable | Constant:
        if logic.isvar(arg):
            return Variable(arg, types.get(arg))
        return Constant(arg)

    def go(g: Any) -> Formula:
        kind = type(g).__name__
        if kind in ("Lit", "GroundLit"):
            if kind == "GroundLit":
                atom = PredAtom(g.gndatom.predname, tuple(Constant(a) for a in g.gndatom.args))
            else:
                if g.predname not in mln.prednames:
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
            inner = g.formula.vardoms() if hasattr(g, "formula") else {}
            return Exists(tuple(Variable(v, inner.get(v, types.get(v))) for v in g.vars), body)
        if kind == "Equality":
            eq = Equals(term(g.args[0]), term(g.args[1]))
            return Not(eq) if g.negated else eq
        if kind == "TrueFalse":
            return Truth(bool(g.value))
        raise UnsupportedInputError(f"unsupported pracmln construct {kind} in {_formula_text(g)!r}", pos)

    return go(f)
