"""Exact weights: every finite weight becomes an int at a fixed resolution.

Penalty comparisons decide everything in this package (ties matter), so floats are
converted once, here, and all arithmetic afterwards is on Python ints.  Levels are
printed back in the user's units with :func:`format_weight`.
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_RESOLUTION",
    "INF",
    "Level",
    "Resolution",
    "format_weight",
    "parse_weight",
    "weight_number",
]

import math
import sys
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from .errors import WeightError

INF = math.inf
"""The level/weight of hard formulas and evidence."""

Level = int | float
"""A level or penalty counted in resolution steps: an int, or :data:`INF`."""

DEFAULT_RESOLUTION = "1e-6"

MIN_STEP = Decimal("1e-18")
MAX_STEP = Decimal("1e18")
"""The range of resolutions: finer or coarser steps mean nothing for a float weight (and
an exact fraction of ``10**999999999`` would never be computed)."""


@dataclass(frozen=True)
class Resolution:
    """The unit of exact weights: ``w`` becomes ``round(w / step)``.

    :param step: a positive decimal number, given as text (``"1e-6"``) so that it is
        exact; ``2.5`` at the default step ``1e-6`` becomes ``2_500_000``.
    """

    step: Decimal

    def __init__(self, step: str | Decimal | float | int = DEFAULT_RESOLUTION) -> None:
        try:
            value = Decimal(str(step))
        except InvalidOperation:
            raise WeightError(f"resolution {step!r} is not a number") from None
        if not value.is_finite() or value <= 0:
            raise WeightError(f"resolution {step!r} must be a positive finite number")
        if not MIN_STEP <= value <= MAX_STEP:
            raise WeightError(f"resolution {step!r} is out of range: a float weight has 17 significant digits, "
                              f"so the resolution is between {MIN_STEP} and {MAX_STEP}")
        object.__setattr__(self, "step", value)

    def to_int(self, weight: object, what: str = "weight") -> int:
        """Convert a finite weight to an int number of steps (round half to even).

        :raises WeightError: for NaN or infinite weights, and for non-zero weights
            that round to zero (they would silently vanish).
        """
        exact = _exact(weight, what)
        scaled = exact / Fraction(self.step)
        result = round(scaled)  # Fraction.__round__ rounds half to even
        if result == 0 and exact != 0:
            raise WeightError(
                f"{what} {weight} rounds to 0 at resolution {self.step}; "
                "use a finer resolution"
            )
        return result

    def ceil_steps(self, value: object, what: str = "weight") -> int | float:
        """The fewest steps worth at least ``value`` (exact; ``None``/``inf`` give ``INF``):
        at step 0.1, ``0.25`` gives 3 steps and ``0.3`` gives 3."""
        if value is None or (isinstance(value, (float, str)) and _is_infinite_text(value)):
            return parse_weight(value, self, what)
        return math.ceil(_exact(value, what) / Fraction(self.step))

    def to_decimal(self, value: int) -> Decimal:
        """The user-unit value of ``value`` steps, exactly."""
        return (Decimal(value) * self.step).normalize()

    def to_units(self, value: int | float) -> float:
        """``value`` steps as a number in the user's units (``INF`` stays ``INF``)."""
        return value if value == INF else float(self.to_decimal(int(value)))

    def __str__(self) -> str:
        return str(self.step)

    @classmethod
    def of(cls, value: Resolution | str | Decimal | None) -> Resolution:
        """``value`` as a Resolution (``None``: the default)."""
        return value if isinstance(value, Resolution) else cls(value if value is not None else DEFAULT_RESOLUTION)


def parse_weight(value: object, resolution: Resolution, what: str = "weight") -> int | float:
    """A weight or level in user units as int steps; ``None``/``inf`` give ``INF``, ``-inf`` ``-INF``."""
    if value is None:
        return INF
    if isinstance(value, (float, str)) and _is_infinite_text(value):
        return -INF if str(value).strip().startswith("-") else INF
    return resolution.to_int(value, what)


def _is_infinite_text(value: float | str) -> bool:
    if isinstance(value, float):
        return math.isinf(value)
    return value.strip().lower() in ("inf", "+inf", "-inf")


def _exact(weight: object, what: str) -> Fraction:
    exact = _fraction(weight, what)
    if abs(exact) > _FLOAT_MAX:  # (weights are floats in every model: nothing larger can mean anything)
        shown = str(weight) if len(str(weight)) <= 40 else f"{str(weight)[:20]}...({len(str(weight))} characters)"
        raise WeightError(f"{what} {shown} is larger than a float holds")
    return exact


_FLOAT_MAX = Fraction(sys.float_info.max)


def _fraction(weight: object, what: str) -> Fraction:
    if isinstance(weight, Fraction):
        return weight
    if isinstance(weight, bool):
        raise WeightError(f"{what} {weight!r} is not a number")
    if isinstance(weight, float):
        if not math.isfinite(weight):
            raise WeightError(f"{what} {weight!r} is not finite")
        # repr() is the shortest text that reads back as this float: the weight
        # the user wrote, not its binary approximation.
        return Fraction(Decimal(repr(weight)))
    try:
        value = Decimal(str(weight).strip())
    except InvalidOperation:
        raise WeightError(f"{what} {weight!r} is not a number") from None
    if not value.is_finite():
        raise WeightError(f"{what} {weight!r} is not finite")
    return Fraction(value)


def format_weight(value: int | float, resolution: Resolution) -> str:
    """Print an exact weight (int steps) or ``inf`` in user units, e.g. ``2.5``."""
    if value == INF:
        return "inf"
    text = format(resolution.to_decimal(int(value)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def weight_number(value: int | float, resolution: Resolution) -> int | float | str:
    """An exact weight as a JSON number: int when integral, else float; ``"inf"``."""
    if value == INF:
        return "inf"
    dec = resolution.to_decimal(int(value))
    if dec == dec.to_integral_value():
        return int(dec)
    return float(dec)


