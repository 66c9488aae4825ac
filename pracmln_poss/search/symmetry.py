"""Interchangeable constants (the paper's Section 4) and evidence sets up to renaming.

Two constants of a domain are interchangeable when swapping them maps the ground MLN
(soft formulas with their weights, hard formulas, evidence) onto itself.  Swaps that
are symmetries compose, so the maximal interchangeable sets are the classes of the
"swap is a symmetry" relation; each class becomes a type.  Constants named in
formulas or evidence usually stand alone, and the test finds that by itself.

Evidence sets that differ only by a renaming of interchangeable constants have the
same penalty and consequences (renamed).  :func:`representatives` enumerates one
evidence set per such class, of every size up to ``k``; :func:`canonical` gives the
class's representative of any set: constants are ordered by a fingerprint of how the
literals use them (cheap invariants), and the smallest image over the renamings that the
fingerprints leave open is taken (the exact isomorphism test).
"""

from __future__ import annotations

__all__ = ["Symmetry", "find_symmetry", "canonical", "canonical_map", "canonical_parts", "representatives", "extensions", "candidates", "examined", "set_order", "renamings", "rename", "used_constants", "Memo"]

import itertools
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from ..atoms import map_leaves, split_atom
from ..logic.formula import Atom, Formula, atoms_of
from ..model.ground_mln import GroundMLN, WeightedFormula
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
        :func:`canonical_parts` is ``p * 2**32 + rank``."""
        # a renaming keeps uses, so the atoms of one frame have them all
        ranks = {use: i for i, use in enumerate(sorted({(sign, use) for a in self.frame_atoms({})
                                                        for _, use in self.uses(a) for sign in (False, True)}))}
        return Memo(lambda lit: tuple((c, ranks[lit > 0, use]) for c, use in self.uses(abs(lit))))

    @cached_property
    def shape_rank(self) -> dict[int, int]:
        """Per literal (computed when first asked for), the rank of its :meth:`shape` among
        all shapes.  A renaming keeps a literal's shape; :func:`extensions` grows sets by
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
        # pickled for worker processes: the memos (hundreds of thousands of canonical
        # images at k = 4) stay in this process; a worker grows its own
        return {key: value for key, value in self.__dict__.items()
                if key not in ("memo", "permutations", "_by_identity", "atoms_with", "use_codes", "shape_rank",
                               "_frame_parts", "_frames")}

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


def _image(wf: WeightedFormula, perm: list[int]) -> tuple[int | float, Formula]:
    return wf.weight, map_leaves(wf.formula, lambda a: Atom(perm[a.index]) if isinstance(a, Atom) else a)


def _is_symmetry(formulas: list[WeightedFormula], perm: list[int]) -> bool:
    """Whether the atom permutation maps these formulas (with weights) onto themselves."""
    return Counter(_image(wf, perm) for wf in formulas) == Counter((wf.weight, wf.formula) for wf in formulas)


def find_symmetry(mln: GroundMLN, domains: Mapping[str, tuple[str, ...]], named: Collection[str] | None = None,
                  swap_invariant: Callable[[str, str], bool] | None = None) -> Symmetry:
    """The maximal sets of interchangeable constants of each domain.

    :param named: the constants the first-order model names (in its formulas or its
        evidence: :attr:`~pracmln_poss.model.first_order.FirstOrderMLN.named`), when
        ``mln`` is its grounding: the other constants of a domain are interchangeable by
        construction (docs/symmetry.md), so only the named ones are tested.  None: every
        constant is tested.
    :param swap_invariant: whether the first-order model, as written, is unchanged by
        swapping two constants (:meth:`~pracmln_poss.model.first_order.FirstOrderMLN.swap_invariant`):
        then so is its grounding, and the swap is not tested on it.

    Constants are tested by swaps.  A swap of ``c`` and ``d`` only moves the formulas that
    mention either, so only those are compared; and it can only be a symmetry when ``c``
    and ``d`` have the same profile (the weights and predicates of the formulas
    mentioning them), so only constants with equal profiles are tested.  Learned models
    name most constants in their formulas, each with weights of its own: they are told
    apart by profile alone.
    """
    probe = Symmetry(mln, tuple(domains.items()), ())
    # a renaming acts on a constant wherever it occurs, so a constant of two domains
    # would be renamed in the other domain's arguments too: it stands alone
    shared = {c for c, n in Counter(c for cs in domains.values() for c in set(cs)).items() if n > 1}
    free = {c for cs in domains.values() for c in cs if c not in shared} - set(named) if named is not None else set()
    firsts = {_first(cs, free) for cs in domains.values()} - {None}
    # every constant tested, and the first of each domain's free ones (the others join it)
    tested = {c for cs in domains.values() for c in cs if c not in free or c in firsts}
    everything = mln.soft + mln.hard
    empty: Counter[tuple[int | float, tuple[str, ...]]] = Counter()
    profiles: list[tuple[dict[str, list[int]], dict[str, Counter[tuple[int | float, tuple[str, ...]]]]]] = []

    def swaps(c: str, d: str) -> bool:
        if swap_invariant is not None and swap_invariant(c, d):
            return True
        if not profiles:  # (a pass over the ground formulas, made when first needed)
            profiles.append(_profiles(mln, probe, tested))
        mentions, profile = profiles[0]
        if profile.get(c, empty) != profile.get(d, empty):
            return False
        moved = sorted(set(mentions.get(c, ())) | set(mentions.get(d, ())))
        return _is_symmetry([everything[i] for i in moved], probe.permute({c: d, d: c}))

    classes: list[tuple[str, ...]] = []
    for _domain, constants in domains.items():
        groups: list[list[str]] = []
        free_group: list[str] | None = None
        for c in constants:
            if c in shared:
                classes.append((c,))
                continue
            if c in free and free_group is not None:
                free_group.append(c)
                continue
            group = next((g for g in groups if swaps(c, g[0])), None)
            if group is None:
                group = [c]
                groups.append(group)
            else:
                group.append(c)
            if c in free:
                free_group = group
        classes.extend(tuple(g) for g in groups)
    return Symmetry(mln, tuple(domains.items()), tuple(classes))


