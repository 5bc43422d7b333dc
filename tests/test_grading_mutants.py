"""The grader's verdicts and words at their edges: zero and negative answers, bare numbers, the
band text, the 1000^k unit slips, which trap an answer fell into, and the JSON a script reads.

Written to kill the mutants `./dev mutate estimate.grading` found alive (issue 19).
"""

from __future__ import annotations

from functools import cache

import pytest

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question, Tolerance
from gpuprep.estimate.grading import (
    GIB_PER_GB,
    GIB_SLIP,
    grade,
    grade_solved,
    nearest_trap,
    read_answer,
    thousands_off,
)
from gpuprep.estimate.solve import solve
from gpuprep.estimate.traps import TrapValue
from gpuprep.units.quantity import quantity

BANDS = Tolerance(correct=0.25, close=2.0)


@cache
def bank() -> Bank:
    loaded, _problems = load_bank()
    return loaded


def gemm_question(**estimate: object) -> Question:
    """An 8192^3 bf16 GEMM's time on an H100 (1.11 ms), with `estimate` fields overridden."""
    block = {
        "solution": "flops / gpu.bf16_dense",
        "unit": "ms",
        "gpu": "h100_sxm",
        "params": {"M": {"value": 8192}},
        "steps": [{"name": "flops", "formula": "2 * M^3 FLOP", "unit": "TFLOP"}],
        **estimate,
    }
    return Question.model_validate(
        {
            "id": "test-gemm",
            "title": "GEMM time",
            "kind": "estimation",
            "level": "junior",
            "minutes": 5,
            "prompt": "M = {{ M }} on {{ gpu.name }}",
            "answer": "{{ flops }} / {{ gpu.bf16_dense }} = **{{ answer }}**",
            "rubric": {"strong_signals": ["2MNK"], "red_flags": ["MNK"]},
            "estimate": block,
        }
    )


def h100_gemm_ms() -> float:
    rate = bank().hardware["h100_sxm"].get("bf16_dense")
    assert rate is not None
    return 2 * 8192**3 / rate.magnitude * 1e3


def test_a_zero_or_negative_answer_is_wrong_and_says_which():
    question = gemm_question()
    zero = grade(question, "0 ms", bank())
    assert (zero.verdict, zero.ratio) == ("wrong", 0.0)
    assert zero.message == zero.why == "wrong: 0 ms is zero; expected about 1.11 ms"
    negative = grade(question, "-1 ms", bank())
    assert negative.verdict == "wrong"
    assert negative.ratio == pytest.approx(-1 / h100_gemm_ms())
    assert negative.message == "wrong: -1 ms has the wrong sign; expected about 1.11 ms"


def test_when_the_answer_is_zero_only_zero_is_correct():
    question = gemm_question(solution="M - M", unit="", steps=[])
    right = grade(question, "0", bank())
    assert (right.verdict, right.ratio, right.message) == (
        "correct",
        None,
        "correct: the expected answer is 0",
    )
    assert right.why == right.message
    wrong = grade(question, "5", bank())
    assert (wrong.verdict, wrong.message) == ("wrong", "wrong: the expected answer is 0")


def test_a_bare_number_is_said_to_be_read_in_the_question_s_unit():
    bare = grade(gemm_question(), "1", bank())
    assert bare.message == "correct: 1 ms (a bare number is read in ms) is 10.0% from 1.11 ms"
    assert grade(gemm_question(), "1 ms", bank()).message == "correct: 1 ms is 10.0% from 1.11 ms"


def test_how_a_typed_answer_was_read_comes_with_the_grade():
    result = grade(gemm_question(), "1.4 thousand us", bank())
    assert result.verdict == "close"
    assert result.notes == ("1.4 thousand read as 1.4 × 1e3",)


def test_the_band_text_gives_a_relative_close_band_as_a_percentage_and_a_factor_as_x():
    answer = f"{h100_gemm_ms() * 1.05} ms"
    relative = grade(gemm_question(tolerance={"correct": 0.1, "close": 0.3}), answer, bank())
    assert relative.why.endswith("inside the band (correct within ±10%, close within ±30%)")
    factor = grade(gemm_question(), answer, bank())
    assert factor.why.endswith("inside the band (correct within ±25%, close within 2x)")


def test_a_grade_as_json_lists_its_figures_and_notes():
    document = grade(gemm_question(), "1.4 thousand us", bank()).to_json()
    assert document["notes"] == ["1.4 thousand read as 1.4 × 1e3"]
    assert document["table_figures"] == []
    assert document["verdict"] == "close"
    assert set(document) == {
        "verdict", "given", "expected", "ratio", "message", "why",
        "trap", "trap_explain", "from_table", "table_figures", "notes",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("given", "powers"),
    [(1e3, 1), (1e-3, -1), (1e6, 2), (1e-6, -2), (1e9, 3), (1e-9, -3), (2e6, 0), (1.0, 0)],
)
def test_an_answer_off_by_a_power_of_a_thousand_is_named_by_the_power(given: float, powers: int):
    assert thousands_off(given, 1.0, BANDS) == powers


