"""Transformation 1 (exhaustive): the full encoding of a ground MLN.

For every non-empty set ``X`` of soft formulas, ``(OR X, pen(M, not OR X))``; the hard
formulas are certain.  Sets whose disjunction the hard part already entails (penalty
``INF``: "tautologies at level 1", docs/corrections.md item 4) are dropped.  Level 0
is a real level.  The least specific model then gives ``pi = 1 - phi``, and
``(M, E) |-MAP a`` iff ``(T, E) |-poss a`` for every ``E`` and ``a``.  The theory has up
to ``2**m`` formulas for ``m`` soft formulas, so it is refused above ``max_formulas``
unless forced.
"""

from __future__ import annotations

__all__ = ["exhaustive"]

import itertools

from ..errors import ModelError
from ..ground_mln import GroundMLN
from ..logic.formula import Or, Truth, negate, substitute_atoms
from ..map import open_engine
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory
from ..search.progress import Reporter
from ..weights import INF
from .formulas import hard_part
from .options import ExhaustiveOptions


def exhaustive(mln: GroundMLN, options: ExhaustiveOptions = ExhaustiveOptions(), *, force: bool = False
               ) -> PossibilisticTheory:
    """Transformation 1.

    :raises ModelError: with more than ``options.max_formulas`` soft formulas, unless ``force``.
    """
    m = len(mln.soft)
    max_formulas = options.max_formulas
    if m > max_formulas and not force:
        raise ModelError(
            f"the exhaustive transformation has up to 2**{m} formulas for {m} soft formulas; "
            f"it is refused above {max_formulas} (--force, or force=True from Python; or use the selective or defaults method)"
        )
    out = hard_part(mln)
    total = 2**m - 1
    report = Reporter(options.progress, "subsets of soft formulas", total)
    done = 0
    with open_engine(mln, options.backend) as engine:
        for size in range(1, m + 1):
            for subset in itertools.combinations(range(m), size):
                parts = tuple(mln.soft[i].formula for i in subset)
                # flattened, without repeated disjuncts: (!a v x) v (!a v y) reads !a v x v y
                disjunction = substitute_atoms(Or(parts), lambda _atom: None)
                level = engine.penalty([negate(disjunction)])
                if level != INF and not isinstance(disjunction, Truth):
                    origin = "soft formulas " + ", ".join(str(i + 1) for i in subset)
                    out.append(PossibilisticFormula(disjunction, level, origin, mln.resolution))
                done += 1
                report(done, len(out), size)
    report(done, len(out), final=True)
    return PossibilisticTheory(mln.atoms, tuple(out), mln.resolution)
