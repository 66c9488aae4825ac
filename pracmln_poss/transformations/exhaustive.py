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

__all__ = ["exhaustive", "ExhaustiveOptions"]

import itertools
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from ..logic.formula import Or, Truth, negate, substitute_atoms
from ..map import open_engine
from ..model.ground_mln import GroundMLN
from ..possibilistic.theory import PossibilisticFormula, PossibilisticTheory
from ..search.progress import Reporter
from ..weights import INF
from .formulas import hard_part
from .options import DEFAULT_MAX_FORMULAS, Flag, MethodOptions, Request, Runtime, check_count, option


@dataclass(frozen=True)
class ExhaustiveOptions(MethodOptions):
    """Transformation 1 (exact for every question: it has no ``k``).

    :ivar max_formulas: refuse more soft formulas than this (2^m subsets) unless forced.
    """

    method: ClassVar[str] = "exhaustive"

    max_formulas: int = option(DEFAULT_MAX_FORMULAS, Flag(
        ("--max-formulas",), f"refuse more soft formulas than N (2^N subsets) unless --force (default "
        f"{DEFAULT_MAX_FORMULAS})", int, "N"), check=check_count)

    def run(self, request: Request, runtime: Runtime) -> PossibilisticTheory:
        return exhaustive(request.ground, self, force=request.force, runtime=runtime)


def exhaustive(mln: GroundMLN, options: ExhaustiveOptions = ExhaustiveOptions(), *, force: bool = False,
               runtime: Runtime = Runtime()) -> PossibilisticTheory:
    """Transformation 1.

    :param runtime: its progress is reported to.

    :raises ModelError: with more than ``options.max_formulas`` soft formulas, unless ``force``.
    """
    m = len(mln.soft)
    max_formulas = options.max_formulas
    if m > max_formulas and not force:
        raise ModelError(
            f"the exhaustive transformation has up to 2**{m} formulas for {m} soft formulas; "
            f"it is refused above {max_formulas} (--max-formulas N or --force; max_formulas= or force=True from "
            "Python; or use the selective or defaults method)"
        )
    out = hard_part(mln)
    total = 2**m - 1
    report = Reporter(runtime.progress, "subsets of soft formulas", total)
    done = 0
    with open_engine(mln, options.backend, runtime.guard) as engine:
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