def test_a_thousand_fold_slip_keeps_the_correct_band_edge_inclusive():
    assert thousands_off(750.0, 1.0, BANDS) == 1
    assert thousands_off(1250.0, 1.0, BANDS) == 1
    assert thousands_off(1260.0, 1.0, BANDS) == 0


def _trap(name: str, value: float, unit: str = "ms") -> TrapValue:
    return TrapValue(f"own:{name}", name, f"why {name}", quantity(value, unit))


def test_a_trap_at_zero_or_below_is_skipped_and_the_next_one_still_found():
    traps = [_trap("zero", 0.0), _trap("negative", -2.0), _trap("halved", 0.5)]
    found = nearest_trap(0.5, 1.0, traps, "ms", BANDS)
    assert found is not None and found.name == "halved"


def test_a_whole_number_answer_falls_in_a_trap_only_at_the_trap_s_own_whole_number():
    exact = Tolerance(integer="exact")
    doubled, near = _trap("doubled", 8.0, ""), _trap("rounds to the answer", 4.2, "")
    assert nearest_trap(8.0, 4.0, [near, doubled], "", exact) is doubled
    assert nearest_trap(4.0, 4.0, [near, doubled], "", exact) is None
    assert nearest_trap(5.0, 4.0, [near, doubled], "", exact) is None


def test_an_answer_that_does_not_parse_is_invalid_and_the_caret_points_into_what_was_typed():
    result = grade(gemm_question(), "468k foo", bank())
    assert (result.verdict, result.given, result.ratio) == ("invalid", None, None)
    assert result.expected == {"value": pytest.approx(h100_gemm_ms()), "unit": "ms"}
    assert result.why == result.message
    assert result.message.splitlines()[1:] == ["  468k foo", "     ^"]


def test_an_answer_of_another_dimension_names_both_and_the_unit_asked_for():
    result = grade(gemm_question(), "1.4 thousand GB", bank())
    assert result.verdict == "invalid"
    assert result.message == "you gave an amount of data; the question asks for a time (in ms)"
    assert result.why == result.message
    assert result.given == {"value": pytest.approx(1.4), "unit": "TB"}
    assert result.expected == {"value": pytest.approx(h100_gemm_ms()), "unit": "ms"}
    assert result.notes == ("1.4 thousand read as 1.4 × 1e3",)
    plain = grade(gemm_question(solution="M - M", unit="", steps=[]), "3 ms", bank())
    assert plain.message == "you gave a time; the question asks for a plain number"


def test_a_trailing_b_on_a_time_question_is_bytes_not_a_billion():
    assert grade(gemm_question(), "2 B", bank()).message.startswith("you gave an amount of data")


TABLE_ANSWER = "2*8192^3 FLOP / h100_sxm.bf16_dense"


def test_a_closed_book_answer_read_from_the_table_says_so_and_names_the_figure_to_learn():
    result = grade(gemm_question(), TABLE_ANSWER, bank(), open_book=False)
    figure = "H100 SXM5 80GB bf16 dense: 989 TFLOP/s"
    assert (result.verdict, result.from_table, result.table_figures) == ("correct", True, (figure,))
    assert result.message == (
        f"correct, from the table: 1.11 ms is 0.0% from 1.11 ms (know it: {figure})"
    )
    assert result.why.endswith(f"(know it: {figure})")


def test_grading_a_worked_solution_is_open_book_unless_asked():
    question = gemm_question()
    result = grade_solved(question, solve(question, bank()), TABLE_ANSWER, bank().hardware)
    assert result.from_table is False
    assert result.message == "correct: 1.11 ms is 0.0% from 1.11 ms"


def percent_question(solution: str) -> Question:
    question = gemm_question(solution=solution, unit="", steps=[])
    return question.model_copy(update={"prompt": "What percentage of peak is reached?"})


@pytest.mark.parametrize(
    ("answer", "given", "notes"),
    [
        ("55%", 55.0, ()),
        ("55", 55.0, ()),
        ("0.55", 55.0, ("0.55 read as 55%",)),
        ("1", 100.0, ("1 read as 100%",)),
        ("0", 0.0, ()),
    ],
)
def test_a_percent_question_reads_55_percent_55_and_a_fraction_as_a_percentage(
    answer: str, given: float, notes: tuple[str, ...]
):
    result = grade(percent_question("M / 8192 * 55"), answer, bank())
    assert result.given == {"value": pytest.approx(given), "unit": ""}
    assert result.notes == notes


