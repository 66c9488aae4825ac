"""Grounding a first-order MLN over its finite typed domains.

Atoms are numbered predicate by predicate (declaration order), arguments in
domain order, as pracmln does.  Equalities between constants are decided while
grounding; a grounding that becomes a tautology is dropped, and so is a soft
grounding that becomes a contradiction (it costs every world the same, so it
changes no penalty and no MAP world).  Functional arguments (``!``/``?``) become
hard constraints, evidence becomes hard unit formulas.
"""

from __future__ import annotations

__all__ = ["ground", "ground_size", "bound_groundings", "free_variables", "infer_variable_domains", "template_source", "MAX_GROUND_ATOMS",
           "MAX_GROUND_FORMULAS", "MAX_GROUND_ATOM_OCCURRENCES"]

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from math import prod

from .. import arguments
from ..errors import InconsistentModelError, ModelError
from ..logic.formula import (
    And,
    Atom,
    Equals,
    Exists,
    Fold,
    Formula,
    Not,
    Or,
    PredAtom,
    Term,
    Truth,
    Variable,
    children,
    simplified_iff,
    simplified_implies,
    simplified_junction,
    simplified_not,
    variables_of,
    walk,
)
from ..logic.syntax import atom_name
from ..weights import INF
from .first_order import FirstOrderMLN, FormulaTemplate, Predicate
from .ground_mln import GroundMLN, WeightedFormula
from .signature import Signature


class _AtomTable:
    """Atom numbering (:class:`~.signature.Signature`'s) and the positions of constants."""

    def __init__(self, model: FirstOrderMLN) -> None:
        self.domains = model.domain_map
        self.positions = {d: {c: i for i, c in enumerate(cs)} for d, cs in self.domains.items()}
        self.signature = Signature.of_model(model)
        self.index = self.signature.index
        self.names = tuple(self.signature.names())


def infer_variable_domains(
    template: FormulaTemplate, predicates: Mapping[str, Predicate]
) -> dict[str, str]:
    """The domain of every variable of a template, from the argument positions it fills.

    :raises ModelError: unknown predicate, wrong arity, a variable used at two
        types, or one whose type cannot be told.
    """
    found: dict[str, str] = {}
    for f in walk(template.formula):
        if not isinstance(f, PredAtom):
            continue
        p = predicates.get(f.pred)
        if p is None:
            raise ModelError(f"unknown predicate {f.pred!r}", template.position)
        if len(f.args) != len(p.domains):
            raise ModelError(
                f"{f.pred} takes {len(p.domains)} argument(s), given {len(f.args)}",
                template.position,
            )
        for t, dom in zip(f.args, p.domains):
            if isinstance(t, Variable):
                declared = t.domain or dom
                old = found.setdefault(t.name, declared)
                if old != dom or declared != dom:
                    raise ModelError(
                        f"variable {t.name} is used both as {old} and as {dom}", template.position
                    )
    for v in variables_of(template.formula):
        if v.name not in found:
            if v.domain is None:
                raise ModelError(f"cannot tell the domain of variable {v.name}", template.position)
            found[v.name] = v.domain
    return found


def free_variables(f: Formula) -> list[str]:
    """The variables not bound by an EXIST, in order of first occurrence."""
    order: dict[str, None] = {}

    def visit(g: Formula, bound: frozenset[str]) -> None:
        if isinstance(g, (PredAtom, Equals)):
            for t in g.args if isinstance(g, PredAtom) else (g.left, g.right):
                if isinstance(t, Variable) and t.name not in bound:
                    order.setdefault(t.name)
        elif isinstance(g, Exists):
            visit(g.body, bound | {v.name for v in g.variables})
        else:
            for c in children(g):
                visit(c, bound)

    visit(f, frozenset())
    return list(order)


Env = dict[str, int]  # variable -> position of its constant in the variable's domain

MAX_GROUND_ATOMS = 1_000_000
"""Above this many ground atoms a grounding is refused unless forced."""
MAX_GROUND_FORMULAS = 10_000_000
"""Above this many ground formulas (groundings of the templates) a grounding is refused unless forced."""
MAX_GROUND_ATOM_OCCURRENCES = 100_000_000
"""Above this many atoms in all ground formulas (``EXIST`` expanded over its domains) a
grounding is refused unless forced."""


