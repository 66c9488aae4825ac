"""Interchangeable constants (the paper's Section 4): their classes, and renamings
within them.

Two constants of a domain are interchangeable when swapping them maps the ground MLN
(soft formulas with their weights, hard formulas, evidence) onto itself.  Swaps that
are symmetries compose, so the maximal interchangeable sets are the classes of the
"swap is a symmetry" relation; each class becomes a type.  :class:`Symmetry` holds the
classes (found by :func:`~.interchangeability.find_symmetry`) and what renaming within
them does to atoms and literals: images, frames, shapes, kept in memos that stay in
the process that grew them (a worker is sent the classes alone, and grows its own).

Evidence sets that differ only by a renaming of interchangeable constants have the
same penalty and consequences (renamed): :mod:`.canonical` gives each set its class's
representative, and :mod:`.representatives` enumerates and counts one set per class.
"""

from __future__ import annotations

__all__ = ["Symmetry", "Memo", "PERMUTATION_LIMIT", "renamings", "rename", "used_constants"]

import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from typing import TypeVar

from ..atoms import split_atom
from ..model.ground_mln import GroundMLN
from .evidence import EvidenceSet

_V = TypeVar("_V")


@dataclass
class _Renaming:
    """A renaming completed to a permutation of constants, the atoms it moves (atom ->
    its image), and the inverse of that once asked for."""

    full: dict[str, str]
    moved: dict[int, int]
    inverse: dict[int, int] | None = None


