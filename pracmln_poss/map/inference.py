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

from ..atoms import EvidenceItem, evidence_items
from ..closable import Closable
from ..errors import InconsistentEvidenceError
from ..logic.formula import Formula
from ..model.ground_mln import GroundMLN
from ..weights import INF
from .choice import DEFAULT_BACKEND, open_engine
from .engine import Evidence, MapEngine
from .world import Optimum


@dataclass(frozen=True)
class MapAnswer:
    """What MAP inference says about one evidence set, by atom name: its penalty (in
    weight units; ``penalty_steps`` exact), one MAP world, and the atoms with the same
    value in every MAP world (``entailed``: atom -> that value)."""

    penalty: float
    penalty_steps: int | float
    world: dict[str, bool]
    entailed: dict[str, bool]


class MapInference(Closable):
    """Exact MAP inference on a ground MLN, by name and in weight units; a context manager.

    A model loaded with a database and a closed world (:func:`~pracmln_poss.bridge.query.map_inference`)
    has them as hard evidence of its ground model, the fast way; the two questions that
    model alone cannot answer get an engine of their own, made when first needed:

    :param closed: the atoms the closed world makes false, which a question's evidence
        may name instead (pracmln closes only what the database leaves open, and the
        evidence given counts as database).
    :param reopen: the engine of the same model with some of those atoms left open.
    :param without_database: the engine of the model without its database and closed
        world, whose optimum :meth:`database_penalty` is measured from.
    """

    def __init__(self, engine: MapEngine, closed: Iterable[int] = (),
                 reopen: Callable[[frozenset[int]], MapEngine] | None = None,
                 without_database: Callable[[], MapEngine] | None = None) -> None:
        self.engine = engine
        self.mln = engine.mln
        self.closed = frozenset(closed)
        self._reopen = reopen
        self._reopened: dict[frozenset[int], MapEngine] = {}
        self._without_database = without_database
        self._free: MapEngine | None = None

    def close(self) -> None:
        """Release the solvers."""
        for engine in (self.engine, *self._reopened.values(), *([self._free] if self._free is not None else [])):
            engine.close()

    def _units(self, steps: int | float) -> float:
        return self.mln.resolution.to_units(steps)

    def engine_for(self, evidence: Evidence = ()) -> tuple[MapEngine, list[EvidenceItem]]:
        """The engine that answers a question with this evidence (one that leaves open
        the closed atoms the evidence names), and the evidence as it takes it."""
        if not self.closed:  # (the engine reads the evidence itself: nothing to choose by)
            return self.engine, list(evidence_items(evidence))
        units, formulas = self.engine.split_evidence(evidence)
        named = frozenset(abs(u) for u in units) & self.closed
        engine = self.engine
        if named and self._reopen is not None:
            if named not in self._reopened:
                self._reopened[named] = self._reopen(named)
            engine = self._reopened[named]
        return engine, [*units, *formulas]

    def penalty(self, evidence: Evidence = ()) -> float:
        """``pen(M, E)`` in the model's weight units (``inf`` when ``E`` is impossible);
        a database and a closed world are part of ``M`` (:meth:`database_penalty`
        counts them as evidence)."""
        engine, ev = self.engine_for(evidence)
        return self._units(engine.penalty(ev))

    def database_penalty(self, evidence: Evidence = ()) -> float:
        """``pen(M, D u C u E)``: the penalty of the database ``D``, the closed world's
        atoms ``C`` and ``evidence`` together, measured from the optimum of the model
        without them (one more MAP solve, on a model that may be harder without its
        evidence); the same as :meth:`penalty` for a model without a database."""
        if self._without_database is None:
            return self.penalty(evidence)
        engine, ev = self.engine_for(evidence)
        try:
            found = engine.optimum(ev)
        except InconsistentEvidenceError:
            return INF
        if self._free is None:
            self._free = self._without_database()
        return self._units(found.cost - self._free.base().cost)

    def cost(self, evidence: Evidence = ()) -> float:
        """The weight of the soft formulas an optimal world of ``E`` violates."""
        engine, ev = self.engine_for(evidence)
        return self._units(engine.optimum(ev).cost)

    def map_world(self, evidence: Evidence = ()) -> dict[str, bool]:
        """One most probable world of the evidence: atom name -> truth value."""
        engine, ev = self.engine_for(evidence)
        return self.mln.named(engine.map_world(ev))

    def consequences(self, evidence: Evidence = ()) -> frozenset[str]:
        """The literals true in every MAP world of the evidence, by name (``!b`` for false)."""
        engine, ev = self.engine_for(evidence)
        return frozenset(self.mln.literal_name(lit) for lit in engine.consequences(ev))

    def answer(self, evidence: Evidence = ()) -> MapAnswer:
        """Penalty, a MAP world and the atoms every MAP world agrees on, at once."""
        engine, ev = self.engine_for(evidence)
        # (the question first: stopped by a time limit, its best world so far is the
        # --anytime answer, where the evidence-free optimum's is none)
        found = engine.optimum(ev) if ev else engine.base()  # (one optimum serves all three)
        base = engine.base()
        steps = found.cost - base.cost
        entailed = sorted(engine.consequences(ev, known=found), key=abs)
        return MapAnswer(self._units(steps), steps, self.mln.named(found.world),
                         {self.mln.name(abs(lit)): lit > 0 for lit in entailed})

    def best_found(self, evidence: Evidence = ()) -> Optimum | None:
        """After a stopped question: the best world found for ``evidence`` by then, with
        its cost (:meth:`.MapEngine.best_found`); None: none that satisfies it."""
        engine, ev = self.engine_for(evidence)
        return engine.best_found(ev)

    def entails(self, evidence: Evidence, query: str | Formula) -> bool:
        """``(M, E) |-MAP query``."""
        engine, ev = self.engine_for(evidence)
        return engine.entails(ev, query)


def map_engine_inference(mln: GroundMLN, backend: str = DEFAULT_BACKEND) -> MapInference:
    """MAP inference on a ground MLN by name and in weight units (see :func:`.open_engine`
    for the int-level engine); :func:`~pracmln_poss.bridge.query.map_inference` takes files, projects
    and pracmln's objects too."""
    return MapInference(open_engine(mln, backend))
