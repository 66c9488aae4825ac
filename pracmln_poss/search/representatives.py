"""Evidence sets up to renaming, enumerated and counted: one representative per
renaming class of every size up to ``k`` (:func:`representatives`), grown one literal
at a time (:func:`extensions`, :func:`candidates`), and how many sets the lifted search
examines (:func:`examined`), or a bound on it."""

from __future__ import annotations

__all__ = ["COUNTING_WORK", "representatives", "set_order", "extensions", "candidates", "examined"]

from collections.abc import Collection, Iterator

from .canonical import canonical
from .evidence import EvidenceSet
from .symmetry import Symmetry, used_constants


def representatives(
    symmetry: Symmetry, k: int, atoms: Collection[int] | None = None
) -> Iterator[EvidenceSet]:
    """One evidence set per renaming class, sizes 0..k, smallest first (deterministic),
    over ``atoms`` (None: all).

    Sets grow one literal at a time from the representatives one size smaller
    (:func:`extensions`), and :func:`~.canonical.canonical` removes repeats.
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
    None: any atom) whose shape (:attr:`~.symmetry.Symmetry.shape_rank`) is the largest of the
    set's (with repeats): taken over every representative of ``rep``'s size, one per
    class of the next size.

    Every class of the next size is reached: take a set of it and a literal ``l`` of the
    largest shape in it; the rest of the set renames onto a representative ``R``, and the
    renaming extends to ``l``'s other constants, sending them onto the first constants
    of their classes that ``R`` leaves unused, in order of first occurrence in ``l``;
    ``R`` plus the image of ``l`` is then in the class and its new literal has the
    largest shape, because a renaming keeps shapes.  Only the atoms whose new constants
    are such (:meth:`~.symmetry.Symmetry.frame_atoms`: a few per predicate, however large the
    classes) are tried, and the shapes reject most extensions before their canonical
    form is computed.
    """
    for candidate in candidates(rep, symmetry, allowed):
        yield canonical(candidate, symmetry)


def candidates(rep: EvidenceSet, symmetry: Symmetry, allowed: Collection[int] | None = None
               ) -> Iterator[EvidenceSet]:
    """The sets :func:`extensions` takes the canonical forms of: ``rep`` plus each literal
    of its frame (:meth:`~.symmetry.Symmetry.frame_atoms`) over ``allowed`` whose shape is the largest."""
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
