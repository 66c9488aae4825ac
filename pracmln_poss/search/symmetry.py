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

__all__ = ["Symmetry", "find_symmetry", "canonical", "canonical_map", "canonical_parts", "representatives", "extensions", "set_order", "renamings", "rename", "used_constants"]

import itertools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..atoms import map_leaves, split_atom
from ..logic.formula import Atom, Formula, atoms_of
from ..model.ground_mln import GroundMLN, WeightedFormula
from .evidence import EvidenceSet


@dataclass
class _Renaming:
    """A renaming completed to a permutation of constants, the atom permutation it
    induces, and that permutation's inverse once asked for."""

    full: dict[str, str]
    perm: list[int]
    inverse: list[int] | None = None
    getter: Callable[[Sequence[bool]], tuple[bool, ...]] | None = None


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

    @cached_property
    def uses(self) -> list[list[tuple[str, tuple[object, ...]]]]:
        """Per atom int, its renamable constants with how the atom uses each: the
        predicate and, per argument, that constant, a fixed constant, or another of a class."""
        types, classes = self.types, self.classes
        out: list[list[tuple[str, tuple[object, ...]]]] = []
        for pred, args in self.atom_info:
            out.append([
                (c, (pred, tuple((0,) if a == c else (1, a) if len(classes[types[a]]) < 2 else (2, types[a]) for a in args)))
                for c in dict.fromkeys(args) if len(classes[types[c]]) > 1
            ])
        return out

    @cached_property
    def signed_uses(self) -> dict[int, tuple[tuple[str, tuple[bool, tuple[object, ...]]], ...]]:
        """Per literal, its renamable constants with how it uses each (:attr:`uses` and
        the literal's sign): a constant's fingerprint is the sorted list of these."""
        out: dict[int, tuple[tuple[str, tuple[bool, tuple[object, ...]]], ...]] = {}
        for a, uses in enumerate(self.uses):
            if a:
                out[a] = tuple((c, (True, use)) for c, use in uses)
                out[-a] = tuple((c, (False, use)) for c, use in uses)
        return out

    @cached_property
    def use_codes(self) -> dict[int, tuple[tuple[str, int], ...]]:
        """:attr:`signed_uses` with each use replaced by its rank among all uses (ints
        compare faster than the tuples, in the same order): a fingerprint entry of the
        ``p``-th part of :func:`canonical_parts` is ``p * 2**32 + rank``."""
        signed = self.signed_uses
        ranks = {use: i for i, use in enumerate(sorted({use for uses in signed.values() for _, use in uses}))}
        return {lit: tuple((c, ranks[use]) for c, use in uses) for lit, uses in signed.items()}

    @cached_property
    def shape_rank(self) -> list[int]:
        """Per literal (a list indexed by the literal: a negative one from the end), the
        rank of its shape: its sign, predicate, constants of singleton classes, and the
        classes of its other constants with which arguments repeat one.  A renaming
        keeps a literal's shape; :func:`extensions` grows sets by a literal of the
        largest shape only."""
        classes, types = self.classes, self.types

        def shape(lit: int) -> tuple[object, ...]:
            pred, args = self.atom_info[abs(lit)]
            return (lit > 0, pred, tuple((0, a, 0) if len(classes[types[a]]) < 2 else (1, types[a], args.index(a))
                                         for a in args))

        n = self.mln.n_atoms
        lits = [l for a in range(1, n + 1) for l in (a, -a)]
        order = {s: i for i, s in enumerate(sorted({shape(l) for l in lits}))}
        ranks = [0] * (2 * n + 1)
        for l in lits:
            ranks[l] = order[shape(l)]
        return ranks

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
        """Renamings asked for so far, completed, with their atom permutations."""
        return {}

    def __getstate__(self) -> dict[str, object]:
        # pickled for worker processes: the memos (hundreds of thousands of canonical
        # images at k = 4) stay in this process; a worker grows its own
        return {key: value for key, value in self.__dict__.items() if key not in ("memo", "permutations", "_by_identity")}

    def permutation(self, mapping: dict[str, str]) -> tuple[dict[str, str], list[int]]:
        """:meth:`extend` of ``mapping`` and the atom permutation it induces
        (:meth:`permute`), memoised: the search renames optima by the same few renamings
        thousands of times.  Both are shared: not to be changed."""
        found = self._renaming(mapping)
        return found.full, found.perm

    def inverse(self, mapping: dict[str, str]) -> list[int]:
        """The inverse of :meth:`permutation`'s atom permutation (memoised with it; shared)."""
        found = self._renaming(mapping)
        if found.inverse is None:
            found.inverse = [0] * len(found.perm)
            for a, image in enumerate(found.perm):
                found.inverse[image] = a
        return found.inverse

    def values_getter(self, mapping: dict[str, str]) -> Callable[[Sequence[bool]], tuple[bool, ...]]:
        """``values -> (values[perm[0]], values[perm[1]], ...)`` for :meth:`permutation`'s
        atom permutation (an ``itemgetter``, memoised with it): the values of a world of
        a set mapped by ``mapping`` onto a representative, from the representative's."""
        found = self._renaming(mapping)
        if found.getter is None:
            found.getter = operator.itemgetter(*found.perm)
        return found.getter

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
            found = self.permutations[key] = _Renaming(full, self.permute(full))
        if len(self._by_identity) >= PERMUTATION_LIMIT:
            self._by_identity.clear()
        self._by_identity[id(mapping)] = (mapping, found)
        return found

    def permute(self, mapping: dict[str, str]) -> list[int]:
        """The atom permutation (index -> index, 0 unused) induced by a constant renaming
        (a permutation of constants; constants it leaves out stay)."""
        return [0] + [rename(a, mapping, self) for a in range(1, self.mln.n_atoms + 1)]

    def extend(self, mapping: dict[str, str]) -> dict[str, str]:
        """An injective renaming within classes completed to a permutation of every
        class it touches (the unused constants onto the unused ones, in order)."""
        out = dict(mapping)
        types = self.types
        for cls in {types[c] for c in mapping}:
            members = self.classes[cls]
            images = set(out[c] for c in members if c in out)
            free_targets = [c for c in members if c not in images]
            for c, t in zip([c for c in members if c not in out], free_targets):
                out[c] = t
        return out


