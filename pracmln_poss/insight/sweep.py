"""The theory across domain sizes: a model converted at each size of a range, and what
changes from one size to the next.

A learned model means different things at different domain sizes (pracmln's learned
object-recognition model makes the one object of a scene Ketchup, of two a Spatula and
a Pancake_maker).  :func:`sweep` converts a first-order model at each size (each
theory the one ``convert`` makes at that size alone) and keeps, per size, what a person
compares: the rules and levels, what holds with no evidence (the digest's defaults),
and against the size before the rules gained, lost and moved to another level (the
certain rules, the model's hard formulas, left out: their ground part grows with the
domain).  A sweep's ``stable_from`` is the first size from which nothing changes *within
the sizes computed*: nothing is claimed of larger ones.  :func:`sweep_text` and
:func:`sweep_json` write it; :mod:`.sweep_report` draws it as a page.
"""

from __future__ import annotations

__all__ = ["SizeStep", "Sweep", "sweep", "sweep_text", "sweep_json", "size_label", "stable_sentence", "runs", "run_label",
           "LISTED"]

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import ArgumentError
from ..logic.formula import Constant, Variable, map_terms
from ..model.first_order import FirstOrderMLN
from ..model.signature import ProductAtoms
from ..possibilistic.lifted_theory import LiftedTheory, variable_prefixes
from ..possibilistic.theory import PossibilisticTheory
from ..transformations.conversion import convert_mln
from ..weights import INF, format_weight
from .digest import default_lines

LISTED = 12
"""Rules gained, lost or moved that the text lists per size (the rest are counted; JSON
and the page have them all)."""

Theory = PossibilisticTheory | LiftedTheory


@dataclass(frozen=True)
class SizeStep:
    """One size of a sweep: what its theory says, and what changed from the size before.

    :ivar sizes: the swept domains and their sizes.
    :ivar rules: the theory's rules (certain ones included) and ``levels`` its levels.
    :ivar certain: of them, the certain ones (the model's hard formulas).
    :ivar defaults: what holds with no evidence, a line each (:func:`~.digest.default_lines`).
    :ivar gained: the rules (``LEVEL  RULE``) the size before did not have; ``lost``: those it
        had and this one lacks; ``moved``: ``(rule, level before, level now)``.
    :ivar note: how the conversion searched the domains (the theory's ``// domains:``).
    :ivar seconds: what converting it took (for a forecast; never written: the same sweep
        writes the same bytes).
    """

    sizes: tuple[tuple[str, int], ...]
    rules: int
    levels: int
    certain: int
    defaults: tuple[str, ...]
    gained: tuple[str, ...]
    lost: tuple[str, ...]
    moved: tuple[tuple[str, str, str], ...]
    note: str | None
    seconds: float

    @property
    def changed(self) -> bool:
        return bool(self.gained or self.lost or self.moved)


@dataclass(frozen=True)
class Sweep:
    """A model's theories over a range of domain sizes (:func:`sweep`).

    :ivar steps: one per size, in the order given.
    :ivar stable_from: the index of the first step from which no later one changes
        anything (the last step's when the last one changed).
    """

    model: str
    steps: tuple[SizeStep, ...]
    stable_from: int

    @property
    def settled(self) -> bool:
        """Whether two sizes or more in a row at the end have the same theory."""
        return len(self.steps) > 1 and not (self.stable_from == len(self.steps) - 1 and self.steps[-1].changed)


def size_label(sizes: Iterable[tuple[str, int]]) -> str:
    """``cluster=3`` (``pap=4, per=4`` for several domains)."""
    return ", ".join(f"{name}={n:,}" for name, n in sizes)


