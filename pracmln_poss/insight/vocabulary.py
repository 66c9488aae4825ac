"""A theory and an MLN read together must speak of the same atoms.

``verify`` and ``show --mln`` compare a theory with a model; over other constants (a
theory converted with other domains or another database) every answer about the atoms
one side lacks would be a false report, so the mismatch is an error that names them.
"""

from __future__ import annotations

__all__ = ["check_same_atoms", "check_predicates"]

from collections.abc import Iterable, Sequence

from ..atoms import predicate_of
from ..errors import ModelError, UnknownNameError


def _some(names: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" (and {len(names) - limit} more)" if len(names) > limit else "")


def check_same_atoms(theory_atoms: Sequence[str], mln_atoms: Sequence[str]) -> None:
    """Raise unless the theory and the (ground) MLN have the same atoms.

    :raises ModelError: naming atoms only one side has.
    """
    theory_set, mln_set = set(theory_atoms), set(mln_atoms)
    if theory_set == mln_set:
        return
    parts = []
    only_theory = [a for a in theory_atoms if a not in mln_set]
    only_mln = [a for a in mln_atoms if a not in theory_set]
    if only_theory:
        parts.append(f"the theory has {len(only_theory)} atom(s) the MLN does not: {_some(only_theory)}")
    if only_mln:
        parts.append(f"the MLN has {len(only_mln)} atom(s) the theory does not: {_some(only_mln)}")
    raise ModelError(
        "the theory and the MLN are over different atoms; " + "; ".join(parts)
        + " (give the MLN the domains or database the theory was converted with: --domain, --domain-size, --db; "
        "from Python domains=, domain_sizes=, db=)"
    )


def check_predicates(names: Iterable[str], atoms: Sequence[str], what: str) -> None:
    """Raise unless every name is a predicate of ``atoms``.

    :raises UnknownNameError: naming the unknown predicates and the known ones.
    """
    known = sorted({predicate_of(a) for a in atoms})
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UnknownNameError(
            f"unknown {what} predicate(s) {', '.join(map(repr, unknown))}; the theory's predicates: {', '.join(known)}"
        )
