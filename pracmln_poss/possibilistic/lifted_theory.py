"""Lifted possibilistic theories: first-order rules over typed variables.

A :class:`LiftedTheory` keeps the types (interchangeable constants) with its rules and
grounds back to a :class:`~.theory.PossibilisticTheory` over the MLN's atoms; questions
(:mod:`pracmln_poss.possibilistic.inference`) are answered on that grounding.  Its rules
are written in pracmln's syntax, variables named after their type's prefix (``p1``,
``p2``: different variables of a type stand for different constants), and read back by
:func:`read_rule`.
"""

from __future__ import annotations

__all__ = ["LiftedTheory", "MAX_GROUNDINGS", "atom_constants", "variable_prefixes", "read_rule", "type_variables"]

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import cast

from ..arguments import flag
from ..errors import FormulaSyntaxError, ModelError, PossError, SourcePosition, UnknownNameError
from ..logic.formula import (
    And,
    Atom,
    Constant,
    Equals,
    Exists,
    Fold,
    Formula,
    Iff,
    Implies,
    NodeMemo,
    Not,
    Or,
    PredAtom,
    Term,
    Truth,
    Variable,
    conjunction,
    map_terms,
    simplified_iff,
    simplified_implies,
    simplified_junction,
    simplified_not,
    variables_of,
)
from ..logic.syntax import Shapes, atom_name, format_formula, parse_formula, parse_with_leaves, split_atom
from ..model.signature import ProductAtoms
from ..weights import INF, Resolution
from .theory import Displayed, Level, LevelsInUnits, PossibilisticFormula, PossibilisticTheory

MAX_GROUNDINGS = 10_000_000
"""Above this many groundings a lifted theory is not grounded unless forced (as models
are not: :data:`~pracmln_poss.model.grounding.MAX_GROUND_FORMULAS`)."""