def sweep(model: FirstOrderMLN, sizes: Sequence[Mapping[str, int]], method: str | None = None, *,
          filter: str = "none", options: Mapping[str, object] | None = None,
          seen: Callable[[Mapping[str, int], Theory], None] | None = None,
          started: Callable[[int, Mapping[str, int]], None] | None = None, name: str | None = None) -> Sweep:
    """``model`` converted at each of ``sizes`` (each a mapping of domain names to sizes,
    the domains given fresh constants as ``--domain-size`` gives them), compared size by
    size.

    :param method: the transformation, as :func:`~pracmln_poss.transformations.conversion.convert_mln` takes it.
    :param filter: the filtering, likewise.
    :param options: its other keyword arguments (``k``, the focus, the runtime's).
    :param seen: called with each size and its theory as it is made (to write it).
    :param started: called with each size's index and sizes before it is converted.
    :param name: what the sweep calls the model (default: its source).
    :raises ArgumentError: for no sizes.
    :raises PossError: as a conversion raises it.
    """
    if not sizes:
        raise ArgumentError("a sweep needs at least one size")
    steps: list[SizeStep] = []
    before: dict[str, tuple[str, ...]] | None = None
    stable = 0
    for i, size in enumerate(sizes):
        if started is not None:
            started(i, size)
        start = time.perf_counter()
        theory = convert_mln(model.resized(size), method, filter=filter, **(options or {})).theory
        seconds = time.perf_counter() - start
        if seen is not None:
            seen(size, theory)
        rules = _rules(theory, size)
        gained, lost, moved = _changes(before, rules, theory)
        step = SizeStep(tuple(size.items()), len(theory), len(theory.levels()),
                        sum(1 for pf in theory.formulas if pf.steps == INF), tuple(default_lines(theory)),
                        gained, lost, moved, theory.note if isinstance(theory, LiftedTheory) else None, seconds)
        if step.changed:
            stable = i
        steps.append(step)
        before = rules
    return Sweep(name or model.source or "the model", tuple(steps), stable)