def ground_size(model: FirstOrderMLN, typed: Sequence[Mapping[str, str]] | None = None
                ) -> tuple[int, int, tuple[FormulaTemplate, int] | None, int, tuple[FormulaTemplate, int] | None]:
    """Ground atoms, groundings of the formula templates and the template with the most
    (with their number), and the atoms of all ground formulas once their ``EXIST`` are
    expanded and the template with the most (with their number), computed from the
    domain sizes alone (``typed``: each template's variable domains, when known)."""
    sizes = {d: len(cs) for d, cs in model.domains}
    atoms = sum(prod(sizes.get(d, 0) for d in p.domains) for p in model.predicates)
    preds = model.predicate_map
    total, largest, expanded, widest = 0, None, 0, None
    for i, template in enumerate(model.formulas):
        types = typed[i] if typed is not None else infer_variable_domains(template, preds)
        n = prod(sizes.get(types[v], 0) for v in free_variables(template.formula))
        total += n
        if largest is None or n > largest[1]:
            largest = (template, n)
        leaves = n * _expanded_atoms(template.formula, sizes, types)
        expanded += leaves
        if widest is None or leaves > widest[1]:
            widest = (template, leaves)
    return atoms, total, largest, expanded, widest


def _expanded_atoms(f: Formula, sizes: Mapping[str, int], types: Mapping[str, str]) -> int:
    """The atoms of one grounding of ``f``, each ``EXIST`` expanded over its domains."""
    if isinstance(f, (PredAtom, Equals)):
        return 1
    if isinstance(f, Exists):
        return prod(sizes.get(types.get(v.name, ""), 0) for v in f.variables) * _expanded_atoms(f.body, sizes, types)
    return sum(_expanded_atoms(c, sizes, types) for c in children(f))


def _check_size(model: FirstOrderMLN, typed: Sequence[Mapping[str, str]]) -> None:
    atoms, formulas, largest, expanded, widest = ground_size(model, typed)
    if atoms > MAX_GROUND_ATOMS:
        raise ModelError(
            f"grounding would make {atoms:,} ground atoms, more than {MAX_GROUND_ATOMS:,}: "
            "give smaller domains (--domain-size NAME=N; from Python domain_sizes={...}) or force it (--force; force=True)"
        )
    if formulas > MAX_GROUND_FORMULAS:
        raise _too_large(f"{formulas:,} ground formulas, more than {MAX_GROUND_FORMULAS:,}", largest, "makes")
    if expanded > MAX_GROUND_ATOM_OCCURRENCES:
        raise _too_large(f"ground formulas of {expanded:,} atoms in all (EXIST expanded), more than "
                         f"{MAX_GROUND_ATOM_OCCURRENCES:,}", widest, "has")


def _too_large(what: str, largest: tuple[FormulaTemplate, int] | None, verb: str) -> ModelError:
    """The error for a grounding above a limit, naming the template that contributes most."""
    where = ""
    if largest is not None:
        template, n = largest
        where = f"; the largest, {template.position or repr(template.text)}, alone {verb} {n:,}"
    return ModelError(f"grounding would make {what}{where}: give smaller domains (--domain-size NAME=N; from "
                      "Python domain_sizes={...}) or force it (--force; force=True)")