def _image(wf: WeightedFormula, perm: list[int]) -> tuple[int | float, Formula]:
    return wf.weight, map_leaves(wf.formula, lambda a: Atom(perm[a.index]) if isinstance(a, Atom) else a)


def _is_symmetry(formulas: list[WeightedFormula], perm: list[int]) -> bool:
    """Whether the atom permutation maps these formulas (with weights) onto themselves."""
    return Counter(_image(wf, perm) for wf in formulas) == Counter((wf.weight, wf.formula) for wf in formulas)


def find_symmetry(mln: GroundMLN, domains: dict[str, tuple[str, ...]]) -> Symmetry:
    """The maximal sets of interchangeable constants of each domain (by swap tests).

    A swap of ``c`` and ``d`` only moves the formulas that mention either, so only those
    are compared; and it can only be a symmetry when ``c`` and ``d`` have the same
    profile (the weights and predicates of the formulas mentioning them), so only
    constants with equal profiles are tested.  Learned models name most constants in
    their formulas, each with weights of its own: they are told apart by profile alone.
    """
    probe = Symmetry(mln, tuple(domains.items()), ())
    info = probe.atom_info
    everything = mln.soft + mln.hard
    mentions: dict[str, list[int]] = {}
    profile: dict[str, Counter[tuple[int | float, tuple[str, ...]]]] = {}
    for i, wf in enumerate(everything):
        preds: dict[str, list[str]] = {}
        for a in atoms_of(wf.formula):
            pred, args = info[a]
            for c in set(args):
                preds.setdefault(c, []).append(pred)
        for c, names in preds.items():
            mentions.setdefault(c, []).append(i)
            profile.setdefault(c, Counter())[(wf.weight, tuple(sorted(names)))] += 1
    empty: Counter[tuple[int | float, tuple[str, ...]]] = Counter()
    classes: list[tuple[str, ...]] = []
    # a renaming acts on a constant wherever it occurs, so a constant of two domains
    # would be renamed in the other domain's arguments too: it stands alone
    shared = {c for c, n in Counter(c for cs in domains.values() for c in set(cs)).items() if n > 1}
    for _domain, constants in domains.items():
        groups: list[list[str]] = []
        for c in constants:
            if c in shared:
                classes.append((c,))
                continue
            for group in groups:
                d = group[0]
                if profile.get(c, empty) != profile.get(d, empty):
                    continue
                moved = sorted(set(mentions.get(c, ())) | set(mentions.get(d, ())))
                if _is_symmetry([everything[i] for i in moved], probe.permute({c: d, d: c})):
                    group.append(c)
                    break
            else:
                groups.append([c])
        classes.extend(tuple(g) for g in groups)
    return Symmetry(mln, tuple(domains.items()), tuple(classes))


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
    symmetry: Symmetry, k: int, atoms: list[int] | None = None
) -> Iterator[EvidenceSet]:
    """One evidence set per renaming class, sizes 0..k, smallest first (deterministic).

    Sets grow one literal at a time from the representatives one size smaller, with
    literals whose new constants are the first unused ones of their class: every class
    is reached, and :func:`canonical` removes repeats.
    """
    atoms = atoms if atoms is not None else list(range(1, symmetry.mln.n_atoms + 1))
    level: list[EvidenceSet] = [()]
    yield ()
    for _size in range(k):
        following = sorted({image for rep in level for image in extensions(rep, symmetry, atoms)}, key=set_order)
        yield from following
        level = following