def _first(constants: Sequence[str], among: set[str]) -> str | None:
    return next((c for c in constants if c in among), None)


def _profiles(mln: GroundMLN, probe: Symmetry, tested: set[str]
              ) -> tuple[dict[str, list[int]], dict[str, Counter[tuple[int | float, tuple[str, ...]]]]]:
    """Per tested constant, the formulas (indices into ``soft + hard``) mentioning it, and
    its profile: the weights and predicates of those formulas."""
    info = probe.atom_info
    mentions: dict[str, list[int]] = {}
    profile: dict[str, Counter[tuple[int | float, tuple[str, ...]]]] = {}
    for i, wf in enumerate(mln.soft + mln.hard):
        preds: dict[str, list[str]] = {}
        for a in atoms_of(wf.formula):
            pred, args = info[a]
            for c in set(args):
                if c in tested:
                    preds.setdefault(c, []).append(pred)
        for c, names in preds.items():
            mentions.setdefault(c, []).append(i)
            profile.setdefault(c, Counter())[(wf.weight, tuple(sorted(names)))] += 1
    return mentions, profile


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


MEMO_LIMIT = 400_000
"""Canonical images kept at most (about 150 MB); then the memo starts over."""

PERMUTATION_LIMIT = 20_000
"""Renamings kept at most with their permutations (a list per atom each); then the
memo starts over."""


def canonical(evidence: EvidenceSet, symmetry: Symmetry) -> EvidenceSet:
    """The representative of ``evidence``'s renaming class (a sorted literal tuple): equal
    for two sets exactly when a renaming of interchangeable constants maps one onto the other."""
    return canonical_map(evidence, symmetry)[0]


def canonical_map(evidence: EvidenceSet, symmetry: Symmetry) -> tuple[EvidenceSet, dict[str, str]]:
    """:func:`canonical` and a renaming of the constants of ``evidence`` that maps it onto it."""
    memo = symmetry.memo
    found = memo.get(evidence) if type(evidence) is tuple else None  # (keys are sorted: most asked are)
    if found is not None:
        return found
    key = _sorted(evidence)
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()  # bounded memory: at k = 4 the search asks about millions of sets
        image, mapping = _canonical((key,), symmetry)
        found = memo[key] = (image[0], mapping)
    return found


def canonical_parts(parts: tuple[tuple[int, ...], ...], symmetry: Symmetry) -> tuple[tuple[int, ...], ...]:
    """The canonical image of several literal sets renamed together (e.g. a rule's
    evidence and its conclusion): equal for two tuples exactly when one renaming maps
    each part of one onto the same part of the other.

    Cheap invariants first: each renamable constant gets a fingerprint (how the literals
    use it), constants are ordered by fingerprint onto the first members of their class,
    and only constants with equal fingerprints are permuted among themselves; the
    smallest image over those renamings is the canonical one.  Isomorphic inputs have
    matching fingerprints, hence the same candidate images and the same minimum.
    """
    return _canonical(parts, symmetry)[0]


