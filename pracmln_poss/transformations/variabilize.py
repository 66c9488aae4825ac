"""First-order rules from rule schemas (the paper's ``variabilize``), and back to ground.

Constants of an interchangeable class with several members become variables of that
class's type; constants that stand alone stay constants.  Same-type variables get
pairwise ``!=`` constraints, so that grounding a rule gives exactly the renamings of
its schema.  A :class:`LiftedTheory` keeps the types with the rules and grounds back
to a :class:`~pracmln_poss.possibilistic.PossibilisticTheory` over the MLN's atoms.
"""

from __future__ import annotations

__all__ = ["LiftedTheory", "variabilize", "lift", "filter_lifted", "variable_prefixes"]

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from ..atoms import intern_atoms, split_atom
from ..ground_mln import GroundMLN
from ..grounding import infer_variable_domains, template_source
from ..logic.formula import (
    And,
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
    conjunction,
    map_terms,
    substitute_atoms,
    variables_of,
    walk,
)
from ..logic.syntax import format_formula
from ..model import FirstOrderMLN, FormulaTemplate

if TYPE_CHECKING:
    from ..possibilistic.reasoner import QueryResult, Reasoner
from ..errors import ModelError, PossError, UnknownNameError
from ..possibilistic.theory import Displayed, Level, PossibilisticFormula, PossibilisticTheory, level_name
from ..weights import INF, Resolution
from .evidence import describe
from .lifted import Schema
from .symmetry import Symmetry


@dataclass(frozen=True, repr=False)
class LiftedTheory(Displayed):
    """First-order possibilistic rules over typed variables, with their types.

    :ivar types: type name -> its constants (one type per interchangeable class of
        two or more constants).
    :ivar formulas: rules whose variables carry their type; certain formulas are ground.
    :ivar atoms: the ground atoms the theory grounds over (the MLN's).
    """

    types: tuple[tuple[str, tuple[str, ...]], ...]
    formulas: tuple[PossibilisticFormula, ...]
    atoms: tuple[str, ...]
    resolution: Resolution

    def groundings(self, pf: PossibilisticFormula) -> list[Formula]:
        """The ground instances of one rule over the theory's atoms (tautologies left out)."""
        names = {n: i for i, n in enumerate(self.atoms, 1)}
        types = dict(self.types)
        variables = sorted(set(variables_of(pf.formula)), key=lambda v: v.name)
        out = []
        for values in itertools.product(*(types[v.domain] for v in variables)):
            binding = {v.name: c for v, c in zip(variables, values)}
            grounded = substitute_atoms(intern_atoms(_bind(pf.formula, binding), names), lambda _a: None)
            if len(names) != len(self.atoms):
                raise ModelError(f"rule {pf.formula} mentions an atom outside the model")
            if not (isinstance(grounded, Truth) and grounded.value):
                out.append(grounded)
        return out

    def __len__(self) -> int:
        return len(self.formulas)

    @cached_property
    def grounded(self) -> PossibilisticTheory:
        """:meth:`ground`, computed once (for queries)."""
        return self.ground()

    def entails(self, evidence: Iterable[object], query: str | Formula) -> bool:
        """Possibilistic entailment of a ground query from ground evidence (on the grounding)."""
        return self.grounded.entails(evidence, query)

    def consistency_level(self, evidence: Iterable[object] = ()) -> float:
        """``con(T, E)`` of the grounding, in the model's weight units."""
        return self.grounded.consistency_level(evidence)

    def query(self, evidence: Iterable[object], query: str | Formula | None) -> QueryResult:
        """Entailment, consistency level and drowned formulas of the grounding at once."""
        return self.grounded.query(evidence, query)

    def reasoner(self, solver: str = "g3") -> Reasoner:
        """A new incremental SAT reasoner over the grounding; use it as a context manager."""
        return self.grounded.reasoner(solver)

    def necessity(self, rule: str | Formula) -> float | None:
        """:meth:`necessity_level` in the model's weight units (``inf`` when certain)."""
        return self.grounded.in_units(self.necessity_level(rule))

    def necessity_level(self, rule: str | Formula) -> Level | None:
        """The highest level whose cut entails every grounding of ``rule`` (a formula over
        this theory's typed variables, e.g. ``s(p1) ^ f(p1,p2) ^ p1 != p2 => s(p2)``, or a
        ground one), as an exact int level; None if no cut does."""
        if isinstance(rule, str):
            from ..formats.lifted_text import read_rule

            prefix_of = {prefix: name for name, prefix in self.prefixes().items()}
            try:
                rule = read_rule(rule, prefix_of, self.constants())
            except PossError as exc:
                raise UnknownNameError(exc.message) from None
        return self.grounded.necessity_level(conjunction(self.groundings(PossibilisticFormula(rule, INF, None))))

    def levels(self) -> tuple[Level, ...]:
        """The distinct levels, ascending (``INF`` last)."""
        return tuple(sorted({pf.level for pf in self.formulas}))

    def format(self, f: Formula) -> str:
        """A rule in pracmln syntax."""
        return format_formula(f)

    def level_name(self, level: Level) -> str:
        """``lambda_2.5`` style name of a level, in user units."""
        return level_name(level, self.resolution)

    def prefixes(self) -> dict[str, str]:
        """Type name -> the prefix of its variables (:func:`variable_prefixes`)."""
        return variable_prefixes((name for name, _ in self.types), self.constants())

    def constants(self) -> set[str]:
        """Every constant the theory's atoms name."""
        return atom_constants(self.atoms)

    def ground(self) -> PossibilisticTheory:
        """Every grounding of every rule over its types (``!=`` respected): a ground theory."""
        return self.ground_with_sources()[0]

    def ground_with_sources(self) -> tuple[PossibilisticTheory, tuple[int, ...]]:
        """:meth:`ground`, and per ground formula the index of the rule it grounds (the
        first one, when several rules share a grounding at the same level)."""
        out: list[PossibilisticFormula] = []
        sources: list[int] = []
        seen: set[tuple] = set()
        for i, pf in enumerate(self.formulas):
            for grounded in self.groundings(pf):
                key = (grounded, pf.level)
                if key not in seen:
                    seen.add(key)
                    out.append(PossibilisticFormula(grounded, pf.level, pf.origin))
                    sources.append(i)
        return PossibilisticTheory(self.atoms, tuple(out), self.resolution), tuple(sources)


