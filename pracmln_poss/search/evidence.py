"""Evidence sets: all consistent literal sets up to a size, and their names."""

from __future__ import annotations

__all__ = ["EvidenceSet", "literal_sets", "describe"]

import itertools
from collections.abc import Iterator, Sequence

from ..atoms import NamedAtoms

EvidenceSet = tuple[int, ...]
"""A consistent set of literals (DIMACS ints, over distinct atoms)."""


def literal_sets(atoms: int | Sequence[int], k: int, positive_only: bool = False) -> Iterator[EvidenceSet]:
    """Every set of at most ``k`` literals over distinct atoms (``atoms``: a list of
    atoms, or ``n`` for atoms ``1..n``), smallest first.

    Each set follows the order of ``atoms``; the order is deterministic.
    """
    pool = range(1, atoms + 1) if isinstance(atoms, int) else tuple(atoms)
    for size in range(0, min(k, len(pool)) + 1):
        for chosen in itertools.combinations(pool, size):
            if positive_only:
                yield chosen
                continue
            for signs in itertools.product((1, -1), repeat=size):
                yield tuple(a * s for a, s in zip(chosen, signs))


def describe(evidence: EvidenceSet, atoms: NamedAtoms) -> str:
    """``{bird(T), !heavy(T)}``."""
    return "{" + ", ".join(atoms.literal_name(lit) for lit in evidence) + "}"
