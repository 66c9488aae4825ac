"""Names at the edges: the mixin that maps atom names to ints and formula text to trees
(:class:`NamedAtoms`), and evidence as a caller gives it (``Evidence``).

Ground MLNs and possibilistic theories both hold ``atoms``, a tuple of names where
atom ``i`` (an int from 1) is ``atoms[i - 1]``; this mixin gives them the lookups.
"""

from __future__ import annotations

__all__ = ["predicate_of", "split_atom", "NamedAtoms", "Evidence", "EvidenceItem", "evidence_items"]

import difflib
from collections.abc import Iterable
from functools import cached_property

from .errors import ArgumentTypeError, FormulaSyntaxError, UnknownNameError
from .logic.formula import (
    Atom,
    Equals,
    Formula,
    PredAtom,
    Truth,
    Valuation,
    is_literal,
    literal_of,
)
from .logic.leaves import ground_leaf_name, map_leaves
from .logic.syntax import atom_name, compact_atom, format_formula, parse_formula, parse_literal, split_atom
from .pracmln_database import database_literals, pracmln_database

EvidenceItem = int | str | Formula
"""One piece of evidence: a DIMACS literal (``3``, ``-3``), literal or formula text
(``"!bird(Tweety)"``, ``"a v b"``), or a ground formula tree."""
Evidence = Iterable[EvidenceItem]


def predicate_of(atom: str) -> str:
    """The predicate name of a ground atom name (``f(A,B)`` -> ``f``)."""
    return atom.partition("(")[0]


def evidence_items(items: object) -> Evidence:
    """``items`` as a collection of evidence (None: none); a lone string is refused, as it
    would be read one character at a time.

    :raises ArgumentTypeError: naming ``evidence``.
    """
    if items is None:
        return ()
    database = pracmln_database(items)
    if database is not None:
        return database_literals(database)
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        hint = f"; write [{items!r}]" if isinstance(items, str) else ""
        shown = repr(items) if len(repr(items)) <= 60 else repr(items)[:57] + "..."
        raise ArgumentTypeError(f"evidence takes a list of literals or formulas (e.g. ['bird(Tweety)']), not "
                                f"{type(items).__name__} {shown}{hint}")
    return items


class NamedAtoms:
    """Lookups between atom names and ints, for classes with an ``atoms`` tuple."""

    atoms: tuple[str, ...]

    @cached_property
    def _index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.atoms, 1)}

    @property
    def n_atoms(self) -> int:
        return len(self.atoms)

    def atom(self, name: str) -> int:
        """The int of an atom name (spaces inside the name are ignored, but for those in
        quoted constants).

        :raises UnknownNameError: saying whether the predicate, its arity or a constant
            is wrong, with the closest atom names.
        """
        try:
            return self._index[compact_atom(name)]
        except KeyError:
            raise UnknownNameError(f"unknown atom {name!r}: {self._why_unknown(compact_atom(name))}") from None

    def _why_unknown(self, name: str) -> str:
        """What is wrong with an atom name that is not one of ours, and the closest ones."""
        pred, args = split_atom(name)
        by_pred: dict[str, list[tuple[str, ...]]] = {}
        for known in self.atoms:
            p, known_args = split_atom(known)
            by_pred.setdefault(p, []).append(known_args)
        close = difflib.get_close_matches(name, self.atoms, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        if pred not in by_pred:
            preds = difflib.get_close_matches(pred, list(by_pred), n=3, cutoff=0.5)
            known = f"did you mean {', '.join(preds)}?" if preds else f"its predicates: {', '.join(sorted(by_pred))}"
            return f"no predicate {pred!r} ({known})"
        arities = {len(a) for a in by_pred[pred]}
        if len(args) not in arities:
            return f"{pred} takes {' or '.join(map(str, sorted(arities)))} argument(s), not {len(args)}{hint}"
        for i, arg in enumerate(args):
            values = sorted({a[i] for a in by_pred[pred] if len(a) == len(args)})
            if arg not in values:
                shown = ", ".join(values[:8]) + (", ..." if len(values) > 8 else "")
                return f"{arg!r} is not a constant of argument {i + 1} of {pred} ({shown}){hint}"
        return f"no such atom{hint}"

    def name(self, atom: int) -> str:
        return self.atoms[atom - 1]

    def literal_name(self, lit: int) -> str:
        return self.name(lit) if lit > 0 else "!" + self.name(-lit)

    def named(self, world: Valuation) -> dict[str, bool]:
        """A world (indexed by atom int) as atom name -> truth value, in atom order."""
        return {name: bool(world[a]) for a, name in enumerate(self.atoms, 1)}

    def format(self, f: Formula) -> str:
        """A ground formula in pracmln syntax with this object's atom names."""
        return format_formula(f, self.name)

    def literal(self, text: str | int) -> int:
        """A DIMACS literal from ``"!bird(Tweety)"`` (or an int, checked)."""
        if isinstance(text, int):
            if not 1 <= abs(text) <= self.n_atoms:
                raise UnknownNameError(f"unknown atom index {abs(text)}")
            return text
        item = self.literal_or_formula(text)
        if not isinstance(item, int):
            raise UnknownNameError(f"{text!r} is not a literal")
        return item

    def literal_or_formula(self, text: str) -> int | Formula:
        """A literal as its int, any other ground formula as a tree (for evidence)."""
        try:
            positive, atom = parse_literal(text)
        except FormulaSyntaxError:
            return self.formula(text)
        index = self.atom(atom_name(atom.pred, tuple(t.name for t in atom.args)))
        return index if positive else -index

    def evidence(self, items: Evidence) -> tuple[int | Formula, ...]:
        """Evidence normalised, the one place it is: each item a checked DIMACS literal
        (literal formulas included) or a ground formula that is not a literal, in the
        order given, repeats dropped.

        :raises UnknownNameError: for an atom these atoms do not have.
        :raises FormulaSyntaxError: for text that is not a formula.
        """
        out: dict[int | Formula, None] = {}
        for item in evidence_items(items):
            if not isinstance(item, (int, str, Formula)) or isinstance(item, bool):
                raise ArgumentTypeError(f"evidence takes literals (ints, text) or formulas, not "
                                        f"{type(item).__name__} {item!r}")
            if isinstance(item, str):
                item = self.literal_or_formula(item)
            if isinstance(item, int):
                out[self.literal(item)] = None
                continue
            f = self.formula(item)  # checks the atoms of a ready-made tree
            out[literal_of(f) if is_literal(f) else f] = None
        return tuple(out)

    def split_evidence(self, items: Evidence) -> tuple[tuple[int, ...], tuple[Formula, ...]]:
        """:meth:`evidence` as (unit literals, other ground formulas)."""
        normal = self.evidence(items)
        return tuple(x for x in normal if isinstance(x, int)), tuple(x for x in normal if not isinstance(x, int))

    def formula(self, text: str | Formula, grammar: str = "StandardGrammar") -> Formula:
        """A ground formula over these atoms, from text or an already-built tree."""
        tree = parse_formula(text, grammar, ground=True) if isinstance(text, str) else text

        def leaf(a: Atom | PredAtom | Equals) -> Formula:
            if isinstance(a, Atom):
                self.literal(a.index)
                return a
            key = ground_leaf_name(a)
            return Truth(key) if isinstance(key, bool) else Atom(self.atom(key))

        return map_leaves(tree, leaf)