def ground(model: FirstOrderMLN, *, force: bool = False, multiplicity: Mapping[str, int] | None = None) -> GroundMLN:
    """Ground ``model`` over its domains into a normalised :class:`~pracmln_poss.model.ground_mln.GroundMLN`.

    :param force: ground even above :data:`MAX_GROUND_ATOMS` atoms or
        :data:`MAX_GROUND_FORMULAS` formulas.
    :param multiplicity: constant -> how many constants it stands for (a domain
        reduction's representatives, :mod:`~.reduction`): a soft grounding whose
        variables take such constants weighs its template's weight times theirs (each
        distinct constant once).
    :raises ModelError: for unknown predicates, untyped variables, constants
        outside their domain, evidence on unknown atoms; for a grounding above the
        limits (saying how large it would be), unless ``force``.
    :raises InconsistentModelError: when a hard formula grounds to false.
    """
    arguments.instance("model", model, FirstOrderMLN, "a FirstOrderMLN (load_first_order gives one)")
    preds = model.predicate_map
    typed = [infer_variable_domains(template, preds) for template in model.formulas]
    if not force:
        _check_size(model, typed)
    table = _AtomTable(model)
    out: list[WeightedFormula] = []
    for template, types in zip(model.formulas, typed):
        out.extend(_ground_template(template, table, types, preds, multiplicity or {}))
    out.extend(_functional_constraints(model, table))
    for ev in model.evidence:
        p = preds.get(ev.pred)
        if p is None:
            raise ModelError(f"evidence on undeclared predicate {ev.pred!r}", ev.position)
        try:
            positions = tuple(table.positions[d][c] for d, c in zip(p.domains, ev.args, strict=True))
        except (KeyError, ValueError):
            raise ModelError(
                f"evidence atom {atom_name(ev.pred, ev.args)} is not an atom of the model "
                f"(arguments must be constants of {', '.join(p.domains)})",
                ev.position,
            ) from None
        a = Atom(table.index(ev.pred, positions))
        out.append(WeightedFormula(a if ev.value else Not(a), INF, str(ev.position) if ev.position else "evidence"))
    return GroundMLN.create(table.names, out, model.resolution)


def bound_groundings(model: FirstOrderMLN, bound: Sequence[tuple[FormulaTemplate, Mapping[str, str]]]
                     ) -> tuple[Signature, list[list[Formula]]]:
    """Per ``(template, fixed)`` of ``model``: its groundings whose variables in ``fixed``
    take those constants and the others every constant of their domains, simplified as
    :func:`ground` simplifies them (tautologies and contradictions included, as
    ``Truth``); atoms numbered as :func:`ground` numbers them, by the signature returned."""
    preds = model.predicate_map
    table = _AtomTable(model)
    out = []
    for template, fixed in bound:
        types = infer_variable_domains(template, preds)
        build = _compile_template(template, table, types, preds)
        free = [v for v in free_variables(template.formula) if v not in fixed]
        given = {v: table.positions[types[v]][c] for v, c in fixed.items()}
        found = []
        for combo in itertools.product(*(range(len(table.domains[types[v]])) for v in free)):
            found.append(build({**given, **dict(zip(free, combo))}))
        out.append(found)
    return table.signature, out


def _ground_template(
    template: FormulaTemplate,
    table: _AtomTable,
    types: Mapping[str, str],
    preds: Mapping[str, Predicate],
    multiplicity: Mapping[str, int],
) -> Iterator[WeightedFormula]:
    build = _compile_template(template, table, types, preds)
    free = free_variables(template.formula)
    ranges = [range(len(table.domains[types[v]])) for v in free]
    source = template_source(template)
    # per variable, the multiplicity of each position of its domain (None: all 1)
    weighs = [[multiplicity.get(c, 1) for c in table.domains[types[v]]] for v in free] \
        if multiplicity and abs(template.weight) != INF else None
    for combo in itertools.product(*ranges):
        g = build(dict(zip(free, combo)))  # (simplified as it is built)
        if isinstance(g, Truth):
            if g.value:
                continue
            if template.weight == INF:
                binding = ", ".join(f"{v}={table.domains[types[v]][i]}" for v, i in zip(free, combo))
                raise InconsistentModelError(
                    f"hard formula is false for {binding or 'its only grounding'}", template.position
                )
            continue
        if weighs is None:
            yield WeightedFormula(g, template.weight, source)
            continue
        factors = {(types[v], i): m[i] for v, i, m in zip(free, combo, weighs) if m[i] != 1}
        yield WeightedFormula(g, template.weight * math.prod(factors.values()), source)


def template_source(template: FormulaTemplate) -> str:
    """The ``source`` its ground formulas carry: the template's position, else its text."""
    return f"{template.position}" if template.position else template.text


def _compile_template(
    template: FormulaTemplate, table: _AtomTable, types: Mapping[str, str], preds: Mapping[str, Predicate]
) -> Callable[[Env], Formula]:
    """The template as a function from a binding of its variables (to constant positions)
    to its ground formula: the tree is walked once, not once per grounding."""
    return _Builder(template, table, types, preds)(template.formula)