@pytest.mark.parametrize(
    ("solution", "answer", "given"),
    [
        ("M / 8192 * 100", "0.5", 50.0),
        ("M / 8192 * 1.5", "1.5%", 1.5),
        ("M / 8192", "0.5", 0.5),
        ("M / 8192 * 100.5", "0.5", 0.5),
    ],
)
def test_only_a_figure_above_1_and_up_to_100_is_asked_as_a_percentage(
    solution: str, answer: str, given: float
):
    result = grade(percent_question(solution), answer, bank())
    assert result.given == {"value": pytest.approx(given), "unit": ""}


def test_a_percent_typed_for_a_plain_fraction_is_read_as_the_fraction_and_noted():
    result = grade(gemm_question(solution="M / 8192 * 0.55", unit="", steps=[]), "55%", bank())
    assert result.given == {"value": pytest.approx(0.55), "unit": ""}
    assert result.notes == ("55% read as 0.55",)


def test_percent_in_the_prompt_of_a_time_question_does_not_rescale_a_bare_number():
    question = gemm_question().model_copy(update={"prompt": "The GEMM runs at what percent..."})
    assert grade(question, "1", bank()).given == {"value": 1.0, "unit": "ms"}


def test_close_and_wrong_answers_say_how_far_which_way_and_the_bands():
    close = grade(gemm_question(), "1.4 thousand us", bank())
    assert (
        close.message == "close: 1.4 ms is 1.3x too high; expected 1.11 ms (correct is within 25%)"
    )
    assert close.why == (
        "1.4 ms is 1.3x too high; expected 1.11 ms: outside the correct band, inside the close one"
        " (correct within ±25%, close within 2x)"
    )
    wrong = grade(gemm_question(), "5 ms", bank())
    assert wrong.message == "wrong: 5 ms is 4.5x too high; expected 1.11 ms"
    assert wrong.ratio == pytest.approx(5 / h100_gemm_ms())


@pytest.mark.parametrize(
    ("factor", "said"),
    [
        (1e3, "1111 ms is exactly 1000x too high: did you give it in us? The question asks in ms"),
        (1e6, "1111291 ms is exactly 1000000x too high: did you give it in ns?"),
    ],
)
def test_an_answer_a_power_of_1000_off_is_invalid_with_the_unit_it_was_probably_in(factor, said):
    result = grade(gemm_question(), f"{h100_gemm_ms() * factor} ms", bank())
    assert result.verdict == "invalid"
    assert result.ratio == pytest.approx(factor)
    assert result.message.startswith(f"invalid: {said}")


@pytest.mark.parametrize(
    ("integer", "how", "target"),
    [("exact", "exactly", 8), ("at_least", "the smallest that is enough", 9)],
)
def test_a_fraction_for_a_whole_number_question_is_invalid_and_says_which_whole_number(
    integer: str, how: str, target: int
):
    question = gemm_question(solution="M / 1000", unit="", steps=[], tolerance={"integer": integer})
    result = grade(question, "8.5", bank())
    said = (
        f"the answer is a whole number ({how}); 8.5 is not one: round it the way the question needs"
    )
    assert (result.verdict, result.message) == ("invalid", f"invalid: {said}")
    assert result.why == f"{said} (expected {target})"
    assert result.ratio == pytest.approx(8.5 / target)


def test_an_answer_in_a_trap_names_the_slip_its_figure_and_why():
    question = gemm_question(
        traps=[
            {
                "name": "MNK",
                "solution": "M^3 FLOP / gpu.bf16_dense",
                "explain": "A multiply-add is two FLOPs.",
            }
        ]
    )
    result = grade(question, f"{h100_gemm_ms() / 2} ms", bank())
    assert (result.verdict, result.trap) == ("wrong", "MNK")
    assert result.message == (
        "wrong (MNK): 0.556 ms is 2x too low; expected 1.11 ms. A multiply-add is two FLOPs."
    )
    assert result.why == (
        "0.556 ms is nearer the slip 'MNK' (0.556 ms) than the expected 1.11 ms:"
        " A multiply-add is two FLOPs."
    )


def test_gb_for_gib_either_way_is_forgiven_only_for_a_question_that_moves_data():
    tight = {"correct": 0.05, "close": 2.0}
    stream = gemm_question(
        solution="size / gpu.hbm_bandwidth",
        params={"size": {"value": 80, "unit": "GB"}},
        steps=[],
        tolerance=tight,
    )
    expected = solve(stream, bank()).answer_value
    forgiven = " (GB and GiB differ by 7.4%; that alone is never wrong)"
    for answer in (expected * GIB_PER_GB, expected / GIB_PER_GB):
        result = grade(stream, f"{answer} ms", bank())
        assert (result.verdict, result.trap) == ("correct", GIB_SLIP)
        assert result.message.endswith(forgiven)
    exact = grade(stream, f"{expected} ms", bank())
    assert (exact.trap, exact.message) == (None, "correct: 23.9 ms is 0.0% from 23.9 ms")
    gemm = grade(gemm_question(tolerance=tight), f"{h100_gemm_ms() * GIB_PER_GB} ms", bank())
    assert gemm.verdict == "close"