def set_order(e: EvidenceSet) -> tuple[int, ...]:
    """The order of :func:`representatives` within a size: literal by literal, by atom,
    a negative literal before a positive one (one int per literal: they compare fast)."""
    return tuple([2 * l if l > 0 else -2 * l - 1 for l in e])


def extensions(rep: EvidenceSet, symmetry: Symmetry, atoms: Sequence[int]) -> Iterator[EvidenceSet]:
    """The representatives of the classes of ``rep`` plus one literal over ``atoms`` whose
    shape (:attr:`Symmetry.shape_rank`) is the largest of the set's (with repeats): taken
    over every representative of ``rep``'s size, one per class of the next size.

    Every class of the next size is reached: take a set of it and a literal ``l`` of the
    largest shape in it; the rest of the set renames onto a representative ``R``, and the
    renaming extends to ``l``'s other constants, sending them onto the first constants
    of their classes that ``R`` leaves unused; ``R`` plus the image of ``l`` is then in
    the class and its new literal has the largest shape, because a renaming keeps
    shapes.  Only new constants that are the first unused ones of their class are
    tried (renaming reaches every other), and the shapes reject most extensions
    before their canonical form is computed.
    """
    types, ranks = symmetry.types, symmetry.shape_rank
    taken = {abs(l) for l in rep}
    used = {cls: set(members) for cls, members in used_constants(rep, symmetry).items()}
    top = max((ranks[l] for l in rep), default=-1)
    for atom in atoms:
        if atom in taken or max(ranks[atom], ranks[-atom]) < top:
            continue
        if not _fresh_ok(symmetry.atom_info[atom][1], used, symmetry, types):
            continue
        for lit in (atom, -atom):
            if ranks[lit] >= top:
                yield canonical(tuple(rep) + (lit,), symmetry)


def _fresh_ok(args: tuple[str, ...], used: dict[int, set[str]], symmetry: Symmetry, types: dict[str, int]) -> bool:
    """Whether the atom's constants outside ``used`` are the first unused ones of their class."""
    new: dict[int, list[str]] = {}
    for a in args:
        if a not in used.get(types[a], set()) and a not in new.setdefault(types[a], []):
            new[types[a]].append(a)
    for cls, constants in new.items():
        unused = [c for c in symmetry.classes[cls] if c not in used.get(cls, set())]
        if sorted(constants, key=unused.index) != unused[: len(constants)]:
            return False
    return True