def _canonical(parts: tuple[tuple[int, ...], ...], symmetry: Symmetry) -> tuple[tuple[tuple[int, ...], ...], dict[str, str]]:
    """:func:`canonical_parts` with the renaming that gives it."""
    codes, types, classes = symmetry.use_codes, symmetry.types, symmetry.classes
    prints: dict[str, list[int]] = {}
    for p, part in enumerate(parts):
        shift = p << 32  # (more than the number of uses)
        for lit in part:
            for c, code in codes[lit]:
                found = prints.get(c)
                if found is None:
                    prints[c] = [code + shift]
                else:
                    found.append(code + shift)
    # images are sorted by atom alone when no part has an atom twice (evidence sets and
    # rule parts never do; renaming keeps that)
    order = _sorted if any(len({abs(l) for l in part}) < len(part) for part in parts) else _by_atom
    if not prints:  # no renamable constant: the sets are their own images
        return tuple(order(part) for part in parts), {}
    by_class: dict[int, list[tuple[list[int], str]]] = {}
    for c, used in prints.items():
        if len(used) > 1:
            used.sort()
        members = by_class.get(types[c])
        if members is None:
            by_class[types[c]] = [(used, c)]
        else:
            members.append((used, c))
    blocks: list[list[tuple[list[str], tuple[str, ...]]]] = []
    single: dict[str, str] = {}  # the renaming where no two constants share a fingerprint
    for cls, members in by_class.items():
        slots = classes[cls]
        if len(members) == 1:
            single[members[0][1]] = slots[0]
            continue
        members.sort()
        start = 0
        while start < len(members):
            end = start + 1
            while end < len(members) and members[end][0] == members[start][0]:
                end += 1
            if end == start + 1:
                single[members[start][1]] = slots[start]
            else:
                group = [c for _, c in members[start:end]]
                blocks.append([(group, perm) for perm in itertools.permutations(slots[start:end])])
            start = end
    info, index = symmetry.atom_info, symmetry.atom_index  # rename() inlined: the search's hottest loop
    if not blocks:
        return tuple(order([_renamed(lit, single, info, index) for lit in part]) for part in parts), single
    best: tuple[tuple[int, ...], ...] | None = None
    best_mapping: dict[str, str] = {}
    for choice in itertools.product(*blocks):
        mapping = dict(single)
        for group, perm in choice:
            mapping.update(zip(group, perm))
        key = tuple(order([_renamed(lit, mapping, info, index) for lit in part]) for part in parts)
        if best is None or key < best:
            best, best_mapping = key, mapping
    assert best is not None  # the product of the blocks has at least one choice
    return best, best_mapping


def _renamed(lit: int, mapping: dict[str, str], info: list[tuple[str, tuple[str, ...]]],
             index: dict[tuple[str, tuple[str, ...]], int]) -> int:
    pred, args = info[abs(lit)]
    a = index[pred, tuple([mapping.get(x, x) for x in args])]
    return a if lit > 0 else -a


def _by_atom(lits: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(lits, key=abs))


def _sorted(lits: Iterable[int]) -> tuple[int, ...]:
    """Literals in :func:`_lit_order` (by atom, a negative one first): by ``abs`` alone
    when no atom occurs twice, which is every evidence set and rule part."""
    out = sorted(lits, key=abs)
    if len(set(map(abs, out))) < len(out):
        out.sort(key=_lit_order)
    return tuple(out)


def _lit_order(lit: int) -> tuple[int, int]:
    return abs(lit), lit


def rename(lit: int, mapping: dict[str, str], symmetry: Symmetry) -> int:
    """The literal with its constants renamed by ``mapping``."""
    pred, args = symmetry.atom_info[abs(lit)]
    a = symmetry.atom_index[pred, tuple([mapping.get(x, x) for x in args])]
    return a if lit > 0 else -a


def representatives(
    symmetry: Symmetry, k: int, atoms: Collection[int] | None = None
) -> Iterator[EvidenceSet]:
    """One evidence set per renaming class, sizes 0..k, smallest first (deterministic),
    over ``atoms`` (None: all).

    Sets grow one literal at a time from the representatives one size smaller
    (:func:`extensions`), and :func:`canonical` removes repeats.
    """
    allowed = None if atoms is None else set(atoms)
    level: list[EvidenceSet] = [()]
    yield ()
    for _size in range(k):
        following = sorted({image for rep in level for image in extensions(rep, symmetry, allowed)}, key=set_order)
        yield from following
        level = following


def set_order(e: EvidenceSet) -> tuple[int, ...]:
    """The order of :func:`representatives` within a size: literal by literal, by atom,
    a negative literal before a positive one (one int per literal: they compare fast)."""
    return tuple([2 * l if l > 0 else -2 * l - 1 for l in e])


