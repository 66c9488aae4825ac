from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pracmln_poss.errors import WeightError
from pracmln_poss.weights import INF, Resolution, format_weight, weight_number


def test_default_resolution_is_micro_units():
    r = Resolution()
    assert r.to_int(2.5) == 2_500_000
    assert r.to_int("0.646696") == 646_696
    assert r.to_int(-3) == -3_000_000
    assert r.to_int(0.1 + 0.2) == 300_000  # no binary noise survives


def test_configurable_resolution_and_rounding():
    r = Resolution("0.01")
    assert r.to_int(0.145) == 14  # half to even
    assert r.to_int(0.155) == 16
    assert format_weight(14, r) == "0.14"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "abc", True])
def test_bad_weights_are_errors(bad):
    with pytest.raises(WeightError):
        Resolution().to_int(bad)


def test_a_weight_that_rounds_to_zero_is_an_error_not_a_silent_drop():
    with pytest.raises(WeightError, match="rounds to 0"):
        Resolution().to_int(1e-9)


@pytest.mark.parametrize("bad", ["0", "-1", "x", "inf"])
def test_bad_resolution(bad):
    with pytest.raises(WeightError):
        Resolution(bad)


@given(st.integers(-10**12, 10**12))
def test_printing_round_trips(n):
    r = Resolution()
    text = format_weight(n, r)
    assert r.to_int(text) == n if n else text == "0"
    assert Decimal(text) == Decimal(n) / 10**6


def test_json_numbers():
    r = Resolution()
    assert weight_number(10_000_000, r) == 10 and isinstance(weight_number(10_000_000, r), int)
    assert weight_number(2_500_000, r) == 2.5
    assert weight_number(INF, r) == "inf"
