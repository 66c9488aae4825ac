"""First-order rules from rule schemas (the paper's ``variabilize``).

Constants of an interchangeable class with several members become variables of that
class's type; constants that stand alone stay constants.  Same-type variables get
pairwise ``!=`` constraints, so that grounding a rule gives exactly the renamings of
its schema.  The result is a :class:`~pracmln_poss.possibilistic.lifted_theory.LiftedTheory`.
"""

from __future__ import annotations

__all__ = ["variabilize", "lift", "LiftMemo"]

import itertools
from collections.abc import Iterable, Mapping, Sequence

from ..atoms import split_atom
from ..logic.formula import (
    And,
    Atom,
    Constant,
    Equals,
    Exists,
    Formula,
    Implies,
    Not,
    Or,
    PredAtom,
    Truth,
    Variable,
    map_terms,
    variables_of,
    walk,
)
from ..logic.leaves import map_leaves
from ..model.first_order import FirstOrderMLN, FormulaTemplate
from ..model.ground_mln import GroundMLN
from ..model.grounding import infer_variable_domains, template_source
from ..model.reduction import Reduction
from ..model.signature import Signature
from ..possibilistic.lifted_theory import LiftedTheory, atom_constants, variable_prefixes
from ..possibilistic.theory import BLOCKING_ORIGIN, PossibilisticFormula
from ..search.evidence import describe
from ..search.rule import Schema
from ..search.symmetry import Symmetry
from ..weights import INF


def _type_names(symmetry: Symmetry, classes: Sequence[tuple[str, ...]], domains: Mapping[str, tuple[str, ...]]
                ) -> dict[int, str]:
    """A type name per class of two or more constants (``classes``: each of the
    symmetry's classes in the model the theory is of, over its ``domains``): the
    domain's name when the class is the whole domain, else the domain's name numbered
    (the domain's name stays free for first-order hard rules, which range over the whole
    domain)."""
    domain_of = {c: d for d, consts in symmetry.domains for c in consts}
    by_domain: dict[str, list[int]] = {}
    for i, cls in enumerate(classes):
        if len(cls) > 1:
            by_domain.setdefault(domain_of[cls[0]], []).append(i)
    names = {}
    for domain, indices in by_domain.items():
        for n, i in enumerate(indices, 1):
            whole = set(classes[i]) == set(domains[domain])
            names[i] = domain if whole else f"{domain}{n}"
    return names


def _classes_in(symmetry: Symmetry, reduction: Reduction | None) -> list[tuple[str, ...]]:
    """The symmetry's classes as they are in the model the theory is of: a reduced
    domain's class of the constants no question names gets back the constants its
    representative stands for (in the domain's order), and the representative's own
    class is empty."""
    classes = list(symmetry.classes)
    if reduction is None:
        return classes
    reps = reduction.representatives
    full = reduction.full.domain_map
    for name, _, _, rep, _ in reduction.domains:
        kept = set(reduction.model.domain_map[name])
        dropped = {c for c in full[name] if c not in kept} | {rep}
        # the constants the representative stands for join the class of the first kept one no question names
        first = next(c for c in reduction.model.domain_map[name] if c not in reduction.full.named and c not in reps)
        for i, cls in enumerate(classes):
            if rep in cls:
                classes[i] = ()
            elif first in cls:
                members = set(cls) | dropped
                classes[i] = tuple(c for c in full[name] if c in members)
    return classes


class LiftMemo:
    """The terms and literals the rules of one theory share, made once: learned models
    conclude about the same few ground atoms thousands of times, and lifted rules use
    the same few variable patterns (``author(p1,a1)``) over and over."""

    def __init__(self) -> None:
        self.constants: dict[str, Constant] = {}
        self.variables: dict[tuple[str, str], Variable] = {}
        self.literals: dict[tuple[int, tuple[str | None, ...]], Formula] = {}
        self.distinct: dict[tuple[str, str], Formula] = {}
        # the premise of a rule, by its evidence and the types of the variables its
        # conclusion adds (the rules of one evidence set share it)
        self.premises: dict[tuple[tuple[int, ...], tuple[str, ...]], Formula | None] = {}

    def constant(self, name: str) -> Constant:
        found = self.constants.get(name)
        if found is None:
            found = self.constants[name] = Constant(name)
        return found

    def variable(self, name: str, type_name: str) -> Variable:
        found = self.variables.get((name, type_name))
        if found is None:
            found = self.variables[name, type_name] = Variable(name, type_name)
        return found

    def different(self, a: Variable, b: Variable) -> Formula:
        found = self.distinct.get((a.name, b.name))
        if found is None:
            found = self.distinct[a.name, b.name] = Not(Equals(a, b))
        return found


