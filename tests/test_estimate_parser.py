"""The napkin-math language: what parses, what it means, and how faults are reported."""

from __future__ import annotations

import pytest

from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import Context, evaluate
from gpuprep.estimate.parser import MAX_DEPTH, parse
from gpuprep.estimate.tokens import MAX_LENGTH
from gpuprep.units.quantity import quantity


def value_in(text: str, unit: str, context: Context | None = None) -> float:
    return evaluate(text, context).to(unit)


@pytest.mark.parametrize(
    ("text", "unit", "expected"),
    [
        ("1.5", "", 1.5),
        ("1e-3", "", 1e-3),
        ("2^10", "", 1024),
        ("2**10", "", 1024),
        ("2 × 3 · 4", "", 24),
        ("-2^2", "", -4),
        ("2^-3", "", 0.125),
        ("2^3^2", "", 512),
        ("8192³", "", 8192**3),
        ("3.35 TB/s", "GB/s", 3350),
        ("4GiB", "B", 4 * 2**30),
        ("1.1ms", "us", 1100),
        ("5 min", "s", 300),
        ("1 TFLOPS", "TFLOP/s", 1),
        ("1 TOPS", "TOP/s", 1),
        ("10 W * 2 s", "J", 20),
        ("(1 + 2) ms", "ms", 3),
        ("max(1 ms, 2 us)", "ms", 1),
        ("min(1 ms, 2 us, 3 ns)", "ns", 3),
        ("sqrt(4 s^2)", "s", 2),
        ("log2(1024)", "", 10),
        ("log10(1000)", "", 3),
        ("ceil(1000 / 128)", "", 8),
        ("floor(1000 / 128)", "", 7),
        ("8 bit", "B", 1),
        ("GB/s", "MB/s", 1000),
        ("400 cycles / 2 GHz", "ns", 200),
    ],
)
def test_expressions_evaluate_to_their_value(text: str, unit: str, expected: float) -> None:
    assert value_in(text, unit) == pytest.approx(expected)


@pytest.mark.parametrize(
    "prefix", ["~", "≈", "about ", "around ", "roughly ", "approximately ", "~ "]
)
def test_a_leading_approximation_word_is_ignored(prefix: str) -> None:
    assert value_in(prefix + "1.1 ms", "ms") == pytest.approx(1.1)


def test_a_unit_binds_tighter_than_multiplication_and_after_a_power() -> None:
    assert value_in("2 * 8192^3 FLOP", "FLOP") == pytest.approx(2 * 8192**3)
    assert value_in("8192^2 * 2 B", "B") == pytest.approx(8192**2 * 2)
    assert value_in("2*8192^3 FLOP / 989 TFLOP/s", "ms") == pytest.approx(
        2 * 8192**3 / 989e12 * 1e3
    )


def test_everything_after_the_first_slash_of_a_unit_divides() -> None:
    assert value_in("1 J/B/s", "J/B/s") == pytest.approx(1)
    assert evaluate("1 J/B/s").dimension == quantity(1, "J/B/s").dimension


def test_a_unit_after_a_value_with_a_unit_is_refused() -> None:
    with pytest.raises(EstimateError, match="already has a unit"):
        evaluate("(2 ms) s")


def test_min_is_the_function_before_a_parenthesis_and_the_unit_after_a_number() -> None:
    assert value_in("min(2, 3) min", "s") == pytest.approx(120)


def test_an_error_points_at_the_fault_with_a_caret_and_says_what_was_expected() -> None:
    with pytest.raises(EstimateError) as caught:
        evaluate("2 * * 3")
    error = caught.value
    assert error.position == 4
    lines = str(error).splitlines()
    assert "expected a number" in lines[0]
    assert lines[1] == "  2 * * 3"
    assert lines[2] == "      ^"


def test_adding_a_time_to_data_names_both() -> None:
    with pytest.raises(EstimateError, match="cannot add a time and an amount of data"):
        evaluate("1 ms + 1 B")


def test_unknown_names_and_functions_are_refused() -> None:
    with pytest.raises(EstimateError, match="unknown name 'x'"):
        evaluate("x + 1")
    with pytest.raises(EstimateError, match="unknown function 'exec'"):
        evaluate("exec(1)")


def test_input_length_and_nesting_are_bounded() -> None:
    with pytest.raises(EstimateError, match="limit is 500"):
        parse("1+" * MAX_LENGTH + "1")
    deep = "(" * (MAX_DEPTH + 5) + "1" + ")" * (MAX_DEPTH + 5)
    with pytest.raises(EstimateError, match="nested"):
        parse(deep)


def test_parsed_formulas_are_reused() -> None:
    assert parse("2 * M^3 FLOP") is parse("2 * M^3 FLOP")
