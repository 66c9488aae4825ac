"""One conversion's rule search as a value: what it is asked for (:class:`RuleOptions`),
and the model, its symmetry and focus with what follows from them (:class:`RuleSearch`:
what a worker needs besides a MAP engine of its own)."""

from __future__ import annotations

__all__ = ["RuleOptions", "RuleSearch", "Canonical", "by_abs"]

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from ..map.instance import fixed_atoms
from ..map.interchangeable import Interchangeable
from ..model.ground_mln import GroundMLN
from .canonical import canonical_map
from .checkpoint import search_key
from .evidence import EvidenceSet
from .focus import Focus
from .symmetry import Symmetry, used_constants

Canonical = tuple[EvidenceSet, dict[str, str]]
"""An evidence set's representative and the renaming onto it."""


def by_abs(lits: Iterable[int]) -> tuple[int, ...]:
    """``lits`` by their atoms, a negative literal before its positive one."""
    return tuple(sorted(lits, key=lambda l: (abs(l), l)))


class RuleOptions(Protocol):
    """What a rule search is asked for (Transformations 3 and 4's options classes hold it).

    :ivar k: the largest evidence set.
    :ivar long_blocking: blocking rules ``not (AND E ^ AND X(E))`` instead of ``not AND E``.
    :ivar omit_redundant_blocking: drop blocking rules the rules for ``E - {y}`` entail.
    :ivar prune_heads: remove from heads what rational monotonicity gives (Prop. 3).
    """

    @property
    def k(self) -> int: ...

    @property
    def long_blocking(self) -> bool: ...

    @property
    def omit_redundant_blocking(self) -> bool: ...

    @property
    def prune_heads(self) -> bool: ...


@dataclass(frozen=True)
class RuleSearch:
    """One conversion's search without its solver: what a worker process needs besides
    a MAP engine of its own (:mod:`.workers` ships it pickled).

    :ivar options: what the search is asked for (the transformation's options, as given).
    :ivar backend: the MAP backend each worker opens, as asked (``auto`` chooses again in
        each: not toulbar2 where it cannot run, :func:`~pracmln_poss.map.toulbar2.runs_here`).
    :ivar symmetry: the classes of interchangeable constants (Transformation 4), or None.
    :ivar focus: evidence over its evidence atoms, conclusions about its query atoms.
    :ivar one_per_class: with ``symmetry``, a head keeps one literal of those that a
        renaming fixing ``E`` maps onto each other (the lifted rules say the rest).
    """

    mln: GroundMLN
    options: RuleOptions
    backend: str
    symmetry: Symmetry | None = None
    focus: Focus = Focus()
    one_per_class: bool = False

    def canon(self, e: EvidenceSet) -> tuple[EvidenceSet, dict[str, str]]:
        """The representative of ``e``'s class and the renaming onto it (``e`` sorted
        and no renaming without a symmetry)."""
        if self.symmetry is None:
            return by_abs(e), {}
        return canonical_map(e, self.symmetry)

    @cached_property
    def interchangeable(self) -> Interchangeable | None:
        """The classes of interchangeable constants as the MAP searches see them (None
        without a symmetry)."""
        return None if self.symmetry is None else Interchangeable.of(self.mln, self.symmetry.classes)

    @cached_property
    def fixed(self) -> dict[int, bool]:
        """Atoms fixed by hard unit formulas, and their values."""
        return fixed_atoms(self.mln)[0]

    @cached_property
    def enumerated(self) -> list[int]:
        """The atoms evidence sets are built from (:meth:`.focus.Focus.enumerated` of the free ones)."""
        return self.focus.enumerated([a for a in range(1, self.mln.n_atoms + 1) if a not in self.fixed])

    @cached_property
    def allowed(self) -> frozenset[int]:
        """:attr:`enumerated` as a set."""
        return frozenset(self.enumerated)

    @cached_property
    def query_free(self) -> list[int]:
        """The free atoms rules may conclude about."""
        return [a for a in range(1, self.mln.n_atoms + 1) if a not in self.fixed and self.focus.is_query(a)]

    @cached_property
    def framed(self) -> bool:
        """Whether a backbone ``X(E)`` is kept as its literals over the *frame* of ``E``:
        the smallest atom of each orbit of the renamings that fix every constant of ``E``
        (:meth:`.Symmetry.frame_atoms`; ``X(E)`` is a union of such orbits, so this says
        all of it: docs/symmetry.md).  So in the lifted search, which writes one
        conclusion per orbit, unless its blocking rules are long (they write all of
        ``X(E)``), and where some constants are interchangeable."""
        return (self.symmetry is not None and self.one_per_class and not self.options.long_blocking
                and any(len(members) > 1 for members in self.symmetry.classes))

    @cached_property
    def _query_set(self) -> frozenset[int]:
        return frozenset(self.query_free)

    def wanted(self, e: EvidenceSet) -> list[int]:
        """The atoms ``X(e)`` is computed over: the free query atoms, those of ``e``'s
        frame when :attr:`framed` (a few per predicate, however large the domains)."""
        if not self.framed or self.symmetry is None:
            return self.query_free
        query = self._query_set
        return [a for a in self.symmetry.frame_atoms(used_constants(e, self.symmetry)) if a in query]

    def frame_of(self, e: EvidenceSet) -> Callable[[int], int]:
        """A literal -> the literal of its orbit in ``e``'s frame (itself unless :attr:`framed`)."""
        symmetry = self.symmetry
        if not self.framed or symmetry is None:
            return _same
        used = used_constants(e, symmetry)
        return lambda l: symmetry.in_frame(used, l) if l > 0 else -symmetry.in_frame(used, -l)

    def key(self, sets: Sequence[EvidenceSet] | None) -> str:
        """What the result depends on, as a digest (for checkpoints); ``sets`` None: the
        representatives (a function of the rest)."""
        symmetry = None if self.symmetry is None else (self.symmetry.domains, self.symmetry.classes)
        focus = tuple(None if a is None else sorted(a) for a in (self.focus.evidence, self.focus.query))
        given = None if sets is None else (len(sets), sets[:1], sets[-1:])
        o = self.options
        return search_key(self.mln, o.k, symmetry, focus, o.long_blocking, o.omit_redundant_blocking,
                          o.prune_heads, self.one_per_class, given)


def _same(lit: int) -> int:
    return lit