@dataclass(frozen=True, repr=False)
class LiftedTheory(LevelsInUnits, Displayed):
    """First-order possibilistic rules over typed variables, with their types.

    :ivar types: type name -> its constants (one type per interchangeable class of
        two or more constants).
    :ivar formulas: rules whose variables carry their type; certain formulas are ground.
    :ivar atoms: the ground atoms the theory grounds over (the MLN's): a tuple, or a
        model's :class:`~pracmln_poss.model.signature.ProductAtoms`, which is written
        as its predicates and domains.
    """

    types: tuple[tuple[str, tuple[str, ...]], ...]
    formulas: tuple[PossibilisticFormula, ...]
    atoms: Sequence[str]
    resolution: Resolution
    made_by: str | None = field(default=None, compare=False)
    """How it was made (the command, as its file records it: :func:`~pracmln_poss.formats.codec.dumps`)."""
    note: str | None = field(default=None, compare=False)
    """How its domains were searched (a domain reduced, or why not), as its file records it."""

    def __post_init__(self) -> None:
        for i, pf in enumerate(self.formulas):
            if pf.resolution != self.resolution:  # (its steps would be read in another unit)
                raise ModelError(f"rule {i + 1} counts its steps at resolution {pf.resolution}, the theory at "
                                 f"{self.resolution}")

    def with_formulas(self, formulas: Iterable[PossibilisticFormula]) -> LiftedTheory:
        """The same types and atoms with other rules."""
        return replace(self, formulas=tuple(formulas))

    def groundings(self, pf: PossibilisticFormula) -> list[Formula]:
        """The ground instances of one rule over the theory's atoms (tautologies left out).

        :raises ModelError: for a rule that mentions an atom outside the theory's atoms.
        """
        return self._groundings(pf, _rule_variables(pf.formula), _Walks(self._numbers, dict(self.types)))

    def _groundings(self, pf: PossibilisticFormula, variables: tuple[Variable, ...], walks: _Walks) -> list[Formula]:
        """:meth:`groundings`, given the rule's variables; ``walks`` keeps the groundings
        of its parts for the next rules."""
        out = []
        for walk in walks.of(variables):
            grounded = walk(pf.formula)
            if grounded is None:
                raise ModelError(f"rule {pf.formula} mentions an atom outside the model")
            if not (isinstance(grounded, Truth) and grounded.value):
                out.append(grounded)
        return out

    @property
    def atom_numbers(self) -> dict[str, int]:
        """Atom name -> its number (from 1, in the order of the atoms); not to be changed."""
        return self._numbers

    @cached_property
    def rule_variables(self) -> tuple[tuple[Variable, ...], ...]:
        """Per rule, its distinct variables by name (the order :meth:`groundings` binds them in)."""
        sides = NodeMemo(lambda side: frozenset(variables_of(side)))
        made: dict[tuple[frozenset[Variable], frozenset[Variable]], tuple[Variable, ...]] = {}
        return tuple(_rule_variables(pf.formula, sides, made) for pf in self.formulas)

    @cached_property
    def _numbers(self) -> dict[str, int]:
        """Atom name -> its number (from 1, in the order of :attr:`atoms`)."""
        return {n: i for i, n in enumerate(self.atoms, 1)}

    def __len__(self) -> int:
        return len(self.formulas)

    def __iter__(self) -> Iterator[PossibilisticFormula]:
        return iter(self.formulas)

    def ground_formula(self, rule: str | Formula) -> Formula:
        """Every grounding of ``rule`` (a formula over this theory's typed variables, e.g.
        ``s(p1) ^ f(p1,p2) ^ p1 != p2 => s(p2)``, or a ground one) as one ground formula
        over the theory's atoms: their conjunction."""
        if isinstance(rule, str):
            prefix_of = {prefix: name for name, prefix in self.prefixes().items()}
            try:
                rule = read_rule(rule, prefix_of, self.constants())
            except PossError as exc:
                named = ", ".join(f"{prefix}1, {prefix}2, ... ({name})" for name, prefix in sorted(self.prefixes().items()))
                hint = f"; this theory's variables are named after their type: {named}" if named else ""
                raise UnknownNameError(exc.message + hint) from None
        return conjunction(self.groundings(PossibilisticFormula(rule, INF, None, self.resolution)))

    def format(self, f: Formula) -> str:
        """A rule in pracmln syntax."""
        return format_formula(f)

    def prefixes(self) -> dict[str, str]:
        """Type name -> the prefix of its variables (:func:`variable_prefixes`)."""
        return variable_prefixes((name for name, _ in self.types), self.constants())

    def constants(self) -> set[str]:
        """Every constant the theory's atoms name."""
        if isinstance(self.atoms, ProductAtoms):
            return set(self.atoms.signature.constants)
        return atom_constants(self.atoms)

    def grounding_size(self) -> int:
        """How many groundings the rules have in all (before tautologies are left out),
        from the types' sizes alone."""
        sizes = {name: len(constants) for name, constants in self.types}
        return sum(math.prod(sizes.get(v.domain or "", 0) for v in variables) for variables in self.rule_variables)

    def ground(self, force: bool = False) -> PossibilisticTheory:
        """Every grounding of every rule over its types (``!=`` respected): a ground theory.

        :raises ModelError: above :data:`MAX_GROUNDINGS` groundings, unless ``force``.
        """
        return self.ground_with_sources(force)[0]

    def ground_with_sources(self, force: bool = False) -> tuple[PossibilisticTheory, tuple[int, ...]]:
        """:meth:`ground`, and per ground formula the index of the rule it grounds (the
        first one, when several rules share a grounding at the same level)."""
        self.check_grounding_size(force)
        return self._grounding

    def atoms_only(self) -> PossibilisticTheory:
        """A ground theory over the same atoms with no formulas: what names (and checks)
        ground evidence, queries and formulas, without grounding a rule."""
        return PossibilisticTheory(tuple(self.atoms), (), self.resolution, self.made_by)

    def check_grounding_size(self, force: bool = False) -> None:
        """Refuse to ground above :data:`MAX_GROUNDINGS` groundings unless ``force``
        (checked from the types' sizes, before a single grounding is made).

        :raises ModelError: when there are more.
        """
        flag("force", force)
        size = self.grounding_size()
        if size > MAX_GROUNDINGS and not force:
            raise ModelError(f"the theory's rules have {size:,} groundings, more than {MAX_GROUNDINGS:,}: "
                             "give it smaller types or force it (--force; force=True)")

    def ground_below(self, steps: Level) -> tuple[PossibilisticFormula, ...]:
        """The formulas of :meth:`ground` below the level ``steps`` (int steps), in its
        order, grounding only the rules below it: a grounding is told apart from the
        others at its own level only, so these are exactly those of the whole grounding."""
        below = [pf for pf in self.formulas if pf.steps < steps]
        if not below:
            return ()
        if len(below) == len(self.formulas):
            return self._grounding[0].formulas
        return self.with_formulas(below)._grounding[0].formulas

    @cached_property
    def _grounding(self) -> tuple[PossibilisticTheory, tuple[int, ...]]:
        """:meth:`ground_with_sources`, made once (each question grounds the theory)."""
        out: list[PossibilisticFormula] = []
        sources: list[int] = []
        seen: set[tuple[Formula, Level]] = set()
        walks = _Walks(self._numbers, dict(self.types))  # (the rules, and so their parts, live through the loop)
        for i, (pf, variables) in enumerate(zip(self.formulas, self.rule_variables)):
            for grounded in self._groundings(pf, variables, walks):
                key = (grounded, pf.steps)
                if key not in seen:
                    seen.add(key)
                    out.append(PossibilisticFormula(grounded, pf.steps, pf.origin, self.resolution))
                    sources.append(i)
        return PossibilisticTheory(tuple(self.atoms), tuple(out), self.resolution, self.made_by), tuple(sources)


