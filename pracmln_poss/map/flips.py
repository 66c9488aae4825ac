"""Single flips: the literals of an optimal world that are in no backbone, for free.

A literal of an optimal world ``w`` whose atom can be flipped alone, every hard formula
still true and the soft formulas' total weight unchanged, is false in another optimal
world (``w`` with that atom flipped), so it is not true in all optimal worlds.  Checking
that costs evaluations of the formulas the atom occurs in, no solver call: on dense
evidence (friendships given, their endpoints open) it removes all but the backbone
before the first SAT call, where each SAT call of the backbone removed one literal
(CadiBack, Biere, Froleyks and Wang, SAT 2023, flips a model's literals the same way
before each call).
"""

from __future__ import annotations

__all__ = ["SAMPLE", "SMALL", "WIDE", "SingleFlips"]

from collections.abc import Callable, Iterable

from ..logic.formula import atoms_of, compile_ground
from ..model.ground_mln import GroundMLN
from .world import World

SMALL = 64
"""Fewer candidates than this are left to the backbone's solver calls: a few calls settle
them, each world found removing many (measured on CORA: the test cost more than the
calls it saved even where it removed 95% of them)."""

SAMPLE = 16
"""The candidates tested first, spread over all of them: the rest are tested only when
at least half of these were removed (dense evidence: 99%; the conversions measured:
under 1% on smokers and object-recognition, where testing them all cost more than the
solver calls it saved)."""

WIDE = 64
"""Formulas over more atoms than this are not evaluated by the test: their atoms are
left to the solver calls (evaluating a formula of n atoms once per flip of each of them
costs n squared: a disjunction of 40,000 atoms took 6 s, one of a million would take
hours)."""

_WIDE = -1  # (in an atom's occurrences: it occurs in a formula over more than WIDE atoms)


class SingleFlips:
    """The single-flip test on one ground MLN (its formulas compiled once, at first use)."""

    def __init__(self, mln: GroundMLN) -> None:
        self.mln = mln
        self._formulas = mln.soft + mln.hard
        self._occurrences: dict[int, list[int]] | None = None
        # (compiled as the test first needs them: a test that stops at its sample reads few)
        self._checks: dict[int, Callable[[list[bool]], bool]] = {}
        self._n_soft = len(mln.soft)

    def _prepare(self) -> dict[int, list[int]]:
        """Atom -> indices into ``soft + hard`` of the formulas it occurs in (``_WIDE``
        first for a formula over more than :data:`WIDE` atoms)."""
        if self._occurrences is None:
            occurrences: dict[int, list[int]] = {}
            for i, wf in enumerate(self._formulas):
                atoms = atoms_of(wf.formula)
                if len(atoms) > WIDE:
                    for a in atoms:
                        found = occurrences.setdefault(a, [])
                        if found[:1] != [_WIDE]:
                            found.insert(0, _WIDE)
                    continue
                for a in atoms:
                    occurrences.setdefault(a, []).append(i)
            self._occurrences = occurrences
        return self._occurrences

    def _check(self, i: int) -> Callable[[list[bool]], bool]:
        """Formula ``i`` of ``soft + hard``, compiled."""
        check = self._checks.get(i)
        if check is None:
            check = self._checks[i] = compile_ground(self._formulas[i].formula)
        return check

    def drop(self, world: World, candidates: set[int], keep: Iterable[int] = ()) -> bool:
        """Remove from ``candidates`` (literals true in ``world``, an optimal world of
        some evidence) literals whose atom can be flipped alone changing the truth of no
        formula (so at no cost, every hard formula still true): all of them, or none
        where the test does not pay (:data:`SMALL`, :data:`SAMPLE`).

        A flip whose changes cancel out (one soft formula made true, another of the same
        weight made false) is not looked for: the test stops at the first formula whose
        truth changes, which keeps it to a few evaluations for the literals it keeps
        (atoms in hundreds of formulas); the backbone's solver calls find the rest.

        :param keep: atoms never flipped (those of evidence formulas, which the test
            does not evaluate).
        :returns: whether all were tested (the test paid here, and may in the next
            world of the same question).
        """
        if len(candidates) < SMALL:
            return False
        order = sorted(candidates, key=abs)
        sample = order[:: max(1, len(order) // SAMPLE)][:SAMPLE]
        flippable = self._flippable(world, keep)
        removed = [lit for lit in sample if flippable(abs(lit))]
        candidates.difference_update(removed)
        if 2 * len(removed) < len(sample):
            return False
        tested = set(sample)
        candidates.difference_update([lit for lit in order if lit not in tested and flippable(abs(lit))])
        return True

    def _flippable(self, world: World, keep: Iterable[int]) -> Callable[[int], bool]:
        """The test of one atom of ``world``: whether flipping it alone changes the truth
        of no formula (the atoms of ``keep`` never are)."""
        occurrences = self._prepare()
        checks, compiled = self._checks, self._check
        n_soft = self._n_soft
        kept = set(keep)
        values = list(world.values)
        truth: dict[int, bool] = {}  # soft formula -> its value in ``world`` (hard ones hold)

        def flippable(a: int) -> bool:
            if a in kept:
                return False
            for i in occurrences.get(a, ()):
                if i == _WIDE:
                    return False
                check = checks.get(i) or compiled(i)
                if i < n_soft and i not in truth:
                    truth[i] = check(values)
                values[a] = not values[a]
                now = check(values)
                values[a] = not values[a]
                if now != (truth[i] if i < n_soft else True):
                    return False
            return True

        return flippable
