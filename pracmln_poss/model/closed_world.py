"""pracmln's closed-world assumption: atoms of some predicates that the evidence leaves
open are false.

pracmln's inference takes ``cw`` (every predicate but the query predicates and the
functional ones is closed) and ``cw_preds`` (those predicates are closed; a functional
one is an error, a soft-functional one is closed all the same).  A project's
``query.conf`` may set either.  Closing a predicate adds its open atoms to the evidence
as false, before grounding, so every use of the evidence (MAP, explanations) sees them.
"""

from __future__ import annotations

__all__ = ["closed_predicates", "close_world", "close_as_asked"]

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..errors import ModelError, UnknownNameError, closest
from .first_order import EvidenceLiteral, FirstOrderMLN
from .grounding import MAX_GROUND_ATOMS


def closed_predicates(model: FirstOrderMLN, cw: bool, cw_preds: Iterable[str] = (),
                      query_preds: Iterable[str] = ()) -> tuple[str, ...]:
    """The predicates pracmln would close: ``cw_preds``, and with ``cw`` every predicate
    that is neither a query predicate nor functional (``!``) nor soft-functional (``?``).

    :param query_preds: pracmln's queries: predicate names, or formulas whose
        predicates count (names of no predicate are ignored, as pracmln ignores them here).

    :raises UnknownNameError: for a name that is not a predicate of the model (with the
        closest ones).
    :raises ModelError: for a functional predicate in ``cw_preds`` (exactly one value
        per assignment of the other arguments: it cannot be all false).
    """
    preds = model.predicate_map
    explicit = list(dict.fromkeys(cw_preds))
    queries = {name for q in query_preds for name in ([q] if q in preds else re.findall(r"(\w+)\s*\(", q))}
    for name in explicit:
        if name not in preds:
            raise UnknownNameError(f"unknown predicate {name!r} in the closed-world settings; "
                                   f"{closest(name, preds, 'the predicates')}")
    for name in explicit:
        p = preds[name]
        if p.functional is not None and not p.soft_functional:
            raise ModelError(f"the closed-world assumption is inapplicable to the functional predicate {name!r} "
                             "(exactly one value is true)")
    if cw:
        explicit += [p.name for p in model.predicates
                     if p.name not in queries and p.functional is None and p.name not in explicit]
    return tuple(explicit)


def close_world(model: FirstOrderMLN, preds: Sequence[str], open_atoms: Iterable[tuple[str, tuple[str, ...]]] = (),
                *, force: bool = False) -> FirstOrderMLN:
    """The model with every atom of ``preds`` that its evidence does not give (nor
    ``open_atoms``: evidence given elsewhere, as ``(pred, args)``) added to the evidence as false.

    :raises ModelError: when those atoms are more than a grounding may have
        (:data:`~pracmln_poss.model.grounding.MAX_GROUND_ATOMS`), unless ``force``.
    """
    if not preds:
        return model
    domains, predicates = model.domain_map, model.predicate_map
    count = 0
    for name in preds:
        size = 1
        for d in predicates[name].domains:
            size *= len(domains.get(d, ()))
        count += size
    if count > MAX_GROUND_ATOMS and not force:
        raise ModelError(f"closing {', '.join(preds)} would add up to {count:,} atoms to the evidence "
                         f"(more than {MAX_GROUND_ATOMS:,}); give smaller domains or force it (--force; force=True)")
    known = {(e.pred, e.args) for e in model.evidence}
    known.update(open_atoms)
    added = [EvidenceLiteral(name, args, False)
             for name in preds
             for args in itertools.product(*(domains.get(d, ()) for d in predicates[name].domains))
             if (name, args) not in known]
    if not added:
        return model
    return replace(model, evidence=model.evidence + tuple(added))


def close_as_asked(model: FirstOrderMLN, cw: bool | None, cw_preds: Sequence[str] | None, project_cw: bool,
                   project_cw_preds: Sequence[str], queries: Iterable[str],
                   open_atoms: Iterable[tuple[str, tuple[str, ...]]] = (), *, force: bool = False
                   ) -> tuple[FirstOrderMLN, tuple[str, ...]]:
    """The model closed as asked (``cw``, ``cw_preds``; None: as the project says), and
    the predicates closed: :func:`closed_predicates`, then :func:`close_world`."""
    preds = closed_predicates(model, project_cw if cw is None else cw,
                              project_cw_preds if cw_preds is None else cw_preds, queries)
    return close_world(model, preds, open_atoms, force=force), preds
