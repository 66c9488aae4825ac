"""A MAP world and an optimum: the values every backend and the engine pass around."""

from __future__ import annotations

__all__ = ["World", "Optimum"]

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class World:
    """A truth assignment to atoms ``1..n`` (``values[0]`` is unused)."""

    values: tuple[bool, ...]

    def __getitem__(self, atom: int) -> bool:
        return self.values[atom]

    def __len__(self) -> int:
        return len(self.values)

    @property
    def n_atoms(self) -> int:
        return len(self.values) - 1

    def satisfies(self, lit: int) -> bool:
        return self.values[abs(lit)] == (lit > 0)

    def literals(self) -> tuple[int, ...]:
        """The world as the DIMACS literals it makes true."""
        return tuple(a if v else -a for a, v in enumerate(self.values) if a)

    @classmethod
    def from_literals(cls, n_atoms: int, true_atoms: Iterable[int]) -> World:
        values = [False] * (n_atoms + 1)
        for a in true_atoms:
            values[a] = True
        return cls(tuple(values))


@dataclass(frozen=True)
class Optimum:
    """An optimal world and its cost (total weight of the soft formulas it violates)."""

    cost: int
    world: World
