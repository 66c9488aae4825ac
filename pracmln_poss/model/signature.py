"""The ground atoms of a first-order model told by its predicates and domains, not listed.

A grounding numbers the atoms predicate by predicate (in declaration order), each
predicate's argument tuples in the order of its domains' constants, the last argument
fastest (:mod:`~pracmln_poss.model.grounding`).  A :class:`Signature` holds just the
predicates and the domains, so a name gives its number and a number its name by
arithmetic, and :class:`ProductAtoms` is the list of every name as a sequence made on
demand: a theory over 4,096 persons need not hold 16.8 million names to be written.

Its text form (:func:`format_constants`, :func:`parse_constants`) writes each run of
three or more numbered constants (``Person1``, ``Person2``, ..., ``Person1024``) as one
range, ``Person{1..1024}``: braces are in no constant that is not quoted, so a range is
never a constant's own name.
"""

from __future__ import annotations

__all__ = ["Signature", "ProductAtoms", "format_constants", "parse_constants", "MAX_CONSTANTS"]

import itertools
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import overload

from ..errors import ModelError
from ..logic.syntax import atom_name, split_atom
from .first_order import FirstOrderMLN

MAX_CONSTANTS = 1_000_000
"""The most constants a domain read from text may have (a range is checked before it is
expanded)."""

_NUMBERED = re.compile(r"^(.*\D)?(0|[1-9]\d*)$", re.DOTALL)  # a stem that ends in no digit, and a number
_RANGE = re.compile(r"^([^\"{}]*)\{(0|[1-9]\d*)\.\.(0|[1-9]\d*)\}$")  # Stem{first..last}


@dataclass(frozen=True)
class Signature:
    """Predicates with the domains of their arguments, and the domains' constants.

    :ivar predicates: per predicate, in the grounding's order, its name and the domain of
        each argument.
    :ivar domains: per domain its constants, in order (each domain a predicate uses).
    """

    predicates: tuple[tuple[str, tuple[str, ...]], ...]
    domains: tuple[tuple[str, tuple[str, ...]], ...]

    def __post_init__(self) -> None:
        known = {name for name, _ in self.domains}
        for pred, doms in self.predicates:
            missing = [d for d in doms if d not in known]
            if missing:
                raise ModelError(f"predicate {pred} uses domain {missing[0]!r}, which is not declared")
        for name, constants in self.domains:
            if not constants:
                raise ModelError(f"domain {name} has no constants")

    @classmethod
    def of_model(cls, model: FirstOrderMLN) -> Signature:
        """The atoms ``model`` grounds to: its predicates and the domains they use (in
        the order of first use).

        :raises ModelError: for a predicate over a domain without constants.
        """
        domains = model.domain_map
        used: dict[str, None] = {}
        for p in model.predicates:
            missing = [d for d in p.domains if not domains.get(d)]
            if missing:
                raise ModelError(
                    f"predicate {p.name} uses domain {missing[0]!r}, which has no constants "
                    f"(declare `{missing[0]} = {{...}}` in the .mln, give a .db or --domain/--domain-size; "
                    f"from Python db=, domains= or domain_sizes=)",
                    p.position,
                )
            used.update(dict.fromkeys(p.domains))
        return cls(tuple((p.name, p.domains) for p in model.predicates), tuple((d, domains[d]) for d in used))

    @cached_property
    def domain_map(self) -> dict[str, tuple[str, ...]]:
        return dict(self.domains)

    @cached_property
    def _positions(self) -> dict[str, dict[str, int]]:
        return {d: {c: i for i, c in enumerate(cs)} for d, cs in self.domains}

    @cached_property
    def _layout(self) -> dict[str, tuple[int, tuple[int, ...], tuple[str, ...]]]:
        """Per predicate: the number of its first atom, the sizes of its arguments' domains
        and the domains."""
        out: dict[str, tuple[int, tuple[int, ...], tuple[str, ...]]] = {}
        first = 1
        sizes = {d: len(cs) for d, cs in self.domains}
        for pred, doms in self.predicates:
            shape = tuple(sizes[d] for d in doms)
            out[pred] = (first, shape, doms)
            first += math.prod(shape)
        return out

    @cached_property
    def n_atoms(self) -> int:
        return sum(math.prod(len(self.domain_map[d]) for d in doms) for _, doms in self.predicates)

    @cached_property
    def atoms(self) -> ProductAtoms:
        """Every atom's name, in the grounding's order."""
        return ProductAtoms(self)

    @cached_property
    def constants(self) -> frozenset[str]:
        """Every constant its domains hold."""
        return frozenset(c for _, cs in self.domains for c in cs)

    def index(self, pred: str, positions: Sequence[int]) -> int:
        """The number of the atom of ``pred`` whose arguments are the constants at these
        positions of their domains."""
        first, shape, _ = self._layout[pred]
        i = 0
        for size, pos in zip(shape, positions):
            i = i * size + pos
        return first + i

    def number(self, name: str) -> int | None:
        """The number of the atom so named (None: not one of these)."""
        pred, args = split_atom(name)
        layout = self._layout.get(pred)
        if layout is None or len(args) != len(layout[2]):
            return None
        positions = []
        for c, d in zip(args, layout[2]):
            pos = self._positions[d].get(c)
            if pos is None:
                return None
            positions.append(pos)
        return self.index(pred, positions)

    def name(self, atom: int) -> str:
        """The name of atom number ``atom`` (from 1)."""
        if not 1 <= atom <= self.n_atoms:
            raise IndexError(atom)
        for pred, (first, shape, doms) in self._layout.items():
            count = math.prod(shape)
            if atom < first + count:
                rest, args = atom - first, []
                for size, d in zip(reversed(shape), reversed(doms)):
                    rest, pos = divmod(rest, size)
                    args.append(self.domain_map[d][pos])
                return atom_name(pred, tuple(reversed(args)))
        raise IndexError(atom)  # pragma: no cover - the loop covers every number

    def names(self) -> Iterator[str]:
        """Every atom's name, in order."""
        domains = self.domain_map
        for pred, doms in self.predicates:
            for args in itertools.product(*(domains[d] for d in doms)):
                yield atom_name(pred, args)


