"""Single flips: the literals of an optimal world that are in no backbone, for free.

A literal of an optimal world ``w`` whose atom can be flipped alone, every hard formula
still true and the soft formulas' total weight unchanged, is false in another optimal
world (``w`` with that atom flipped), so it is not true in all optimal worlds.  Checking
that costs two evaluations of the formulas the atom occurs in, no solver call: on dense
evidence (friendships given, their endpoints open) it removes all but the backbone
before the first SAT call, where each SAT call of the backbone removed one literal
(CadiBack, Biere, Froleyks and Wang, SAT 2023, flips a model's literals the same way
before each call).
"""

from __future__ import annotations

__all__ = ["SingleFlips"]

from collections.abc import Callable, Iterable

from ..ground_mln import GroundMLN
from ..logic.formula import atoms_of, compile_ground
from .world import World


class SingleFlips:
    """The single-flip test on one ground MLN (its formulas compiled once, at first use)."""

    def __init__(self, mln: GroundMLN) -> None:
        self.mln = mln
        self._occurrences: dict[int, list[int]] | None = None
        self._checks: list[Callable[[list[bool]], bool]] = []
        self._weights: list[int | float] = []

    def _prepare(self) -> dict[int, list[int]]:
        """Atom -> indices into ``soft + hard`` of the formulas it occurs in."""
        if self._occurrences is None:
            formulas = self.mln.soft + self.mln.hard
            self._checks = [compile_ground(wf.formula) for wf in formulas]
            self._weights = [wf.weight for wf in self.mln.soft]
            occurrences: dict[int, list[int]] = {}
            for i, wf in enumerate(formulas):
                for a in atoms_of(wf.formula):
                    occurrences.setdefault(a, []).append(i)
            self._occurrences = occurrences
        return self._occurrences

    def drop(self, world: World, candidates: set[int], keep: Iterable[int] = ()) -> None:
        """Remove from ``candidates`` (literals true in ``world``, an optimal world of
        some evidence) those whose atom can be flipped alone at no cost.

        :param keep: atoms never flipped (those of evidence formulas, which the test
            does not evaluate).
        """
        occurrences = self._prepare()
        checks, weights = self._checks, self._weights
        n_soft = len(weights)
        kept = set(keep)
        values = list(world.values)
        truth: dict[int, bool] = {}  # soft formula -> its value in ``world`` (hard ones hold)
        for lit in sorted(candidates, key=abs):
            a = abs(lit)
            if a in kept:
                continue
            mentioned = occurrences.get(a, ())
            for i in mentioned:
                if i < n_soft and i not in truth:
                    truth[i] = checks[i](values)
            values[a] = not values[a]
            delta: int | float = 0
            feasible = True
            for i in mentioned:
                now = checks[i](values)
                if i >= n_soft:
                    if not now:
                        feasible = False
                        break
                elif truth[i] != now:
                    delta += weights[i] if truth[i] else -weights[i]
            values[a] = not values[a]
            if feasible and delta == 0:
                candidates.discard(lit)