def variabilize(
    schema: Schema, symmetry: Symmetry, type_names: dict[int, str], prefixes: dict[str, str] | None = None,
    memo: LiftMemo | None = None,
) -> Formula:
    """``AND {v != w} ^ AND E' => x'`` (or ``=> !AND body'`` for a blocking schema).

    :param prefixes: type name -> variable prefix, over all the theory's types (default:
        :func:`~pracmln_poss.possibilistic.lifted_theory.variable_prefixes` of ``type_names``).
    :param memo: the terms and literals made so far, shared by the calls of one theory.
    """
    prefixes = prefixes if prefixes is not None else variable_prefixes(type_names.values())
    return _Lifter(symmetry, type_names, prefixes, memo if memo is not None else LiftMemo())(schema)


class _Lifter:
    """:func:`variabilize` for the schemas of one theory, one after another: the schemas
    of one evidence set come together and share its variables, named once."""

    def __init__(self, symmetry: Symmetry, type_names: dict[int, str], prefixes: dict[str, str], memo: LiftMemo
                 ) -> None:
        self.types, self.atom_info = symmetry.types, symmetry.atom_info
        self.type_names, self.prefixes, self.memo = type_names, prefixes, memo
        self.body: tuple[int, ...] | None = None
        self.variable: dict[str, Variable] = {}  # the body's constants -> their variables
        self.names: dict[str, str] = {}  # ... and those variables' names
        self.counters: dict[str, int] = {}  # type name -> variables of the type so far

    def _name(self, lit: int, variable: dict[str, Variable], names: dict[str, str], counters: dict[str, int]
              ) -> list[str]:
        """Name the variables of ``lit``'s renamable constants not named yet; their types."""
        added = []
        types, type_names = self.types, self.type_names
        for c in self.atom_info[abs(lit)][1]:
            cls = types[c]
            if cls in type_names and c not in variable:
                tname = type_names[cls]
                counters[tname] = counters.get(tname, 0) + 1
                v = variable[c] = self.memo.variable(f"{self.prefixes[tname]}{counters[tname]}", tname)
                names[c] = v.name
                added.append(tname)
        return added

    def _atom(self, lit: int, variable: dict[str, Variable], names: dict[str, str]) -> Formula:
        pred, args = self.atom_info[abs(lit)]
        named = tuple(map(names.get, args))
        key = (lit, named if any(named) else ())  # (one key for a literal that stays ground)
        memo = self.memo
        found = memo.literals.get(key)
        if found is None:
            a = PredAtom(pred, tuple(variable[c] if c in variable else memo.constant(c) for c in args))
            found = memo.literals[key] = a if lit > 0 else Not(a)
        return found

    def _distinct(self, variable: dict[str, Variable]) -> list[Formula]:
        by_type: dict[str, list[Variable]] = {}
        for v in variable.values():
            by_type.setdefault(v.domain or "", []).append(v)
        return [self.memo.different(a, b) for vs in by_type.values() for a, b in itertools.combinations(vs, 2)]

    def __call__(self, schema: Schema) -> Formula:
        if schema.body != self.body:
            self.body, self.variable, self.names, self.counters = schema.body, {}, {}, {}
            for lit in schema.body:
                self._name(lit, self.variable, self.names, self.counters)
        variable, names = self.variable, self.names
        if schema.conclusion is None:
            negated = [b.arg if isinstance(b, Not) else Not(b) for b in (self._atom(l, variable, names)
                                                                         for l in schema.body)]
            clause = Or(tuple(negated)) if len(negated) > 1 else negated[0] if negated else Truth(False)
            constraints = self._distinct(variable)
            return Implies(_conj(constraints), clause) if constraints else clause
        added: list[str] = []
        if any(c not in variable and self.types[c] in self.type_names for c in self.atom_info[abs(schema.conclusion)][1]):
            # the conclusion's own variables, after the body's (whose naming the next schema shares)
            variable, names = dict(variable), dict(names)
            added = self._name(schema.conclusion, variable, names, dict(self.counters))
        key = (schema.body, tuple(added))
        premises = self.memo.premises
        if key in premises:
            premise = premises[key]
        else:
            parts = [self._atom(l, variable, names) for l in schema.body] + self._distinct(variable)
            premise = premises[key] = _conj(parts) if parts else None
        head = self._atom(schema.conclusion, variable, names)
        return Implies(premise, head) if premise is not None else head


