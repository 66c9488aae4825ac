"""Canonical forms of evidence sets up to renaming: the representative of a set's
renaming class (:func:`canonical`), with a renaming onto it (:func:`canonical_map`), and
of several sets renamed together (:func:`canonical_parts`).  Constants are ordered by a
fingerprint of how the literals use them (cheap invariants), and the smallest image
over the renamings that the fingerprints leave open is taken (the exact isomorphism
test); the images found are kept on the :class:`~.symmetry.Symmetry` (its ``memo``)."""

from __future__ import annotations

__all__ = ["MEMO_LIMIT", "canonical", "canonical_map", "canonical_parts"]

import itertools
from collections.abc import Iterable

from .evidence import EvidenceSet
from .symmetry import Symmetry

MEMO_LIMIT = 400_000
"""Canonical images kept at most (about 150 MB); then the memo starts over."""



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