def extensions(rep: EvidenceSet, symmetry: Symmetry, allowed: Collection[int] | None = None
               ) -> Iterator[EvidenceSet]:
    """The representatives of the classes of ``rep`` plus one literal (over ``allowed``,
    None: any atom) whose shape (:attr:`Symmetry.shape_rank`) is the largest of the
    set's (with repeats): taken over every representative of ``rep``'s size, one per
    class of the next size.

    Every class of the next size is reached: take a set of it and a literal ``l`` of the
    largest shape in it; the rest of the set renames onto a representative ``R``, and the
    renaming extends to ``l``'s other constants, sending them onto the first constants
    of their classes that ``R`` leaves unused, in order of first occurrence in ``l``;
    ``R`` plus the image of ``l`` is then in the class and its new literal has the
    largest shape, because a renaming keeps shapes.  Only the atoms whose new constants
    are such (:meth:`Symmetry.frame_atoms`: a few per predicate, however large the
    classes) are tried, and the shapes reject most extensions before their canonical
    form is computed.
    """
    for candidate in candidates(rep, symmetry, allowed):
        yield canonical(candidate, symmetry)


def candidates(rep: EvidenceSet, symmetry: Symmetry, allowed: Collection[int] | None = None
               ) -> Iterator[EvidenceSet]:
    """The sets :func:`extensions` takes the canonical forms of: ``rep`` plus each literal
    of its frame (:meth:`Symmetry.frame_atoms`) over ``allowed`` whose shape is the largest."""
    ranks = symmetry.shape_rank
    taken = {abs(l) for l in rep}
    top = max((ranks[l] for l in rep), default=-1)
    for atom in symmetry.frame_atoms(used_constants(rep, symmetry)):
        if atom in taken or max(ranks[atom], ranks[-atom]) < top or (allowed is not None and atom not in allowed):
            continue
        for lit in (atom, -atom):
            if ranks[lit] >= top:
                yield tuple(rep) + (lit,)


def examined(symmetry: Symmetry, k: int, allowed: Collection[int] | None = None, limit: int | None = None
             ) -> tuple[int, bool]:
    """How many evidence sets the lifted search examines (the empty one, and at each size
    the :func:`candidates` of the representatives one literal smaller: every class of
    that size and its repeats), or a bound on it, and whether the count is exact.

    Counted no further than needed to compare it with ``limit``: a bound at most
    ``limit`` is returned as soon as it is known (the representatives of the last size
    counted times twice the largest frame a set one literal smaller can have, and so on
    up to ``k``); else the representatives are grown, as the search grows them, while
    that costs fewer than ``COUNTING_WORK`` canonical forms, and the bound then known
    is returned.  ``limit`` None: the exact count.
    """
    total = 1
    level: list[EvidenceSet] = [()]
    for size in range(1, k + 1):
        bound = total + _grown(symmetry, len(level), size - 1, k, allowed, limit)
        if limit is not None and bound <= limit:
            return bound, False
        found = [c for rep in level for c in candidates(rep, symmetry, allowed)]
        total += len(found)
        if limit is not None and total > limit:
            return total, True
        if size == k or not found:
            break
        if limit is not None and len(found) > COUNTING_WORK:
            return total + _grown(symmetry, len(found), size, k, allowed, limit), False
        level = sorted({canonical(c, symmetry) for c in found}, key=set_order)
    return total, True


COUNTING_WORK = 50_000
"""Canonical forms :func:`examined` computes at most to tighten its bound (about a second)."""


def _grown(symmetry: Symmetry, sets: int, size: int, k: int, allowed: Collection[int] | None,
           limit: int | None) -> int:
    """A bound on the sets of sizes ``size + 1 .. k`` examined from ``sets`` sets of
    ``size`` literals: each takes at most twice as many literals as the largest frame of a
    set of its size, whose constants are at most ``arity`` per literal in each class
    (counted until the bound passes ``limit``)."""
    arity = max((len(places) for places in symmetry.places.values()), default=0)
    total = 0
    atoms = symmetry.mln.n_atoms if allowed is None else len(allowed)
    for s in range(size, min(k, atoms)):  # (no set has more literals than there are atoms)
        if limit is not None and total > limit:
            break
        used = {cls: members[: s * arity] for cls, members in enumerate(symmetry.classes) if len(members) > 1}
        frame = sum(1 for a in symmetry.frame_atoms(used) if allowed is None or a in allowed)
        sets *= 2 * frame
        total += sets
        if not sets:
            break
    return total
