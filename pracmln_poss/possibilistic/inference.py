"""Possibilistic inference as a user asks for it: atoms by name, levels in weight units.

A theory is data (:class:`~.protocol.Theory`); questions go through a reasoner, as
PySAT keeps a formula apart from the solver that answers on it.  :class:`~.reasoner.Reasoner`
is the exact layer (int steps of the resolution, ground theories only);
:class:`PossibilisticInference` is the same reasoner at the edge, for people and for
ground and lifted theories alike: levels in the model's weight units (``0.74`` for
``lambda_0.74``, ``inf`` for certain), drowned rules as text, and on a lifted theory
first-order rules as queries of :meth:`~PossibilisticInference.necessity`.  It mirrors
:func:`~pracmln_poss.bridge.query.map_inference` over :func:`~pracmln_poss.map.choice.open_engine`.
"""

from __future__ import annotations

__all__ = ["PossibilisticInference", "possibilistic_inference"]

from .. import arguments
from ..atoms import Evidence
from ..closable import Closable
from ..logic.formula import Formula
from ..stopping import SAT_SOLVER, Guard
from .lifted_theory import LiftedTheory
from .protocol import Theory
from .reasoner import Reasoner
from .theory import Answer, Level, PossibilisticFormula, PossibilisticTheory, RuleText


class PossibilisticInference(Closable):
    """Questions to one theory (ground or lifted), in weight units; a context manager
    owning one incremental SAT solver, so many questions cost one clausification.

    :ivar reasoner: the exact reasoner (int steps).
    :param guard: the run's guard, which the SAT calls go through (None: one of their own).
    """

    def __init__(self, theory: Theory, solver: str = SAT_SOLVER, guard: Guard | None = None) -> None:
        self.theory = theory
        # (a lifted theory on its rules' clauses: no formula per grounding)
        self.reasoner = Reasoner(theory if isinstance(theory, LiftedTheory) else theory.ground(), solver,
                                 guard=guard)
        self._ground = self.reasoner.theory

    def close(self) -> None:
        """Release the SAT solver."""
        self.reasoner.close()

    def entails(self, evidence: Evidence, query: str | Formula) -> bool:
        """``(T, E) |-poss query`` for a ground query and ground evidence.

        :raises InconsistentEvidenceError: when the evidence contradicts the certain part.
        """
        return self.reasoner.entails(evidence, query)

    def consistency_level(self, evidence: Evidence = ()) -> float:
        """``con(T, E)`` in the model's weight units (``inf``: only the certain rules are
        consistent with the evidence)."""
        return self._ground.in_units(self.reasoner.consistency_steps(evidence))

    def query(self, evidence: Evidence, query: str | Formula | None) -> Answer:
        """Entailment, consistency level and drowned rules at once, in the model's weight
        units with formulas as text (the exact int steps: :meth:`.Reasoner.query`)."""
        found = self.reasoner.query(evidence, query)
        return Answer(found.entailed, self._ground.in_units(found.consistency_steps),
                      tuple(RuleText(self._ground.format(pf.formula), pf.level) for pf in found.drowned))

    def drowned(self, evidence: Evidence = ()) -> tuple[PossibilisticFormula, ...]:
        """The ground formulas below ``con(T, E)``: ignored under the evidence."""
        return self.reasoner.drowned(evidence)

    def necessity(self, query: str | Formula) -> float | None:
        """``N(query)`` in the model's weight units (``inf`` when certain); None when no
        cut entails it."""
        return self._ground.in_units(self.necessity_steps(query))

    def necessity_steps(self, query: str | Formula) -> Level | None:
        """``N(query)`` in exact int steps (as in :meth:`.Theory.level_steps`): the highest
        level whose cut entails it, None if none does.  On a lifted theory ``query`` may
        be a rule over its typed variables (``s(p1) ^ f(p1,p2) => s(p2)``): every grounding
        must be entailed."""
        return self.reasoner.necessity_steps(self.theory.ground_formula(query))


def possibilistic_inference(theory: Theory, solver: str = SAT_SOLVER) -> PossibilisticInference:
    """Inference on ``theory`` by name and in weight units (see :class:`.Reasoner` for the
    exact int layer); use it as a context manager:

    >>> from pracmln_poss import PossibilisticTheory, possibilistic_inference
    >>> theory = PossibilisticTheory.from_pairs([("bird(T) => flies(T)", 0.5),
    ...                                          ("penguin(T) => !flies(T)", "inf")])
    >>> with possibilistic_inference(theory) as ask:
    ...     ask.entails(["bird(T)"], "flies(T)"), ask.necessity("bird(T) => flies(T)")
    (True, 0.5)
    """
    arguments.instance("theory", theory, PossibilisticTheory | LiftedTheory, "a PossibilisticTheory or a LiftedTheory")
    return PossibilisticInference(theory, solver)