class _Builder(Fold[Callable[[Env], Formula]]):
    """A template's tree folded into the function of a binding that builds its grounding,
    simplified as :func:`~pracmln_poss.logic.formula.substitute_atoms` simplifies (each
    node over its simplified parts: equalities decided, constants propagated)."""

    doing = "ground"

    def __init__(self, template: FormulaTemplate, table: _AtomTable, types: Mapping[str, str],
                 preds: Mapping[str, Predicate]) -> None:
        self.template, self.table, self.types, self.preds = template, table, types, preds

    def _position(self, t: Term, dom: str) -> Callable[[Env], int]:
        if isinstance(t, Variable):
            name = t.name
            return lambda env: env[name]
        positions = self.table.positions[dom]
        if t.name not in positions:
            raise ModelError(f"constant {t.name} is not in domain {dom}", self.template.position)
        pos = positions[t.name]
        return lambda env: pos

    def _name(self, t: Term) -> Callable[[Env], str]:
        if isinstance(t, Variable):
            name, consts = t.name, self.table.domains[self.types[t.name]]
            return lambda env: consts[env[name]]
        c = t.name
        return lambda env: c

    def pred_atom(self, f: PredAtom) -> Callable[[Env], Formula]:
        getters = tuple(self._position(t, d) for t, d in zip(f.args, self.preds[f.pred].domains))
        pred, index = f.pred, self.table.index
        return lambda env: Atom(index(pred, tuple(g(env) for g in getters)))

    def equals(self, f: Equals) -> Callable[[Env], Formula]:
        left, right = self._name(f.left), self._name(f.right)
        return lambda env: Truth(left(env) == right(env))

    def truth(self, f: Truth) -> Callable[[Env], Formula]:
        return lambda env: f

    def not_(self, f: object, arg: Callable[[Env], Formula]) -> Callable[[Env], Formula]:
        return lambda env: simplified_not(arg(env))

    def and_(self, f: object, parts: Iterator[Callable[[Env], Formula]]) -> Callable[[Env], Formula]:
        args = tuple(parts)
        return lambda env: simplified_junction(And, (p(env) for p in args))

    def or_(self, f: object, parts: Iterator[Callable[[Env], Formula]]) -> Callable[[Env], Formula]:
        args = tuple(parts)
        return lambda env: simplified_junction(Or, (p(env) for p in args))

    def implies(self, f: object, left: Callable[[Env], Formula],
                right: Callable[[Env], Formula]) -> Callable[[Env], Formula]:
        return lambda env: simplified_implies(left(env), right(env))

    def iff(self, f: object, left: Callable[[Env], Formula],
            right: Callable[[Env], Formula]) -> Callable[[Env], Formula]:
        return lambda env: simplified_iff(left(env), right(env))

    def exists(self, f: Exists, body: Callable[[Env], Formula]) -> Callable[[Env], Formula]:
        names = tuple(v.name for v in f.variables)
        ranges = tuple(range(len(self.table.domains[self.types[n]])) for n in names)

        def exists(env: Env) -> Formula:
            disjuncts = []
            for combo in itertools.product(*ranges):
                inner = dict(env)
                inner.update(zip(names, combo))
                disjuncts.append(body(inner))
            return simplified_junction(Or, disjuncts)

        return exists


def _functional_constraints(model: FirstOrderMLN, table: _AtomTable) -> Iterator[WeightedFormula]:
    for p in model.predicates:
        if p.functional is None:
            continue
        kind = "at most one" if p.soft_functional else "exactly one"
        marked = ", ".join(d + ("?" if p.soft_functional else "!") * (i == p.functional) for i, d in enumerate(p.domains))
        keys = [d for i, d in enumerate(p.domains) if i != p.functional]
        scope = f" for each {', '.join(keys)}" if keys else ""
        source = f"{p.position or f'{p.name}({marked})'}: {kind} {p.domains[p.functional]}{scope}"
        sizes = tuple(len(table.domains[d]) for d in p.domains)
        others = [range(s) for i, s in enumerate(sizes) if i != p.functional]
        for combo in itertools.product(*others):
            block = []
            for value in range(sizes[p.functional]):
                positions = list(combo)
                positions.insert(p.functional, value)
                block.append(Atom(table.index(p.name, tuple(positions))))
            if not p.soft_functional:
                yield WeightedFormula(Or(tuple(block)), INF, source)
            for a, b in itertools.combinations(block, 2):
                yield WeightedFormula(Not(And((a, b))), INF, source)
