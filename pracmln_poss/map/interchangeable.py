"""Interchangeable constants as a MAP search sees them: lex-leader chains of key variables.

When every permutation of a class of constants maps the ground model onto itself (the
paper's interchangeable constants, :func:`~pracmln_poss.search.interchangeability.find_symmetry`),
and a search's evidence names none of some members ``c_1 < ... < c_m`` of the class, a
permutation of those members maps every world satisfying the evidence onto one that
satisfies it too, at the same cost.  Give each member a *key*: the atoms of one
predicate that mention it, in an order that the permutations keep (``object(c, Fork)``,
``object(c, Plate)``, ...).  Sorting the members by the value their key takes (the
index of its true atom, for a functional predicate) is such a permutation, so a search
may require ``key(c_1) <= ... <= key(c_m)``: it finds a world of a given cost exactly
when there is one, and the worlds it finds are worlds of the evidence (lex-leader
symmetry breaking: Crawford, Ginsberg, Luks and Roy, KR 1996).

The members a search must leave free are those named by its evidence *and* by the
atoms whose values its caller reads from the worlds (a backbone's candidates): a
permutation of the others keeps both.  docs/map-engine.md has the proof.
"""

from __future__ import annotations

__all__ = ["Interchangeable", "FindInterchangeable"]

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..logic.syntax import split_atom
from ..model.ground_mln import GroundMLN

Key = tuple[int, ...]
"""A member's key: atoms of one predicate, the images of each other's under the
permutations of its class."""


@dataclass(frozen=True)
class Interchangeable:
    """The classes of interchangeable constants of a ground model, as atoms.

    :ivar keys: per class of at least two constants, per predicate that can key it (each
        of its atoms mentions one member), the key of every member, in the class's order.
    :ivar sizes: per class, its number of members.
    :ivar named: atom -> the (class, member) pairs of the constants of those classes it
        mentions (atoms that mention none are left out).
    """

    keys: tuple[Mapping[str, tuple[Key, ...]], ...]
    sizes: tuple[int, ...]
    named: Mapping[int, tuple[tuple[int, int], ...]]

    @classmethod
    def of(cls, mln: GroundMLN, classes: Iterable[Sequence[str]]) -> Interchangeable:
        """The keys and named members of ``classes`` (constants, by name; classes of one
        constant are left out) over ``mln``'s atoms."""
        renamable = [tuple(c) for c in classes if len(c) > 1]
        member = {c: (i, j) for i, members in enumerate(renamable) for j, c in enumerate(members)}
        named: dict[int, tuple[tuple[int, int], ...]] = {}
        # per class, predicate: member -> (arguments with the member blanked, atom)
        found: list[dict[str, dict[int, list[tuple[tuple[str | None, ...], int]]]]] = [{} for _ in renamable]
        unusable: list[set[str]] = [set() for _ in renamable]
        for atom, name in enumerate(mln.atoms, 1):
            pred, args = split_atom(name)
            mentioned = tuple(dict.fromkeys(member[a] for a in args if a in member))
            if not mentioned:
                continue
            named[atom] = mentioned
            for i in {i for i, _ in mentioned}:
                in_atom = [j for k, j in mentioned if k == i]
                if len(in_atom) > 1:  # (two members in one atom: no key of one member)
                    unusable[i].add(pred)
                    continue
                c = renamable[i][in_atom[0]]
                blanked = tuple(None if a == c else a for a in args)
                found[i].setdefault(pred, {}).setdefault(in_atom[0], []).append((blanked, atom))
        keys: list[dict[str, tuple[Key, ...]]] = []
        for i, members in enumerate(renamable):
            usable: dict[str, tuple[Key, ...]] = {}
            for pred, by_member in found[i].items():
                if pred in unusable[i] or len(by_member) != len(members):
                    continue
                ordered = [sorted(by_member[j], key=lambda entry: tuple(a or "" for a in entry[0]))
                           for j in range(len(members))]
                # the permutations map member j's key onto member j''s: the same blanked arguments
                if all([b for b, _ in o] == [b for b, _ in ordered[0]] for o in ordered):
                    usable[pred] = tuple(tuple(atom for _, atom in o) for o in ordered)
            keys.append(usable)
        return cls(tuple(keys), tuple(len(members) for members in renamable), named)

    def free_members(self, atoms: Iterable[int]) -> list[list[int]]:
        """Per class, the members that none of ``atoms`` mentions, in order."""
        taken: set[tuple[int, int]] = set()
        named = self.named
        for a in atoms:
            taken.update(named.get(abs(a), ()))
        return [[j for j in range(size) if (i, j) not in taken] for i, size in enumerate(self.sizes)]


FindInterchangeable = Callable[[], "Interchangeable | None"]
"""How to find a model's interchangeable constants (None: it has none), called by the
backends that use them only (finding them is a pass over every atom)."""
