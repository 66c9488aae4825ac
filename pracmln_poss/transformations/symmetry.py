"""Interchangeable constants (the paper's Section 4) and evidence sets up to renaming.

Two constants of a domain are interchangeable when swapping them maps the ground MLN
(soft formulas with their weights, hard formulas, evidence) onto itself.  Swaps that
are symmetries compose, so the maximal interchangeable sets are the classes of the
"swap is a symmetry" relation; each class becomes a type.  Constants named in
formulas or evidence usually stand alone, and the test finds that by itself.

Evidence sets that differ only by a renaming of interchangeable constants have the
same penalty and consequences (renamed).  :func:`representatives` enumerates one
evidence set per such class, of every size up to ``k``; :func:`canonical` gives the
class's representative of any set (the smallest image under renamings).
"""

from __future__ import annotations

__all__ = ["Symmetry", "find_symmetry", "canonical", "representatives", "renamings", "used_constants"]

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Iterator

from ..ground_mln import GroundMLN, WeightedFormula
from ..logic.formula import Atom, Formula
from ..atoms import map_leaves
from .evidence import EvidenceSet


def _split(name: str) -> tuple[str, tuple[str, ...]]:
    pred, paren, rest = name.partition("(")
    return pred, tuple(rest[:-1].split(",")) if paren else ()


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
    def types(self) -> dict[str, int]:
        """Constant -> index of its class (constants of different domains never share one)."""
        return {c: i for i, cls in enumerate(self.classes) for c in cls}

    def permute(self, mapping: dict[str, str]) -> list[int]:
        """The atom permutation (index -> index, 0 unused) induced by a constant renaming."""
        out = [0] * (self.mln.n_atoms + 1)
        for i, name in enumerate(self.mln.atoms, 1):
            pred, args = _split(name)
            renamed = f"{pred}({','.join(mapping.get(a, a) for a in args)})" if args else pred
            out[i] = self.mln.atom(renamed)
        return out


def _image(wf: WeightedFormula, perm: list[int]) -> tuple[int | float, Formula]:
    return wf.weight, map_leaves(wf.formula, lambda a: Atom(perm[a.index]))


def _is_symmetry(mln: GroundMLN, perm: list[int], base: Counter) -> bool:
    return Counter(_image(wf, perm) for wf in mln.soft + mln.hard) == base


def find_symmetry(mln: GroundMLN, domains: dict[str, tuple[str, ...]]) -> Symmetry:
    """The maximal sets of interchangeable constants of each domain (by swap tests)."""
    base = Counter((wf.weight, wf.formula) for wf in mln.soft + mln.hard)
    probe = Symmetry(mln, tuple(domains.items()), ())
    classes: list[tuple[str, ...]] = []
    for _domain, constants in domains.items():
        groups: list[list[str]] = []
        for c in constants:
            for group in groups:
                if _is_symmetry(mln, probe.permute({c: group[0], group[0]: c}), base):
                    group.append(c)
                    break
            else:
                groups.append([c])
        classes.extend(tuple(g) for g in groups)
    return Symmetry(mln, tuple(domains.items()), tuple(classes))


def used_constants(lits: Iterable[int], symmetry: Symmetry) -> dict[int, list[str]]:
    """Class index -> the constants of that class the literals mention, in order of appearance."""
    mln, types = symmetry.mln, symmetry.types
    used: dict[int, list[str]] = {}
    for lit in lits:
        for a in _split(mln.name(abs(lit)))[1]:
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


def canonical(evidence: EvidenceSet, symmetry: Symmetry) -> EvidenceSet:
    """The smallest image of ``evidence`` (as a sorted literal tuple) under renamings of
    interchangeable constants: equal for two sets exactly when one renames the other."""
    mln = symmetry.mln
    return min(
        tuple(sorted((_rename(lit, mapping, mln) for lit in evidence), key=lambda l: (abs(l), l)))
        for mapping in renamings(evidence, symmetry, onto_first=True)
    )


def _rename(lit: int, mapping: dict[str, str], mln: GroundMLN) -> int:
    pred, args = _split(mln.name(abs(lit)))
    name = f"{pred}({','.join(mapping.get(a, a) for a in args)})" if args else pred
    a = mln.atom(name)
    return a if lit > 0 else -a


def representatives(
    symmetry: Symmetry, k: int, atoms: list[int] | None = None
) -> Iterator[EvidenceSet]:
    """One evidence set per renaming class, sizes 0..k, smallest first (deterministic).

    Sets grow one literal at a time from the representatives one size smaller, with
    literals whose new constants are the first unused ones of their class: every class
    is reached, and :func:`canonical` removes repeats.
    """
    mln = symmetry.mln
    atoms = atoms if atoms is not None else list(range(1, mln.n_atoms + 1))
    types = symmetry.types
    level: list[EvidenceSet] = [()]
    yield ()
    for _size in range(k):
        seen: set[EvidenceSet] = set()
        following: list[EvidenceSet] = []
        for rep in level:
            taken = {abs(l) for l in rep}
            used = {cls: set(members) for cls, members in used_constants(rep, symmetry).items()}
            for atom in atoms:
                if atom in taken or not _fresh_ok(mln.name(atom), used, symmetry, types):
                    continue
                for lit in (atom, -atom):
                    image = canonical(tuple(rep) + (lit,), symmetry)
                    if image not in seen:
                        seen.add(image)
                        following.append(image)
        following.sort(key=lambda e: [(abs(l), l) for l in e])
        yield from following
        level = following


def _fresh_ok(name: str, used: dict[int, set[str]], symmetry: Symmetry, types: dict[str, int]) -> bool:
    """Whether the atom's constants outside ``used`` are the first unused ones of their class."""
    new: dict[int, list[str]] = {}
    for a in _split(name)[1]:
        if a not in used.get(types[a], set()) and a not in new.setdefault(types[a], []):
            new[types[a]].append(a)
    for cls, constants in new.items():
        unused = [c for c in symmetry.classes[cls] if c not in used.get(cls, set())]
        if sorted(constants, key=unused.index) != unused[: len(constants)]:
            return False
    return True