def _bind(f: Formula, binding: dict[str, str]) -> Formula:
    return map_terms(f, lambda t: Constant(binding[t.name]) if isinstance(t, Variable) else t)


def _type_names(symmetry: Symmetry) -> dict[int, str]:
    """A type name per class of two or more constants: the domain's name when the class
    is the whole domain, else the domain's name numbered (the domain's name stays free
    for first-order hard rules, which range over the whole domain)."""
    domains = dict(symmetry.domains)
    domain_of = {c: d for d, consts in symmetry.domains for c in consts}
    by_domain: dict[str, list[int]] = {}
    for i, cls in enumerate(symmetry.classes):
        if len(cls) > 1:
            by_domain.setdefault(domain_of[cls[0]], []).append(i)
    names = {}
    for domain, classes in by_domain.items():
        for n, i in enumerate(classes, 1):
            whole = set(symmetry.classes[i]) == set(domains[domain])
            names[i] = domain if whole else f"{domain}{n}"
    return names


def atom_constants(atoms: Iterable[str]) -> set[str]:
    """Every constant that ground atom names (``pred(A,B)``) mention."""
    return {c for atom in atoms for c in atom.partition("(")[2].rstrip(")").split(",") if c}


def variable_prefixes(type_names: Iterable[str], constants: Iterable[str] = ()) -> dict[str, str]:
    """A distinct variable prefix per type: the shortest start of its name that no other
    type shares and that does not end in a digit (else the name and ``_``), so that
    ``p1``, ``pe2`` or ``cat1_3`` tell their type; a prefix that would make a variable
    look like one of ``constants`` (``s1`` when a constant is named ``s1``) gets more ``_``."""
    names = sorted(set(type_names))
    taken = set(constants)
    out = {}

    def clashes(prefix: str) -> bool:
        return any(c.startswith(prefix) and c[len(prefix):].isdigit() and c[len(prefix):] for c in taken)

    for name in names:
        lower = name.lower()
        others = [n.lower() for n in names if n != name]
        for length in range(1, len(lower) + 1):
            prefix = lower[:length]
            if not prefix[-1].isdigit() and not any(o.startswith(prefix) for o in others) and not clashes(prefix):
                out[name] = prefix
                break
        else:
            prefix = lower + "_"
            while clashes(prefix) or any(o.startswith(prefix) for o in others):
                prefix += "_"
            out[name] = prefix
    return out