def _rule_variables(f: Formula, sides: NodeMemo[frozenset[Variable]] | None = None,
                    made: dict[tuple[frozenset[Variable], frozenset[Variable]], tuple[Variable, ...]] | None = None,
                    ) -> tuple[Variable, ...]:
    """The distinct variables of a rule, by name (``sides``: those of each side of an
    ``=>``, remembered for rules that share their sides; ``made``: the answer per pair
    of sides' variables, one tuple for the rules that have the same)."""
    if sides is None or not isinstance(f, Implies):
        return _by_name(variables_of(f))
    pair = (sides(f.left), sides(f.right))  # (a memo's own sets: their hashes are kept)
    if made is None:
        return _by_name(pair[0] | pair[1])
    got = made.get(pair)
    if got is None:
        got = made[pair] = _by_name(pair[0] | pair[1])
    return got


def _by_name(variables: Iterable[Variable]) -> tuple[Variable, ...]:
    return tuple(sorted(set(variables), key=lambda v: v.name))


_UNKNOWN = object()


class _Walks:
    """What grounding the rules of one theory keeps from rule to rule: a grounding walk
    per binding (:class:`_Grounding`), the walks of each variables' tuple (by identity,
    holding the tuple), and the groundings of the parts of the rules (``leaves``)."""

    def __init__(self, numbers: dict[str, int], types: dict[str, tuple[str, ...]]) -> None:
        self.numbers = numbers
        self.types = types
        self.leaves: dict[tuple[int, int], Formula | None] = {}
        self._by_binding: dict[tuple[tuple[str, ...], tuple[str, ...]], _Grounding] = {}
        self._by_variables: dict[int, tuple[tuple[Variable, ...], list[_Grounding]]] = {}

    def of(self, variables: tuple[Variable, ...]) -> list[_Grounding]:
        """A walk per binding of ``variables``, in :func:`itertools.product`'s order."""
        got = self._by_variables.get(id(variables))
        if got is not None and got[0] is variables:
            return got[1]
        names = tuple(v.name for v in variables)
        walks = []
        for values in itertools.product(*(self.types[v.domain or ""] for v in variables)):
            walk = self._by_binding.get((names, values))
            if walk is None:
                walk = self._by_binding[(names, values)] = _Grounding(
                    self.numbers, names, values, self.leaves, len(self._by_binding))
            walks.append(walk)
        self._by_variables[id(variables)] = (variables, walks)
        return walks


