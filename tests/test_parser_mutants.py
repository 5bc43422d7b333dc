"""The napkin-math parser at the edges the main tests pass by: the names an expression uses,
units raised to powers, and what a malformed call or unit power is told.

Written to kill the mutants `./dev mutate estimate.parser` found alive (issue 19). `names_in`
decides which parameters and steps a bank formula needs, so a name it drops is a formula that
`bank check` passes and the grader then cannot evaluate.
"""

from __future__ import annotations

import pytest

from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.evaluate import evaluate
from gpuprep.estimate.parser import Call, Field, Number, WithUnit, names_in, parse


def _refusal(text: str) -> EstimateError:
    with pytest.raises(EstimateError) as caught:
        parse(text)
    return caught.value


def test_names_in_finds_every_plain_name_under_every_kind_of_node():
    expression = parse("2*(a + b) - c^d / max(e, f) + -g + h ms + h100_sxm.hbm_bandwidth")
    assert names_in(expression.root) == {"a", "b", "c", "d", "e", "f", "g", "h"}


def test_names_in_collects_every_argument_of_a_call_not_only_the_last():
    assert names_in(parse("min(tile, k, 3 * stages)").root) == {"tile", "k", "stages"}


def test_names_in_sees_a_name_alone_and_a_number_has_none():
    assert names_in(parse("-(tokens)").root) == {"tokens"}
    assert names_in(parse("4096 * 2 B").root) == set()


@pytest.mark.parametrize(
    ("text", "unit_text", "dimension"),
    [
        ("3 GB/s^2", "GB/s^2", (-2, 1, 0, 0)),
        ("4 s²", "s²", (2, 0, 0, 0)),
        ("1 GB*s^-1", "GB*s^-1", (-1, 1, 0, 0)),
        ("2 s^-2", "s^-2", (-2, 0, 0, 0)),
        ("1 s^6", "s^6", (6, 0, 0, 0)),
        ("7 B/s", "B/s", (-1, 1, 0, 0)),
    ],
)
def test_a_unit_keeps_its_text_as_written_and_the_dimension_of_its_powers(
    text: str, unit_text: str, dimension: tuple[int, ...]
):
    root = parse(text).root
    assert isinstance(root, WithUnit)
    assert root.unit.text == unit_text
    assert root.unit.dimension == dimension


def test_a_negative_unit_power_divides():
    assert evaluate("1 GB*s^-1").to("GB/s") == pytest.approx(1.0)
    assert evaluate("8 s^-1 * 2 s").to("") == pytest.approx(16.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 s^7", "a unit power must be between -6 and 6, not 7"),
        ("1 s^-7", "a unit power must be between -6 and 6, not -7"),
        ("1 s^0", "a unit power must be between -6 and 6, not 0"),
    ],
)
def test_a_unit_power_outside_minus_six_to_six_is_refused_at_the_unit(text: str, message: str):
    error = _refusal(text)
    assert error.message == message
    assert error.position == 2


def test_a_huge_unit_power_is_refused_without_reading_the_whole_number():
    assert _refusal("1 s^" + "9" * 400).message.startswith("a unit power must be between -6 and 6")


def test_a_fractional_unit_power_is_refused_at_the_power():
    error = _refusal("1 s^1.5")
    assert error.message == "expected a whole number after '^' in a unit, found '1.5'"
    assert error.position == 4


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("max()", 4, "expected an argument to max(), found ')'"),
        ("max(1 ms 2)", 9, "expected ',' or ')' in the call to max(), found '2'"),
        ("sqrt(1, 2)", 0, "sqrt() takes 1 argument(s), not 2"),
        ("1 + log2(1, 2, 3)", 4, "log2() takes 1 argument(s), not 3"),
        ("min(" + ", ".join(["1"] * 17) + ")", 0, "min() takes 1 to 16 argument(s), not 17"),
        (
            "foo(1)",
            0,
            "unknown function 'foo'; the functions are min, max, sqrt, log2, log10, ceil, floor",
        ),
    ],
)
def test_a_malformed_call_says_what_is_wrong_and_where(text: str, position: int, message: str):
    error = _refusal(text)
    assert (error.position, error.message) == (position, message)


def test_a_call_remembers_where_it_starts_for_error_carets():
    root = parse("1 + max(2, 3)").root
    call = root.right  # type: ignore[union-attr]
    assert isinstance(call, Call)
    assert (call.function, call.position, len(call.arguments)) == ("max", 4, 2)