def variabilize(
    schema: Schema, symmetry: Symmetry, type_names: dict[int, str], prefixes: dict[str, str] | None = None
) -> Formula:
    """``AND {v != w} ^ AND E' => x'`` (or ``=> !AND body'`` for a blocking schema).

    :param prefixes: type name -> variable prefix, over all the theory's types (default:
        :func:`variable_prefixes` of ``type_names``).
    """
    types = symmetry.types
    lits = schema.body + ((schema.conclusion,) if schema.conclusion is not None else ())
    variable: dict[str, Variable] = {}
    counters: dict[str, int] = {}
    prefixes = prefixes if prefixes is not None else variable_prefixes(type_names.values())
    for lit in lits:
        for c in symmetry.atom_info[abs(lit)][1]:
            cls = types[c]
            if cls in type_names and c not in variable:
                tname = type_names[cls]
                counters[tname] = counters.get(tname, 0) + 1
                variable[c] = Variable(f"{prefixes[tname]}{counters[tname]}", tname)

    def atom(lit: int) -> Formula:
        pred, args = symmetry.atom_info[abs(lit)]
        a = PredAtom(pred, tuple(variable.get(c, Constant(c)) for c in args))
        return a if lit > 0 else Not(a)

    by_type: dict[str, list[Variable]] = {}
    for v in variable.values():
        by_type.setdefault(v.domain, []).append(v)
    distinct = [Not(Equals(a, b)) for vs in by_type.values() for a, b in itertools.combinations(vs, 2)]
    body = [atom(l) for l in schema.body]
    if schema.conclusion is None:
        clause = Or(tuple(Not(b) if not isinstance(b, Not) else b.arg for b in body)) if len(body) > 1 else (
            Not(body[0]) if body and not isinstance(body[0], Not) else (body[0].arg if body else Truth(False)))
        return Implies(_conj(distinct), clause) if distinct else clause
    head = atom(schema.conclusion)
    premise = body + distinct
    return Implies(_conj(premise), head) if premise else head


def _conj(parts: list[Formula]) -> Formula:
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def lift(mln: GroundMLN, symmetry: Symmetry, schemas: list[Schema], model: FirstOrderMLN | None = None) -> LiftedTheory:
    """The lifted theory of the schemas with the MLN's hard formulas, certain.

    With the first-order ``model``, its hard formulas are written first-order over
    variables of their domains (as in the MLN); otherwise, and for those with ``EXIST``,
    functional constraints and evidence, ground.
    """
    type_names = _type_names(symmetry)
    class_types = [(type_names[i], cls) for i, cls in enumerate(symmetry.classes) if i in type_names]
    liftable = _liftable_hard(model)
    domain_types = {d: model.domain_map[d] for _, types in liftable for d in types.values()} if model else {}
    types = dict(class_types)
    types.update(domain_types)
    prefixes = variable_prefixes(types, atom_constants(mln.atoms))
    formulas = _hard_rules(mln, liftable, prefixes)
    for s in schemas:
        origin = ("blocking " if s.conclusion is None else "") + describe(s.evidence, mln)
        formulas.append(PossibilisticFormula(variabilize(s, symmetry, type_names, prefixes), s.level, origin))
    formulas.sort(key=lambda pf: pf.level)  # stable: the order the file formats write
    return LiftedTheory(tuple(sorted(types.items())), tuple(formulas), mln.atoms, mln.resolution)


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
        out.append(PossibilisticFormula(formula, INF, template_source(template)))
    lifted_sources = {template_source(t) for t, _ in liftable}
    out.extend(PossibilisticFormula(_named(wf.formula, mln), INF, wf.source)
               for wf in mln.hard if wf.source not in lifted_sources)
    return out


def _named(f: Formula, mln: GroundMLN) -> Formula:
    """A ground formula with named atoms (PredAtom leaves) instead of ints."""
    from ..atoms import map_leaves

    def leaf(a):
        pred, args = split_atom(mln.name(a.index))
        return PredAtom(pred, tuple(Constant(c) for c in args))

    return map_leaves(f, leaf)




def filter_lifted(lt: LiftedTheory, mode: str) -> LiftedTheory:
    """Redundancy filtering of first-order rules: a rule goes when its groundings follow
    from the groundings of the other remaining rules.

    For the rules of evidence classes (finite levels) one grounding is tested: their
    variables range over interchangeable constants and are pairwise distinct, so their
    groundings are images of each other under symmetries of the theory, and one follows
    exactly when all do.  Certain rules (the MLN's hard formulas, over whole domains and
    without ``!=``) are tested with all their groundings.
    """
    from ..possibilistic.filtering import formula_length, redundant_order

    if mode == "none":
        return lt  # other modes are checked by redundant_order
    groundings = [lt.groundings(pf) for pf in lt.formulas]
    kept = redundant_order(
        len(lt.atoms),
        [pf.level for pf in lt.formulas],
        [formula_length(pf.formula) for pf in lt.formulas],
        [conjunction(g) for g in groundings],
        [conjunction(g) if pf.level == INF or not g else g[0] for pf, g in zip(lt.formulas, groundings)],
        mode,
    )
    return LiftedTheory(lt.types, tuple(pf for pf, k in zip(lt.formulas, kept) if k), lt.atoms, lt.resolution)