class _Grounding(Fold["Formula | None"]):
    """One grounding of a rule, made in one walk: its variables bound to constants, each
    atom numbered over the theory's atoms, each equality decided, and the result
    simplified as :func:`~pracmln_poss.logic.formula.substitute_atoms` simplifies (every
    part of a junction made, so that an atom outside the theory is always found); None
    when an atom is outside the theory.

    A theory's rules share their atoms (its reader makes one object of each atom's
    text), and a read theory's rules the sides of their ``=>``, negated atoms included:
    ``leaves`` keeps the grounding of each atom, equality, conjunction and negation by the
    object's identity and the binding, for objects that outlive it (the rules being
    grounded); a grounding depends on the node and the binding alone."""

    doing = "ground"

    def __init__(self, numbers: dict[str, int], names: tuple[str, ...], values: tuple[str, ...],
                 leaves: dict[tuple[int, int], Formula | None], key: int) -> None:
        self.numbers = numbers
        self.binding = dict(zip(names, values))
        self.key = key  # (the binding's number among those ``leaves`` holds groundings for)
        self.leaves = leaves

    def __call__(self, f: Formula) -> Formula | None:
        if type(f) is PredAtom or type(f) is Equals or type(f) is And or type(f) is Not:
            key = (id(f), self.key)
            out = self.leaves.get(key, _UNKNOWN)
            if out is _UNKNOWN:
                out = self.leaves[key] = super().__call__(f)
            return cast("Formula | None", out)
        return super().__call__(f)

    def name(self, t: Term) -> str:
        return self.binding[t.name] if isinstance(t, Variable) else t.name

    def atom(self, f: Atom) -> Formula | None:
        return f

    def truth(self, f: Truth) -> Formula | None:
        return f

    def pred_atom(self, f: PredAtom) -> Formula | None:
        number = self.numbers.get(atom_name(f.pred, tuple(self.name(t) for t in f.args)))
        return None if number is None else Atom(number)

    def equals(self, f: Equals) -> Formula | None:
        return Truth(self.name(f.left) == self.name(f.right))

    def not_(self, f: Not, arg: Formula | None) -> Formula | None:
        return None if arg is None else simplified_not(arg)

    def and_(self, f: And, parts: Iterator[Formula | None]) -> Formula | None:
        made = list(parts)
        return None if None in made else simplified_junction(And, cast("list[Formula]", made))

    def or_(self, f: Or, parts: Iterator[Formula | None]) -> Formula | None:
        made = list(parts)
        return None if None in made else simplified_junction(Or, cast("list[Formula]", made))

    def implies(self, f: Implies, left: Formula | None, right: Formula | None) -> Formula | None:
        return None if left is None or right is None else simplified_implies(left, right)

    def iff(self, f: Iff, left: Formula | None, right: Formula | None) -> Formula | None:
        return None if left is None or right is None else simplified_iff(left, right)

    def exists(self, f: Exists, body: Formula | None) -> Formula | None:
        raise ModelError("EXIST is not allowed in a ground formula")


def atom_constants(atoms: Iterable[str]) -> set[str]:
    """Every constant that ground atom names (``pred(A,B)``) mention."""
    return {c for atom in atoms for c in split_atom(atom)[1] if c}


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


def read_rule(text: str, prefix_of: dict[str, str], known: set[str], position: SourcePosition | None = None,
              leaves: dict[str, Formula] | None = None, shapes: Shapes | None = None) -> Formula:
    """A first-order rule of a lifted theory: every term is read as a constant, then
    PREFIX<digits> of a declared prefix is a variable of its type (constants of
    PRACGrammar models may start lower-case: ``color(C1,blue)``).

    ``leaves``, kept by the caller across the rules of one theory, holds each atom's
    text read once (a theory of 370,000 rules names a few thousand atoms), and ``shapes``
    each shape of a rule (its connectives around its atoms) parsed once.

    :raises FormulaSyntaxError: for a name that is neither a constant of ``known`` (when
        given) nor a variable of a type, naming the position.
    """
    if leaves is not None:
        try:
            typed = parse_with_leaves(text, leaves, lambda leaf: _checked(type_variables(leaf, prefix_of), known),
                                      shapes)
        except PossError:  # (read again below, to say what is wrong where)
            typed = None
        if typed is not None:
            return typed
    return _checked(type_variables(parse_formula(text, ground=True, position=position), prefix_of), known, position)


def _checked(typed: Formula, known: set[str], position: SourcePosition | None = None) -> Formula:
    """``typed``, whose constants are all ``known`` (when given).

    :raises FormulaSyntaxError: naming the first constant that is not, at ``position``.
    """
    if known:
        unknown: list[str] = []

        def check(t: Term) -> Term:
            if isinstance(t, Constant) and t.name not in known:
                unknown.append(t.name)
            return t

        map_terms(typed, check)
        if unknown:
            raise FormulaSyntaxError(
                f"{unknown[0]!r} is neither a constant of the theory's atoms nor a variable of a #type", position
            )
    return typed


def type_variables(f: Formula, prefix_of: dict[str, str]) -> Formula:
    """Terms named PREFIX<digits> after a declared prefix become variables of its type
    (``p3`` is of the type declared with prefix ``p``); other terms stay constants (the
    writer picks prefixes no constant of the theory looks like)."""

    def term(t: Term) -> Term:
        name = t.name
        prefix = name.rstrip("0123456789")
        if prefix != name and prefix in prefix_of:
            return Variable(name, prefix_of[prefix])
        return t if isinstance(t, Constant) else Constant(name)

    return map_terms(f, term)
