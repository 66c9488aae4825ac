"""MAP inference as a user asks for it: atoms by name, penalties in the model's units.

:class:`~.engine.MapEngine` works on ints (atoms ``1..n``, DIMACS literals, penalties in
resolution steps): the transformations make millions of calls and need nothing else.
:class:`MapInference` is the same engine at the edge, for people: evidence and answers
are atom names (``"!flies(Tweety)"``), penalties and costs are weights in the model's
units (``5.0``, ``inf`` for impossible evidence).
"""

from __future__ import annotations

__all__ = ["MapAnswer", "MapInference", "map_inference"]

from dataclasses import dataclass

from ..ground_mln import GroundMLN
from ..logic.formula import Formula
from .engine import Evidence, MapEngine


@dataclass(frozen=True)
class MapAnswer:
    """What MAP inference says about one evidence set, by atom name: its penalty (in
    weight units; ``penalty_steps`` exact), one MAP world, and the atoms with the same
    value in every MAP world (``entailed``: atom -> that value)."""

    penalty: float
    penalty_steps: int | float
    world: dict[str, bool]
    entailed: dict[str, bool]


class MapInference:
    """Exact MAP inference on a ground MLN, by name and in weight units; a context manager."""

    def __init__(self, engine: MapEngine) -> None:
        self.engine = engine
        self.mln = engine.mln

    def __enter__(self) -> MapInference:
        return self

    def __exit__(self, *exc: object) -> None:
        self.engine.close()

    def _units(self, steps: int | float) -> float:
        return self.mln.resolution.to_units(steps)

    def penalty(self, evidence: Evidence = ()) -> float:
        """``pen(M, E)`` in the model's weight units (``inf`` when ``E`` is impossible)."""
        return self._units(self.engine.penalty(evidence))

    def cost(self, evidence: Evidence = ()) -> float:
        """The weight of the soft formulas an optimal world of ``E`` violates."""
        return self._units(self.engine.optimum(evidence).cost)

    def map_world(self, evidence: Evidence = ()) -> dict[str, bool]:
        """One most probable world of the evidence: atom name -> truth value."""
        return self.mln.named(self.engine.map_world(evidence))

    def consequences(self, evidence: Evidence = ()) -> frozenset[str]:
        """The literals true in every MAP world of the evidence, by name (``!b`` for false)."""
        return frozenset(self.mln.literal_name(lit) for lit in self.engine.consequences(evidence))

    def answer(self, evidence: Evidence = ()) -> MapAnswer:
        """Penalty, a MAP world and the atoms every MAP world agrees on, at once."""
        engine = self.engine
        evidence = list(evidence)
        base = engine.base()
        found = engine.optimum(evidence) if evidence else base  # (one optimum serves all three)
        steps = found.cost - base.cost
        entailed = sorted(engine.consequences(evidence, known=found), key=abs)
        return MapAnswer(self._units(steps), steps, self.mln.named(found.world),
                         {self.mln.name(abs(lit)): lit > 0 for lit in entailed})

    def entails(self, evidence: Evidence, query: str | Formula) -> bool:
        """``(M, E) |-MAP query``."""
        return self.engine.entails(evidence, query)


def map_inference(mln: GroundMLN, backend: str = "auto") -> MapInference:
    """MAP inference on ``mln`` by name and in weight units (see :func:`.open_engine`
    for the int-level engine); use it as a context manager."""
    from . import open_engine

    return MapInference(open_engine(mln, backend))