class ProductAtoms(Sequence[str]):
    """The names of a :class:`Signature`'s atoms as a sequence, each made when asked for
    (a theory's ``atoms``: equal to the tuple of the same names)."""

    __slots__ = ("signature",)

    def __init__(self, signature: Signature) -> None:
        self.signature = signature

    def __len__(self) -> int:
        return self.signature.n_atoms

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return tuple(self)[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("atom index out of range")
        return self.signature.name(i + 1)

    def __iter__(self) -> Iterator[str]:
        return self.signature.names()

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.signature.number(name) is not None

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The position of the atom named ``value`` (its number less one), found by arithmetic.

        :raises ValueError: for a name that is not one of these atoms.
        """
        number = self.signature.number(value) if isinstance(value, str) else None
        if number is None or not start <= number - 1 < (len(self) if stop is None else stop):
            raise ValueError(f"{value!r} is not an atom")
        return number - 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ProductAtoms):
            return self.signature == other.signature
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.signature)

    def __repr__(self) -> str:
        return f"ProductAtoms({len(self):,} atoms of {', '.join(p for p, _ in self.signature.predicates)})"


def format_constants(constants: Sequence[str]) -> str:
    """``constants`` separated by commas, each run of three or more numbered ones in a row
    (``Person7``, ``Person8``, ``Person9``) written ``Person{7..9}``."""
    out: list[str] = []
    i = 0
    while i < len(constants):
        m = _NUMBERED.match(constants[i]) if not constants[i].startswith('"') else None
        j = i + 1
        if m is not None:
            stem, first = m.group(1) or "", int(m.group(2))
            while j < len(constants) and constants[j] == f"{stem}{first + j - i}":
                j += 1
        if m is not None and j - i >= 3 and "{" not in constants[i] and "}" not in constants[i]:
            out.append(f"{stem}{{{first}..{first + j - i - 1}}}")
            i = j
        else:
            out.append(constants[i])
            i += 1
    return ", ".join(out)


def parse_constants(items: Sequence[str], what: str) -> tuple[str, ...]:
    """The constants of :func:`format_constants`'s items (each a constant or a range),
    ranges expanded once their sizes are checked.

    :raises ModelError: for an empty or reversed range, or more than
        :data:`MAX_CONSTANTS` constants (``what`` names the domain).
    """
    ranges: list[tuple[str, int, int] | None] = []
    total = 0
    for item in items:
        m = _RANGE.match(item)
        if m is None:
            ranges.append(None)
            total += 1
            continue
        first, last = int(m.group(2)), int(m.group(3))
        if last <= first:
            raise ModelError(f"{what}: range {item} is empty or reversed")
        ranges.append((m.group(1), first, last))
        total += last - first + 1
        if total > MAX_CONSTANTS:  # (before a single constant is made)
            raise ModelError(f"{what} has more than {MAX_CONSTANTS:,} constants")
    out: list[str] = []
    for item, rng in zip(items, ranges):
        if rng is None:
            out.append(item)
        else:
            stem, first, last = rng
            out.extend(f"{stem}{i}" for i in range(first, last + 1))
    if len(set(out)) != len(out):
        raise ModelError(f"{what} names a constant twice")
    return tuple(out)
