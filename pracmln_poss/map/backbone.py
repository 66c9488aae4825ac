"""The backbone of a SAT problem: the literals true in all its models, in a few SAT calls.

Used on the optimal worlds of a MaxSAT problem once its optimum is known: a core-guided
solver's final state is a SAT problem (its clauses under its final assumptions) whose
models are exactly the optimal worlds (:mod:`.core_guided`).

The algorithm is the iterative one with a clause and preferred phases (Janota, Lynce and
Marques-Silva, *Algorithms for computing backbones of propositional formulae*, AI
Communications 2015; CadiBack, Biere, Froleyks and Wang, SAT 2023): the candidates are
the literals of one model; each call asks for a model that flips at least one remaining
candidate (a clause over their negations, switched on by an activation literal of that
backbone only: the candidates only shrink, so each clause implies the ones before), with
every candidate's variable set to prefer its flipped value, so that one model removes
every candidate it can flip at once; the candidates left when that call is
unsatisfiable are the backbone.  A model of a problem with many free atoms (friends
of friends in a large domain) thus removes them all in one call, where testing one
literal at a time took a call each.  The solver may not keep those phases (Glucose's
phase saving overrides them), so each model found also goes to the caller's
``refine``, which removes what it can for free (:mod:`.flips`: the literals the model
flips alone at no cost).
"""

from __future__ import annotations

__all__ = ["backbone", "kept"]

from collections.abc import Callable, Iterable, Sequence

from .. import stopping
from ..stopping import SatOracle


def backbone(oracle: SatOracle, assumptions: list[int], candidates: Iterable[int], model: Sequence[int],
             fresh: Callable[[], int], seen: Callable[[list[int]], None] | None = None,
             refine: Callable[[list[int], set[int]], None] | None = None) -> tuple[set[int], int]:
    """The candidates true in every model of ``oracle`` under ``assumptions``, and the
    SAT calls it took.

    :param oracle: a PySAT solver (clauses are added to it: each call's clause is
        switched off for good by a unit clause on its activation literal afterwards).
    :param candidates: literals; the result is those of them in the backbone.
    :param model: a model under the assumptions (``model[v - 1]`` is ``v`` or ``-v``);
        a variable beyond it is in no clause, so it is free.
    :param fresh: makes a variable no clause uses yet.
    :param seen: called with each model the calls find (not kept here: a model is a
        list entry per variable).
    :param refine: called with each model found and the candidates it left; removes
        more of them that are not in the backbone.
    """
    left = kept(set(candidates), model)
    calls = 0
    if not left:
        return left, calls
    # one activation literal for every call: the candidates only shrink, so each
    # call's clause implies the ones before it
    switch = fresh()
    try:
        while left:
            oracle.set_phases([-l for l in left])
            oracle.add_clause([-switch, *(-l for l in left)])
            calls += 1
            new = oracle.get_model() if stopping.sat(oracle, [*assumptions, switch]) else None
            if new is None:
                break
            if seen is not None:
                seen(new)
            left = kept(left, new)
            if refine is not None and left:
                refine(new, left)
    finally:
        oracle.add_clause([-switch])
    return left, calls


def kept(literals: set[int], model: Sequence[int]) -> set[int]:
    """The literals ``model`` makes true (those over variables it lacks are free)."""
    n = len(model)
    return {l for l in literals if abs(l) <= n and model[abs(l) - 1] == l}