@dataclass(frozen=True)
class Symmetry:
    """The interchangeable classes of constants of a ground MLN.

    :ivar classes: per domain, its classes of interchangeable constants (singletons included).
    :ivar atom_args: per atom int, its predicate and arguments.
    """

    mln: GroundMLN
    domains: tuple[tuple[str, tuple[str, ...]], ...]
    classes: tuple[tuple[str, ...], ...]

    @cached_property
    def atom_info(self) -> list[tuple[str, tuple[str, ...]]]:
        """Per atom int (index 0 unused), its predicate and arguments."""
        return [("", ())] + [split_atom(name) for name in self.mln.atoms]

    @cached_property
    def atom_index(self) -> dict[tuple[str, tuple[str, ...]], int]:
        """(predicate, arguments) -> atom int."""
        return {key: i for i, key in enumerate(self.atom_info) if i}

    def uses(self, atom: int) -> list[tuple[str, tuple[object, ...]]]:
        """The atom's renamable constants with how the atom uses each: the predicate and,
        per argument, that constant, a fixed constant, or another of a class."""
        types, classes = self.types, self.classes
        pred, args = self.atom_info[atom]
        return [(c, (pred, tuple((0,) if a == c else (1, a) if len(classes[types[a]]) < 2 else (2, types[a])
                                 for a in args)))
                for c in dict.fromkeys(args) if len(classes[types[c]]) > 1]

    def shape(self, lit: int) -> tuple[object, ...]:
        """The literal's shape: its sign, predicate, constants of singleton classes, and
        the classes of its other constants with the place where each first occurs."""
        classes, types = self.classes, self.types
        pred, args = self.atom_info[abs(lit)]
        return (lit > 0, pred, tuple((0, a, 0) if len(classes[types[a]]) < 2 else (1, types[a], args.index(a))
                                     for a in args))

    @cached_property
    def use_codes(self) -> dict[int, tuple[tuple[str, int], ...]]:
        """Per literal (computed when first asked for), its renamable constants with how it
        uses each (:meth:`uses` and its sign), each use replaced by its rank among all
        uses (ints compare faster than the tuples, in the same order): a constant's
        fingerprint is the sorted list of these, and an entry of the ``p``-th part of
        :func:`~.canonical.canonical_parts` is ``p * 2**32 + rank``."""
        # a renaming keeps uses, so the atoms of one frame have them all
        ranks = {use: i for i, use in enumerate(sorted({(sign, use) for a in self.frame_atoms({})
                                                        for _, use in self.uses(a) for sign in (False, True)}))}
        return Memo(lambda lit: tuple((c, ranks[lit > 0, use]) for c, use in self.uses(abs(lit))))

    @cached_property
    def shape_rank(self) -> dict[int, int]:
        """Per literal (computed when first asked for), the rank of its :meth:`shape` among
        all shapes.  A renaming keeps a literal's shape; :func:`~.representatives.extensions` grows sets by
        a literal of the largest shape only."""
        order = {shape: i for i, shape in enumerate(sorted({self.shape(l) for a in self.frame_atoms({})
                                                             for l in (a, -a)}))}
        return Memo(lambda lit: order[self.shape(lit)])

    @cached_property
    def memo(self) -> dict[EvidenceSet, tuple[EvidenceSet, dict[str, str]]]:
        """Canonical images (and renamings onto them) computed so far: the search asks often."""
        return {}

    @cached_property
    def types(self) -> dict[str, int]:
        """Constant -> index of its class (a constant of two domains is a singleton in each)."""
        return {c: i for i, cls in enumerate(self.classes) for c in cls}

    @cached_property
    def permutations(self) -> dict[tuple[tuple[str, str], ...], _Renaming]:
        """Renamings asked for so far, completed, with the atoms they move."""
        return {}

    @cached_property
    def atoms_with(self) -> dict[str, list[int]]:
        """Constant -> the atoms that have it as an argument (in order)."""
        out: dict[str, list[int]] = {}
        for a, (_pred, args) in enumerate(self.atom_info):
            for c in dict.fromkeys(args):
                out.setdefault(c, []).append(a)
        return out

    @cached_property
    def places(self) -> dict[str, tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]]:
        """Per predicate, per argument place: the constants of singleton classes that
        occur there, and the other classes whose constants do (in order of first occurrence)."""
        seen: dict[str, list[dict[str, None]]] = {}
        for pred, args in self.atom_info[1:]:
            found = seen.get(pred)
            if found is None:
                found = seen[pred] = [{} for _ in args]
            for i, c in enumerate(args):
                found[i][c] = None
        types, classes = self.types, self.classes
        return {pred: tuple((tuple(c for c in constants if len(classes[types[c]]) < 2),
                             tuple(dict.fromkeys(types[c] for c in constants if len(classes[types[c]]) > 1)))
                            for constants in found)
                for pred, found in seen.items()}

    def frame_atoms(self, used: Mapping[int, Collection[str]]) -> list[int]:
        """The atoms whose renamable constants outside ``used`` (class -> constants) are
        the first ones of their class that ``used`` leaves, in order of first occurrence
        in the atom: the smallest atom of each orbit of the renamings that fix the
        constants of ``used`` (:meth:`in_frame` maps any atom onto it), in order.  Their
        number does not grow with a class's size."""
        classes = self.classes
        key = tuple(sorted((cls, tuple(sorted(cs))) for cls, cs in used.items() if len(classes[cls]) > 1 and cs))
        found = self._frames.get(key)
        if found is None:
            found = self._frames[key] = self._frame_of(used)
        return list(found)

    @cached_property
    def _frames(self) -> dict[tuple[tuple[int, tuple[str, ...]], ...], tuple[int, ...]]:
        """Frames found so far, by the renamable constants they fix (a search asks for the
        few of its representatives' constants again and again)."""
        return {}

    def _frame_of(self, used: Mapping[int, Collection[str]]) -> tuple[int, ...]:
        """:meth:`frame_atoms`, computed."""
        index = self.atom_index
        fixed, varying = self._frame_parts
        arity = max((len(places) for places in varying.values()), default=0)
        # (an atom takes at most one fresh constant per place)
        free = {cls: self._unused(cls, used, arity) for places in varying.values() for _, big in places
                for cls in big}
        out: list[int] = list(fixed)
        for pred, places in varying.items():
            stack: list[tuple[tuple[str, ...], dict[int, int]]] = [((), {})]
            while stack:
                args, taken = stack.pop()
                if len(args) == len(places):
                    a = index.get((pred, args))
                    if a is not None:
                        out.append(a)
                    continue
                singles, big = places[len(args)]
                stack.extend((args + (c,), taken) for c in singles)
                for cls in big:
                    n = taken.get(cls, 0)
                    stack.extend((args + (c,), taken) for c in (*used.get(cls, ()), *free[cls][:n]))
                    if n < len(free[cls]):
                        stack.append((args + (free[cls][n],), {**taken, cls: n + 1}))
        return tuple(sorted(out))

    @cached_property
    def _frame_parts(self) -> tuple[list[int], dict[str, tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]]]:
        """The atoms of the predicates with no renamable constant (in every frame), and
        the places of the other predicates."""
        varying = {pred: places for pred, places in self.places.items() if any(big for _, big in places)}
        return [a for a in range(1, self.mln.n_atoms + 1) if self.atom_info[a][0] not in varying], varying

    def in_frame(self, used: Mapping[int, Collection[str]], atom: int) -> int:
        """The atom of :meth:`frame_atoms` of ``used`` in the orbit of ``atom``: its
        renamable constants outside ``used`` renamed onto the first ones of their class
        that ``used`` leaves, in order of first occurrence."""
        pred, args = self.atom_info[atom]
        types, classes = self.types, self.classes
        mapping: dict[str, str] = {}
        counts: dict[int, int] = {}
        for c in args:
            cls = types[c]
            if c in mapping or len(classes[cls]) < 2 or c in used.get(cls, ()):
                continue
            n = counts.get(cls, 0)
            mapping[c] = self._unused(cls, used, n + 1)[n]
            counts[cls] = n + 1
        if not mapping:
            return atom
        return self.atom_index[pred, tuple([mapping.get(c, c) for c in args])]

    def _unused(self, cls: int, used: Mapping[int, Collection[str]], n: int) -> list[str]:
        """The first ``n`` constants of class ``cls`` (at most) that ``used`` leaves."""
        taken = used.get(cls, ())
        out: list[str] = []
        for c in self.classes[cls]:
            if len(out) >= n:
                break
            if c not in taken:
                out.append(c)
        return out

    def __getstate__(self) -> dict[str, object]:
        # pickled for worker processes as its fields alone: whatever is derived from them
        # (the memos: hundreds of thousands of canonical images at k = 4) stays in this
        # process, and a worker grows its own
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def image(self, mapping: dict[str, str], atom: int) -> int:
        """The atom that :meth:`extend` of ``mapping`` maps ``atom`` onto (memoised: the
        search renames by the same few renamings thousands of times)."""
        return self._renaming(mapping).moved.get(atom, atom)

    def preimage(self, mapping: dict[str, str], atom: int) -> int:
        """The atom that :meth:`extend` of ``mapping`` maps onto ``atom``."""
        found = self._renaming(mapping)
        if found.inverse is None:
            found.inverse = {b: a for a, b in found.moved.items()}
        return found.inverse.get(atom, atom)

    def transport(self, mapping: dict[str, str], values: Sequence[bool]) -> tuple[bool, ...]:
        """``(values[image(0)], values[image(1)], ...)``: the values of a world of a set
        that ``mapping`` maps onto a representative, from a world of the representative's
        (a copy, and a change per atom the renaming moves)."""
        out = list(values)
        for a, b in self._renaming(mapping).moved.items():
            out[a] = values[b]
        return tuple(out)

    @cached_property
    def _by_identity(self) -> dict[int, tuple[dict[str, str], _Renaming]]:
        """:meth:`_renaming`'s answers by the identity of the mapping asked about (the
        search asks again and again about the mappings of :attr:`memo`): each entry
        keeps its mapping alive, so that no other object can take its id."""
        return {}

    def _renaming(self, mapping: dict[str, str]) -> _Renaming:
        seen = self._by_identity.get(id(mapping))
        if seen is not None and seen[0] is mapping:
            return seen[1]
        key = tuple(sorted(mapping.items()))
        found = self.permutations.get(key)
        if found is None:
            if len(self.permutations) >= PERMUTATION_LIMIT:
                self.permutations.clear()
            full = self.extend(mapping)
            found = self.permutations[key] = _Renaming(full, self.moved(full))
        if len(self._by_identity) >= PERMUTATION_LIMIT:
            self._by_identity.clear()
        self._by_identity[id(mapping)] = (mapping, found)
        return found

    def moved(self, mapping: dict[str, str]) -> dict[int, int]:
        """The atoms a permutation of constants moves, each with its image (the atoms of
        the constants it moves, renamed: about 2n per constant for a binary predicate
        over n constants, not every atom)."""
        atoms_with = self.atoms_with
        touched = sorted({a for c, d in mapping.items() if c != d for a in atoms_with.get(c, ())})
        out = {}
        for a in touched:
            b = rename(a, mapping, self)
            if b != a:
                out[a] = b
        return out

    def permute(self, mapping: dict[str, str]) -> list[int]:
        """The atom permutation (index -> index, 0 unused) induced by a constant renaming
        (a permutation of constants; constants it leaves out stay)."""
        out = list(range(self.mln.n_atoms + 1))
        for a, b in self.moved(mapping).items():
            out[a] = b
        return out

    def extend(self, mapping: dict[str, str]) -> dict[str, str]:
        """An injective renaming within classes completed to a permutation of constants
        that moves no other constant: the targets it does not rename go, in class order,
        onto the renamed constants that are no target."""
        out = dict(mapping)
        types = self.types
        for cls in sorted({types[c] for c in mapping}):
            members = [c for c in mapping if types[c] == cls]
            targets = {mapping[c] for c in members}
            order = {c: i for i, c in enumerate(self.classes[cls])}
            open_sources = sorted(targets - set(members), key=order.__getitem__)
            open_targets = sorted(set(members) - targets, key=order.__getitem__)
            out.update(zip(open_sources, open_targets))
        return out