def test_every_table_figure_an_answer_read_is_named_in_order():
    answer = f"{TABLE_ANSWER} * (h100_sxm.hbm_bandwidth / h100_sxm.hbm_bandwidth)"
    result = grade(gemm_question(), answer, bank(), open_book=False)
    assert result.message.endswith(
        "(know it: H100 SXM5 80GB bf16 dense: 989 TFLOP/s; H100 SXM5 80GB hbm bandwidth: 3.35 TB/s)"
    )


def test_a_table_answer_in_a_trap_keeps_the_trap_s_explanation_last():
    question = gemm_question(
        traps=[{"name": "MNK", "solution": "M^3 FLOP / gpu.bf16_dense", "explain": "Two FLOPs."}]
    )
    result = grade(question, "8192^3 FLOP / h100_sxm.bf16_dense", bank(), open_book=False)
    assert result.message == (
        "wrong, from the table (MNK): 0.556 ms is 2x too low; expected 1.11 ms."
        " (know it: H100 SXM5 80GB bf16 dense: 989 TFLOP/s) Two FLOPs."
    )
    assert (result.trap, result.trap_explain, result.from_table) == ("MNK", "Two FLOPs.", True)


def test_a_whole_number_question_says_so_in_its_band_and_a_1000x_answer_is_just_wrong():
    question = gemm_question(solution="M / 1000", unit="", steps=[], tolerance={"integer": "exact"})
    right = grade(question, "8", bank())
    assert right.why == "8 is 0.0% from 8: inside the band (only the whole number is correct)"
    thousandfold = grade(question, "8000", bank())
    assert (thousandfold.verdict, thousandfold.message) == (
        "wrong",
        "wrong: 8000 is 1000x too high; expected 8",
    )
    assert "8.123 is not one" in grade(question, "8.12345", bank()).message


def test_a_question_can_opt_out_of_the_1000x_and_gib_slips():
    no_units = gemm_question(generic_traps={"exclude": ["ms_vs_us"]})
    assert grade(no_units, f"{h100_gemm_ms() * 1000} ms", bank()).message == (
        "wrong: 1111 ms is 1000x too high; expected 1.11 ms"
    )
    stream = gemm_question(
        solution="size / gpu.hbm_bandwidth",
        params={"size": {"value": 80, "unit": "GB"}},
        steps=[],
        tolerance={"correct": 0.05, "close": 2.0},
        generic_traps={"exclude": ["gb_vs_gib"]},
    )
    expected = solve(stream, bank()).answer_value
    assert grade(stream, f"{expected * GIB_PER_GB} ms", bank()).verdict == "close"


def test_each_grade_carries_its_figures_and_ratio_whichever_way_it_went():
    expected = {"value": pytest.approx(h100_gemm_ms()), "unit": "ms"}
    thousandfold = grade(gemm_question(), f"{h100_gemm_ms() * 1000} ms", bank())
    assert thousandfold.why == thousandfold.message.removeprefix("invalid: ")
    correct = grade(gemm_question(), "1 ms", bank())
    assert correct.ratio == pytest.approx(1 / h100_gemm_ms())
    table_answer = "1.4 thousand us * h100_sxm.bf16_dense / h100_sxm.bf16_dense"
    table = grade(gemm_question(), table_answer, bank(), open_book=False)
    assert (table.from_table, table.verdict) == (True, "close")
    assert table.given == {"value": pytest.approx(1.4), "unit": "ms"}
    assert table.expected == expected
    assert table.ratio == pytest.approx(1.4 / h100_gemm_ms())
    assert table.notes == ("1.4 thousand read as 1.4 × 1e3",)
    trap = gemm_question(
        traps=[{"name": "MNK", "solution": "M^3 FLOP / gpu.bf16_dense", "explain": "Two FLOPs."}]
    )
    assert grade(trap, f"{h100_gemm_ms() / 2} ms", bank()).ratio == pytest.approx(0.5)


def test_a_reading_keeps_the_unit_and_dimension_asked_for_even_when_it_fails():
    question = gemm_question()
    solution = solve(question, bank())
    for answer in ("2 * * 3", "1 ms"):
        reading = read_answer(answer, solution, bank().hardware)
        assert (reading.unit, reading.dimension) == ("ms", (1, 0, 0, 0))


def test_a_percent_question_leaves_a_bare_1_5_as_1_5():
    result = grade(percent_question("M / 8192 * 55"), "1.5", bank())
    assert result.given == {"value": pytest.approx(1.5), "unit": ""}
