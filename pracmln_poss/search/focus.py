"""Which atoms evidence sets may mention and which atoms rules conclude about.

A :class:`Focus` restricts a conversion's evidence sets to literals over the evidence
and query atoms, and its heads to query literals (docs/focus.md proves what the theory
then answers). The rule search, the command line and ``verify`` share it.
"""

from __future__ import annotations

__all__ = ["Focus"]

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..atoms import predicate_of
from ..errors import UnknownNameError, closest
from ..model.ground_mln import GroundMLN


@dataclass(frozen=True)
class Focus:
    """Which atoms evidence may mention and which atoms rules conclude about (None: all)."""

    evidence: frozenset[int] | None = None
    query: frozenset[int] | None = None

    @classmethod
    def of_predicates(
        cls, mln: GroundMLN, evidence: Iterable[str] | None = None, query: Iterable[str] | None = None
    ) -> Focus:
        """The focus given by predicate names (``None``: no restriction).

        :raises UnknownNameError: naming a predicate the model does not have, and the ones it has.
        """
        by_pred: dict[str, set[int]] = {}
        THE_PREDICATES = "the model's predicates"  # noqa: N806
        for i, name in enumerate(mln.atoms, 1):
            by_pred.setdefault(predicate_of(name), set()).add(i)

        def atoms(preds: Iterable[str] | None, what: str) -> frozenset[int] | None:
            if preds is None:
                return None
            out: set[int] = set()
            for p in preds:
                if p not in by_pred:
                    raise UnknownNameError(
                        f"unknown {what} predicate {p!r}; {closest(p, sorted(by_pred), THE_PREDICATES)}"
                    )
                out |= by_pred[p]
            return frozenset(out)

        return cls(atoms(evidence, "evidence"), atoms(query, "query"))

    def is_query(self, atom: int) -> bool:
        return self.query is None or atom in self.query

    def enumerated(self, atoms: Sequence[int]) -> list[int]:
        """The atoms evidence sets are built from: evidence and query atoms (the proof
        of Prop. 2 adds negated conclusions to the evidence)."""
        if self.evidence is None or self.query is None:
            return list(atoms)
        keep = self.evidence | self.query
        return [a for a in atoms if a in keep]