@pytest.mark.parametrize(
    ("text", "unit", "value"),
    [
        ("7 - 2 - 1", "", 4.0),
        ("+3", "", 3.0),
        ("- -2", "", 2.0),
        ("-2 ms", "ms", -2.0),
        ("2 s - 500 ms", "s", 1.5),
        ("6 B/min(2, 3)", "B", 3.0),
    ],
)
def test_signs_and_subtraction_evaluate_as_written(text: str, unit: str, value: float):
    assert evaluate(text).to(unit) == pytest.approx(value)


def test_each_node_remembers_where_it_was_written():
    root = parse("1 + -x").root
    assert root.position == 2  # type: ignore[union-attr]
    assert root.right.position == 4  # type: ignore[union-attr]
    assert parse("7 - 2").root.position == 2  # type: ignore[union-attr]
    assert parse("1 + 2 ms").root.right.position == 4  # type: ignore[union-attr]
    squared = parse("3²").root
    assert (squared.position, squared.exponent) == (1, Number(2.0, "2", 1))  # type: ignore[union-attr]


def test_nesting_is_refused_from_the_fortieth_level_counting_only_open_levels():
    assert parse("(" * 39 + "1" + ")" * 39)
    assert (
        _refusal("(" * 40 + "1" + ")" * 40).message == "the expression is nested more than 40 deep"
    )
    assert parse("-" * 39 + "1")
    assert _refusal("-" * 40 + "1").message == "the expression is nested more than 40 deep"
    # A closed group gives its levels back, exactly: what follows it may nest to the limit.
    assert parse("(1)+" * 100 + "1")
    assert parse("((2) + " + "(" * 38 + "1" + ")" * 38 + ")")
    assert _refusal("((2) + " + "(" * 39 + "1" + ")" * 39 + ")")
    assert parse("-(2) + " + "-" * 39 + "1")
    assert _refusal("-(2) + " + "-" * 40 + "1")


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("", 0, "expected a number or an expression such as '1.1 ms', found the end"),
        (
            "1 ms GB",
            5,
            "expected an operator (+ - * / ^) after the unit; a value takes one unit, found 'GB'",
        ),
        (
            "2 foo",
            2,
            "expected an operator (+ - * / ^) or a unit ('foo' is not a unit), found 'foo'",
        ),
        (
            "1,100",
            1,
            "expected an operator or the end (write 1100, not 1,100: ',' separates arguments),"
            " found ','",
        ),
        ("2 )", 2, "expected an operator (+ - * / ^) or the end, found ')'"),
        ("2 *", 3, "expected a number, a name, a function such as max(...) or '(', found the end"),
        (")", 0, "expected a number, a name or '(' before ')', found ')'"),
    ],
)
def test_text_that_does_not_parse_is_told_what_was_expected_and_what_was_found(
    text: str, position: int, message: str
):
    error = _refusal(text)
    assert (error.position, error.message) == (position, message)


def test_numbers_and_fields_keep_their_text_and_columns():
    assert parse("42").root == Number(42.0, "42", 0)
    assert parse("h100_sxm.hbm_bandwidth").root == Field("h100_sxm", "hbm_bandwidth", 0, 9)


@pytest.mark.parametrize(
    ("text", "position", "message"),
    [
        ("1e999", 0, "the number 1e999 is too large"),
        (
            "h100_sxm.",
            9,
            "expected a field name after 'h100_sxm.', e.g. 'h100_sxm.hbm_bandwidth', found the end",
        ),
        ("2 * (1 + 2", 10, "expected ')' to close the '(' at column 5, found the end"),
    ],
)
def test_a_number_too_large_a_dangling_field_and_an_open_parenthesis_are_refused(
    text: str, position: int, message: str
):
    error = _refusal(text)
    assert (error.position, error.message) == (position, message)


def test_a_function_name_after_a_number_is_not_read_as_its_unit():
    error = _refusal("2 min(3, 4)")
    assert error.position == 2
    assert error.message.endswith("found 'min'")


def test_a_unit_s_text_stops_where_the_unit_does():
    root = parse("7 B/s + 1 B/s").root
    assert root.left.unit.text == "B/s"  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["1 s^7", "sqrt(1, 2)", "1e999"])
def test_a_refusal_shows_the_text_with_a_caret_under_the_fault(text: str):
    lines = str(_refusal(text)).splitlines()
    assert lines[1] == "  " + text
    assert lines[2] == "  " + " " * _refusal(text).position + "^"


def test_a_huge_unit_power_is_reported_capped_at_ten_thousand():
    assert _refusal("1 s^99999").message == "a unit power must be between -6 and 6, not 10000"
    assert _refusal("1 s^" + "9" * 400).message.endswith("not 10000")


def test_only_text_is_parsed():
    with pytest.raises(EstimateError, match="^expected text, got int$"):
        parse(42)  # type: ignore[arg-type]
