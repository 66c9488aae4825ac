"""The model layer: Markov logic networks as plain data, first-order (:mod:`.first_order`)
and ground (:mod:`.ground_mln`), the grounding of one into the other (:mod:`.grounding`)
and pracmln's closed world (:mod:`.closed_world`)."""

from __future__ import annotations

__all__ = ["FirstOrderMLN", "GroundMLN", "WeightedFormula", "ground", "close_world"]

from .closed_world import close_world
from .first_order import FirstOrderMLN
from .ground_mln import GroundMLN, WeightedFormula
from .grounding import ground
