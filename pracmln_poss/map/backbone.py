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

A clause over more than :data:`FAN_OUT` candidates is written as a tree of clauses of at
most that many literals each (:func:`_at_least_one`): MiniSat and Glucose look for a
clause's next watched literal from its start, so one clause of n literals falsified one
by one costs n squared (measured: 9 s for 200,000 candidates, 0.6 s for 50,000).
"""

from __future__ import annotations

__all__ = ["FAN_OUT", "backbone", "kept"]

from collections.abc import Callable, Iterable, Sequence

from ..stopping import Guard, SatOracle, given

FAN_OUT = 64
"""The most literals of a clause the backbone's calls add (see the module's text)."""


def backbone(oracle: SatOracle, assumptions: list[int], candidates: Iterable[int], model: Sequence[int],
             fresh: Callable[[], int], seen: Callable[[list[int]], None] | None = None,
             refine: Callable[[list[int], set[int]], None] | None = None, guard: Guard | None = None
             ) -> tuple[set[int], int]:
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
    :param guard: the run's guard, which the SAT calls go through (None: one of their own).
    """
    left = kept(set(candidates), model)
    calls = 0
    if not left:
        return left, calls
    # one activation literal for every call: the candidates only shrink, so each
    # call's clause implies the ones before it
    switch = fresh()
    guard = given(guard)
    try:
        while left:
            flipped = [-l for l in left]
            oracle.set_phases(flipped)
            oracle.add_clause([-switch, *_at_least_one(oracle, flipped, fresh)])
            calls += 1
            new = oracle.get_model() if guard.sat(oracle, [*assumptions, switch]) else None
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


def _at_least_one(oracle: SatOracle, literals: list[int], fresh: Callable[[], int]) -> list[int]:
    """At most :data:`FAN_OUT` literals whose disjunction can be true exactly where one of
    ``literals`` is: ``literals`` themselves when they are few, else a fresh variable
    per group of them with a clause saying that it implies its group's disjunction (its
    preferred phase true), over as many levels as it takes.  A model of the clauses
    that makes one of the result true makes one of ``literals`` true; a model of the
    oracle's other clauses that makes one of ``literals`` true is one with the fresh
    variables above it set true (they are in no other clause)."""
    while len(literals) > FAN_OUT:
        groups = []
        for start in range(0, len(literals), FAN_OUT):
            group = fresh()
            oracle.add_clause([-group, *literals[start:start + FAN_OUT]])
            groups.append(group)
        oracle.set_phases(groups)
        literals = groups
    return literals


def kept(literals: set[int], model: Sequence[int]) -> set[int]:
    """The literals ``model`` makes true (those over variables it lacks are free)."""
    n = len(model)
    return {l for l in literals if abs(l) <= n and model[abs(l) - 1] == l}