def _rules(theory: Theory, swept: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each rule that is not certain (as text), with its levels (in weight units); where a
    swept domain has one constant (no type of its own, so its rules name it), the rules
    name it by the variable the larger sizes' rules have (``object(Cluster1,Ketchup)`` as
    ``object(c1,Ketchup)``), so that sizes compare rule by rule."""
    out: dict[str, list[str]] = {}
    alone = _lone_constants(theory, swept)
    for pf in theory.formulas:
        if pf.steps != INF:
            formula = map_terms(pf.formula, lambda t: alone.get(t.name, t) if isinstance(t, Constant) else t) \
                if alone else pf.formula
            out.setdefault(theory.format(formula), []).append(format_weight(pf.steps, theory.resolution))
    return {rule: tuple(sorted(set(levels), key=float)) for rule, levels in out.items()}


def _lone_constants(theory: Theory, swept: Iterable[str]) -> dict[str, Variable]:
    """The constant of each swept domain of one constant, with the variable it stands for."""
    if not isinstance(theory, LiftedTheory) or not isinstance(theory.atoms, ProductAtoms):
        return {}
    domains = theory.atoms.signature.domain_map
    types = {name for name, _ in theory.types}
    lone = [d for d in swept if d in domains and len(domains[d]) == 1 and d not in types]
    if not lone:
        return {}
    prefixes = variable_prefixes(types | set(lone), theory.constants())
    return {domains[d][0]: Variable(f"{prefixes[d]}1", d) for d in lone}


def _changes(before: dict[str, tuple[str, ...]] | None, now: dict[str, tuple[str, ...]], theory: Theory
             ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str, str], ...]]:
    if before is None:
        return (), (), ()
    gained = tuple(f"{', '.join(levels)}  {rule}" for rule, levels in now.items() if rule not in before)
    lost = tuple(f"{', '.join(levels)}  {rule}" for rule, levels in before.items() if rule not in now)
    moved = tuple((rule, ", ".join(before[rule]), ", ".join(levels)) for rule, levels in now.items()
                  if rule in before and before[rule] != levels)
    return gained, lost, moved


def sweep_text(result: Sweep, listed: int = LISTED) -> str:
    """The sweep as text: a row per size, where nothing changes from on, what holds with no
    evidence at each size, and the rules gained, lost and moved (``listed`` of each per
    size, the rest counted)."""
    steps = result.steps
    labels = [size_label(s.sizes) for s in steps]
    rows = [(run_label(result, first, last), steps[first], first) for first, last in runs(result)]
    width = max(len(label) for label, _, _ in rows)
    lines = [f"{result.model}: the theory at {len(steps)} size(s)", "",
             f"{'size':<{width}}  {'rules':>8}  {'levels':>6}  {'gained':>7}  {'lost':>7}  {'moved':>6}"]
    for label, step, first in rows:
        changes = ("-", "-", "-") if first == 0 else (f"+{len(step.gained):,}", f"-{len(step.lost):,}",
                                                      f"{len(step.moved):,}")
        lines.append(f"{label:<{width}}  {step.rules:>8,}  {step.levels:>6,}  {changes[0]:>7}  {changes[1]:>7}  "
                     f"{changes[2]:>6}")
    lines += ["", stable_sentence(result)]
    lines += ["", "with no evidence:"]
    shown: tuple[str, ...] | None = None
    for step, label in zip(steps, labels):
        if step.defaults == shown:
            continue
        shown = step.defaults
        lines.append(f"  {label}{' on' if step is not steps[-1] else ''}: " + ("; ".join(step.defaults) or "nothing"))
    for prev, step, label in zip(labels, steps[1:], labels[1:]):
        if not step.changed:
            continue
        lines += ["", f"from {prev} to {label}: {len(step.gained):,} gained, {len(step.lost):,} lost, "
                  f"{len(step.moved):,} moved"]
        lines += _listed([f"  + {rule}" for rule in step.gained], listed, "gained")
        lines += _listed([f"  - {rule}" for rule in step.lost], listed, "lost")
        lines += _listed([f"  ~ {rule}  (level {old} -> {new})" for rule, old, new in step.moved], listed, "moved")
    notes = [f"  {label}: {step.note}" for step, label in zip(steps, labels) if step.note]
    if notes:
        lines += ["", "how the domains were searched:", *notes]
    return "\n".join(lines) + "\n"


def runs(result: Sweep) -> list[tuple[int, int]]:
    """The steps as the rows of a table: a step that changes nothing joins the row of the
    one before it (the first and last index of each row; the row's changes are its
    first step's)."""
    out: list[tuple[int, int]] = []
    for i, step in enumerate(result.steps):
        if out and not step.changed:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def run_label(result: Sweep, first: int, last: int) -> str:
    """``person=3`` for one step, ``person=3 .. person=1,024 (1,022 sizes)`` for a run."""
    if first == last:
        return size_label(result.steps[first].sizes)
    return (f"{size_label(result.steps[first].sizes)} .. {size_label(result.steps[last].sizes)} "
            f"({last - first + 1:,} sizes)")


def stable_sentence(result: Sweep) -> str:
    """From which size on nothing changes, within the sizes computed (a sentence, lower case)."""
    steps = result.steps
    last = size_label(steps[-1].sizes)
    if len(steps) == 1:
        return f"one size computed: {last}"
    if not result.settled:
        return f"the theory changes up to {last}, the largest size computed"
    return (f"from {size_label(steps[result.stable_from].sizes)} on, nothing changes up to {last} (the largest size "
            "computed; nothing is said of larger ones)")


def _listed(lines: list[str], most: int, what: str) -> list[str]:
    if len(lines) <= most:
        return lines
    return lines[:most] + [f"  ... and {len(lines) - most:,} more {what} (--json lists every one)"]


def sweep_json(result: Sweep) -> str:
    """The sweep as one JSON object: the model, per size everything :class:`SizeStep`
    holds, and the sizes from which nothing changes."""
    steps = [{
        "sizes": dict(step.sizes), "rules": step.rules, "levels": step.levels, "certain": step.certain,
        "defaults": list(step.defaults), "gained": list(step.gained), "lost": list(step.lost),
        "moved": [{"rule": rule, "from": old, "to": new} for rule, old, new in step.moved],
        **({"note": step.note} if step.note else {}),
    } for step in result.steps]
    data = {"model": result.model, "steps": steps, "stable_from": dict(result.steps[result.stable_from].sizes),
            "stable_to": dict(result.steps[-1].sizes)}
    return json.dumps(data, indent=2) + "\n"
