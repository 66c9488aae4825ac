"""Finding the classes of interchangeable constants of a ground MLN (the paper's
Section 4): constants are tested by swaps, each only against the formulas that mention
it, and only between constants of equal profile (:func:`find_symmetry`)."""

from __future__ import annotations

__all__ = ["find_symmetry"]

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence

from ..logic.formula import Atom, Formula, atoms_of
from ..logic.leaves import map_leaves
from ..model.ground_mln import GroundMLN, WeightedFormula
from .symmetry import Symmetry


def _image(wf: WeightedFormula, perm: list[int]) -> tuple[int | float, Formula]:
    return wf.weight, map_leaves(wf.formula, lambda a: Atom(perm[a.index]) if isinstance(a, Atom) else a)


def _is_symmetry(formulas: list[WeightedFormula], perm: list[int]) -> bool:
    """Whether the atom permutation maps these formulas (with weights) onto themselves."""
    return Counter(_image(wf, perm) for wf in formulas) == Counter((wf.weight, wf.formula) for wf in formulas)


def find_symmetry(mln: GroundMLN, domains: Mapping[str, tuple[str, ...]], named: Collection[str] | None = None,
                  swap_invariant: Callable[[str, str], bool] | None = None, ground_tests: bool = True) -> Symmetry:
    """The maximal sets of interchangeable constants of each domain.

    :param named: the constants the first-order model names (in its formulas or its
        evidence: :attr:`~pracmln_poss.model.first_order.FirstOrderMLN.named`), when
        ``mln`` is its grounding: the other constants of a domain are interchangeable by
        construction (docs/symmetry.md), so only the named ones are tested.  None: every
        constant is tested.
    :param swap_invariant: whether the first-order model, as written, is unchanged by
        swapping two constants (:meth:`~pracmln_poss.model.first_order.FirstOrderMLN.swap_invariant`):
        then so is its grounding, and the swap is not tested on it.
    :param ground_tests: test on ``mln`` the swaps ``swap_invariant`` does not show (False:
        those constants stand apart; a reduced model's grounding weighs its
        representatives' formulas in bulk, so its formulas do not say which swaps of its
        named constants are symmetries of the model it stands for: docs/domains.md).

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
        if not ground_tests:
            return False
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