def _conj(parts: list[Formula]) -> Formula:
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def lift(mln: GroundMLN, symmetry: Symmetry, schemas: Iterable[Schema], model: FirstOrderMLN | None = None, *,
         reduction: Reduction | None = None, note: str | None = None) -> LiftedTheory:
    """The lifted theory of the schemas with the MLN's hard formulas, certain.

    ``schemas`` may be a generator: each is written as it comes (while the search,
    on worker processes, finds the next ones).

    With the first-order ``model``, its hard formulas are written first-order over
    variables of their domains (as in the MLN); otherwise, and for those with ``EXIST``,
    functional constraints and evidence, ground.  With a ``reduction`` (``mln`` the
    grounding of its reduced model), the theory is of its full model: its types and
    atoms are the full model's.  ``note``: how its domains were searched, for its header.
    """
    if reduction is not None:
        model = reduction.full
    signature = Signature.of_model(model) if model is not None else None
    classes = _classes_in(symmetry, reduction)
    type_names = _type_names(symmetry, classes, model.domain_map if model is not None else dict(symmetry.domains))
    class_types = [(type_names[i], cls) for i, cls in enumerate(classes) if i in type_names]
    liftable = _liftable_hard(model)
    domain_types = {d: model.domain_map[d] for _, types in liftable for d in types.values()} if model else {}
    types = dict(class_types)
    types.update(domain_types)
    prefixes = variable_prefixes(types, signature.constants if signature is not None else atom_constants(mln.atoms))
    formulas = _hard_rules(mln, liftable, prefixes)
    lifter = _Lifter(symmetry, type_names, prefixes, LiftMemo())
    described: dict[tuple[int, ...], str] = {}  # schemas of one rule share its evidence
    for s in schemas:
        if s.evidence not in described:
            described[s.evidence] = describe(s.evidence, mln)
        origin = (BLOCKING_ORIGIN if s.conclusion is None else "") + described[s.evidence]
        formula = lifter(s)
        formulas.append(PossibilisticFormula(formula, s.level, origin, mln.resolution))
    formulas.sort(key=lambda pf: pf.steps)  # stable: the order the file formats write
    atoms = signature.atoms if signature is not None else mln.atoms
    return LiftedTheory(tuple(sorted(types.items())), tuple(formulas), atoms, mln.resolution, note=note)


def _liftable_hard(model: FirstOrderMLN | None) -> list[tuple[FormulaTemplate, dict[str, str]]]:
    """The hard formulas of ``model`` that can be written first-order (no ``EXIST``), with
    the domain of each variable."""
    if model is None:
        return []
    return [
        (t, infer_variable_domains(t, model.predicate_map))
        for t in model.formulas
        if t.weight == INF and not any(isinstance(g, Exists) for g in walk(t.formula))
    ]


def _hard_rules(
    mln: GroundMLN, liftable: list[tuple[FormulaTemplate, dict[str, str]]], prefixes: dict[str, str]
) -> list[PossibilisticFormula]:
    """The certain rules: the liftable hard formulas over variables of their domains, the
    other hard formulas of the ground MLN (functional constraints, evidence) ground."""
    out = []
    for template, types in liftable:
        counters: dict[str, int] = {}
        renamed: dict[str, Variable] = {}
        for v in variables_of(template.formula):
            if v.name not in renamed:
                domain = types[v.name]
                counters[domain] = counters.get(domain, 0) + 1
                renamed[v.name] = Variable(f"{prefixes[domain]}{counters[domain]}", domain)
        formula = map_terms(template.formula, lambda t: renamed[t.name] if isinstance(t, Variable) else t)  # noqa: B023
        out.append(PossibilisticFormula(formula, INF, template_source(template), mln.resolution))
    lifted_sources = {template_source(t) for t, _ in liftable}
    out.extend(PossibilisticFormula(_named(wf.formula, mln), INF, wf.source, mln.resolution)
               for wf in mln.hard if wf.source not in lifted_sources)
    return out


def _named(f: Formula, mln: GroundMLN) -> Formula:
    """A ground formula with named atoms (PredAtom leaves) instead of ints."""
    def leaf(a: Atom | PredAtom | Equals) -> Formula:
        if not isinstance(a, Atom):
            return a
        pred, args = split_atom(mln.name(a.index))
        return PredAtom(pred, tuple(Constant(c) for c in args))

    return map_leaves(f, leaf)