_K = TypeVar("_K")


class Memo(dict[_K, _V]):
    """A dict that computes a missing entry (and keeps it)."""

    def __init__(self, compute: Callable[[_K], _V]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: _K) -> _V:
        value = self[key] = self.compute(key)
        return value


def used_constants(lits: Iterable[int], symmetry: Symmetry) -> dict[int, list[str]]:
    """Class index -> the constants of that class the literals mention, in order of appearance."""
    info, types = symmetry.atom_info, symmetry.types
    used: dict[int, list[str]] = {}
    for lit in lits:
        for a in info[abs(lit)][1]:
            members = used.setdefault(types[a], [])
            if a not in members:
                members.append(a)
    return used


def renamings(lits: tuple[int, ...], symmetry: Symmetry, onto_first: bool = False) -> Iterator[dict[str, str]]:
    """Every injective renaming of the constants of ``lits`` within their classes; with
    ``onto_first``, only those onto the first constants of each class (enough to reach the
    smallest image)."""
    options = []
    for cls, members in used_constants(lits, symmetry).items():
        pool = symmetry.classes[cls][: len(members)] if onto_first else symmetry.classes[cls]
        options.append([dict(zip(members, targets)) for targets in itertools.permutations(pool, len(members))])
    for choice in itertools.product(*options):
        mapping: dict[str, str] = {}
        for part in choice:
            mapping.update(part)
        yield mapping


def rename(lit: int, mapping: dict[str, str], symmetry: Symmetry) -> int:
    """The literal with its constants renamed by ``mapping``."""
    pred, args = symmetry.atom_info[abs(lit)]
    a = symmetry.atom_index[pred, tuple([mapping.get(x, x) for x in args])]
    return a if lit > 0 else -a


PERMUTATION_LIMIT = 20_000
"""Renamings kept at most with their permutations (a list per atom each); then the
memo starts over."""
