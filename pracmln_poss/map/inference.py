"""MAP inference as a user asks for it: atoms by name, penalties in the model's units.

:class:`~.engine.MapEngine` works on ints (atoms ``1..n``, DIMACS literals, penalties in
resolution steps): the transformations make millions of calls and need nothing else.
:class:`MapInference` is the same engine at the edge, for people: evidence and answers
are atom names (``"!flies(Tweety)"``), penalties and costs are weights in the model's
units (``5.0``, ``inf`` for impossible evidence).
"""

from __future__ import annotations

__all__ = ["MapAnswer", "MapInference", "map_engine_inference"]

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import InconsistentEvidenceError
from ..ground_mln import GroundMLN
from ..logic.formula import Formula
from ..weights import INF
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
    """Exact MAP inference on a ground MLN, by name and in weight units; a context manager.

    :param closed: literals of pracmln's closed world (atoms false unless said): added to
        each question's evidence, except those of an atom the question's evidence names
        (as pracmln closes what its database leaves open, the evidence given counting as
        database).
    :param database_free: the engine of the same model without its database (and closed
        world), opened when first needed: the optimum a penalty is measured from, so that
        ``penalty()`` is the database's penalty, not 0 (None: the model has no database;
        the penalty is measured from the model's own optimum).
    """

    def __init__(self, engine: MapEngine, closed: Iterable[int] = (),
                 database_free: Callable[[], MapEngine] | None = None) -> None:
        self.engine = engine
        self.mln = engine.mln
        self.closed = tuple(closed)
        self._database_free = database_free
        self._free: MapEngine | None = None

    def __enter__(self) -> MapInference:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the solvers."""
        self.engine.close()
        if self._free is not None:
            self._free.close()

    def _units(self, steps: int | float) -> float:
        return self.mln.resolution.to_units(steps)

    def evidence(self, evidence: Evidence = ()) -> list[int | Formula]:
        """A question's evidence with the closed world's literals its atoms leave open."""
        units, formulas = self.engine.split_evidence(evidence)
        named = {abs(u) for u in units}
        return [*units, *(lit for lit in self.closed if abs(lit) not in named), *formulas]

    def base_cost(self) -> int | float:
        """The optimal cost, in int steps, that penalties are measured from: of the model
        without its database and closed world, when it has them."""
        if self._database_free is None:
            return self.engine.base().cost
        if self._free is None:
            self._free = self._database_free()
        return self._free.base().cost

    def penalty(self, evidence: Evidence = ()) -> float:
        """``pen(M, E)`` in the model's weight units (``inf`` when ``E`` is impossible);
        with a database, ``E`` is the database, the closed world and ``evidence``."""
        return self._units(self.penalty_steps(evidence))

    def penalty_steps(self, evidence: Evidence = ()) -> int | float:
        """:meth:`penalty` in exact int steps."""
        if self._database_free is None and not self.closed:
            return self.engine.penalty(evidence)
        try:
            found = self.engine.optimum(self.evidence(evidence))
        except InconsistentEvidenceError:
            return INF
        return found.cost - self.base_cost()

    def cost(self, evidence: Evidence = ()) -> float:
        """The weight of the soft formulas an optimal world of ``E`` violates."""
        return self._units(self.engine.optimum(self.evidence(evidence)).cost)

    def map_world(self, evidence: Evidence = ()) -> dict[str, bool]:
        """One most probable world of the evidence: atom name -> truth value."""
        return self.mln.named(self.engine.map_world(self.evidence(evidence)))

    def consequences(self, evidence: Evidence = ()) -> frozenset[str]:
        """The literals true in every MAP world of the evidence, by name (``!b`` for false)."""
        return frozenset(self.mln.literal_name(lit) for lit in self.engine.consequences(self.evidence(evidence)))

    def answer(self, evidence: Evidence = ()) -> MapAnswer:
        """Penalty, a MAP world and the atoms every MAP world agrees on, at once."""
        engine = self.engine
        evidence = self.evidence(evidence)
        found = engine.optimum(evidence) if evidence else engine.base()  # (one optimum serves all three)
        steps = found.cost - self.base_cost()
        entailed = sorted(engine.consequences(evidence, known=found), key=abs)
        return MapAnswer(self._units(steps), steps, self.mln.named(found.world),
                         {self.mln.name(abs(lit)): lit > 0 for lit in entailed})

    def entails(self, evidence: Evidence, query: str | Formula) -> bool:
        """``(M, E) |-MAP query``."""
        return self.engine.entails(self.evidence(evidence), query)


def map_engine_inference(mln: GroundMLN, backend: str = "auto") -> MapInference:
    """MAP inference on a ground MLN by name and in weight units (see :func:`.open_engine`
    for the int-level engine); :func:`~pracmln_poss.bridge.query.map_inference` takes files, projects
    and pracmln's objects too."""
    from . import open_engine

    return MapInference(open_engine(mln, backend))
