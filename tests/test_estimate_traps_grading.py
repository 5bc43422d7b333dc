"""Grading that knows the usual slips: traps, bands, whole numbers, 1000x, GiB, closed book."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.grading import grade
from gpuprep.estimate.solve import solve
from gpuprep.sessions.srs import suggested_rating


@cache
def bank() -> Bank:
    loaded, _problems = load_bank()
    return loaded


def question(prompt: str = "Copy {{ size }} over PCIe.", **estimate: Any) -> Question:
    """A host-to-device copy over one direction of PCIe on an H100 SXM (expected: 125 ms)."""
    block: dict[str, Any] = {
        "solution": "size / (gpu.pcie_bandwidth / 2)",
        "unit": "ms",
        "gpu": "h100_sxm",
        "params": {"size": {"value": 8, "unit": "GB"}},
        "steps": [
            {"name": "one_way", "formula": "gpu.pcie_bandwidth / 2", "unit": "GB/s"},
            {
                "name": "t_both",
                "formula": "size / gpu.pcie_bandwidth",
                "unit": "ms",
                "label": "time at both directions' rate",
            },
        ],
    }
    block.update(estimate)
    return Question.model_validate(
        {
            "id": "test-pcie-copy",
            "title": "PCIe copy",
            "kind": "estimation",
            "level": "junior",
            "minutes": 3,
            "prompt": prompt,
            "answer": "**{{ answer }}**",
            "rubric": {"strong_signals": ["one direction"], "red_flags": ["both"]},
            "estimate": block,
        }
    )


OWN_TRAP = {
    "name": "both PCIe directions",
    "solution": "size / gpu.pcie_bandwidth",
    "explain": "The table adds both directions; a host-to-device copy uses one.",
}


def expected_ms(q: Question | None = None) -> float:
    return solve(q or question(), bank()).answer_value


def test_the_fixture_question_expects_125_ms() -> None:
    assert expected_ms() == pytest.approx(125, rel=1e-3)


def test_the_trap_value_is_wrong_and_named_with_its_explanation() -> None:
    result = grade(question(traps=[OWN_TRAP]), "62.5 ms", bank())
    assert result.verdict == "wrong"
    assert result.trap == "both PCIe directions"
    assert result.trap_explain == OWN_TRAP["explain"]
    assert "both PCIe directions" in result.message and "uses one" in result.why


def test_an_own_trap_is_named_before_the_generic_slip_of_the_same_value() -> None:
    # The generic link-direction trap also sits at half the answer; the question's own wins.
    assert grade(question(traps=[OWN_TRAP]), "62.5 ms", bank()).trap == "both PCIe directions"
    assert grade(question(), "62.5 ms", bank()).trap == "both link directions counted"


@pytest.mark.parametrize(
    ("answer", "verdict", "trap"),
    [
        # Between the answer (125) and the 2x trap (250) the log midpoint is 176.8 ms; the
        # linear one 187.5. A nearest-trap by linear distance grades 180 ms close.
        ("180 ms", "wrong", "one link direction for both"),
        ("170 ms", "close", None),
        # Between the half trap (62.5) and 125 the log midpoint is 88.4; the linear one 93.75.
        ("90 ms", "close", None),
        ("86 ms", "wrong", "both PCIe directions"),
    ],
)
def test_the_nearest_trap_is_nearest_by_log_ratio(
    answer: str, verdict: str, trap: str | None
) -> None:
    result = grade(question(traps=[OWN_TRAP]), answer, bank())
    assert (result.verdict, result.trap) == (verdict, trap), result.message


def test_an_answer_far_from_every_trap_is_plainly_wrong() -> None:
    # 20x too high: nearer the 8x bits/bytes trap than the answer, but far outside its band.
    result = grade(question(traps=[OWN_TRAP]), "2500 ms", bank())
    assert result.verdict == "wrong" and result.trap is None
    assert "20x too high" in result.message


def test_bits_for_bytes_is_a_named_slip_where_bytes_move() -> None:
    result = grade(question(), "1000 ms", bank())
    assert result.trap == "bits for bytes"


def test_a_question_can_opt_out_of_a_generic_trap() -> None:
    opted_out = question(generic_traps={"exclude": ["bits_vs_bytes"]})
    result = grade(opted_out, "1000 ms", bank())
    assert result.verdict == "wrong" and result.trap is None


def test_forgetting_the_write_is_a_slip_only_where_the_question_says_it_is_a_copy() -> None:
    hbm = {"solution": "2 * size / gpu.hbm_bandwidth", "unit": "ms", "steps": []}
    assert grade(question(**hbm), f"{expected_ms(question(**hbm)) / 2} ms", bank()).trap is None
    copy = question(**hbm, generic_traps={"include": ["forgot_the_write"]})
    assert grade(copy, f"{expected_ms(copy) / 2} ms", bank()).trap == "forgot the write"


@pytest.mark.parametrize(
    ("answer", "hint"),
    [("125000", "did you give it in us?"), ("0.125", "did you give it in s?"), ("125 s", "in us?")],
)
def test_an_answer_off_by_a_power_of_1000_is_invalid_and_asks_which_unit(
    answer: str, hint: str
) -> None:
    result = grade(question(), answer, bank())
    assert result.verdict == "invalid", result.message
    assert hint in result.message


def test_a_count_1000x_too_small_asks_whether_it_was_given_in_thousands() -> None:
    tokens = question(
        solution="size / (2 B)", unit="", steps=[], params={"size": {"value": 936, "unit": "kB"}}
    )
    result = grade(tokens, "468", bank())
    assert result.verdict == "invalid" and "did you give it in thousands?" in result.message
    assert grade(tokens, "468k", bank()).verdict == "correct"
    assert grade(tokens, "468,000", bank()).verdict == "correct"


def test_a_count_in_billions_typed_in_full_asks_which_scale() -> None:
    billions = question(
        solution="size / (1 GB)", unit="", steps=[], params={"size": {"value": 4.8, "unit": "GB"}}
    )
    result = grade(billions, "4.8e9", bank())
    assert result.verdict == "invalid" and "did you" in result.message
    assert grade(billions, "4.8", bank()).verdict == "correct"


def test_gb_for_gib_alone_is_never_wrong_even_in_a_tight_band() -> None:
    tight = question(tolerance={"correct": 0.05, "close": 0.2})
    gib_slip = expected_ms(tight) * 2**30 / 1e9
    result = grade(tight, f"{gib_slip} ms", bank())
    assert result.verdict == "correct" and "GiB" in result.message
    # Named all the same, so that Stats can say how often it happens.
    assert result.trap == "GB for GiB"
    # 7.4% plus more is not the slip alone.
    assert grade(tight, f"{gib_slip * 1.03} ms", bank()).verdict == "close"


@pytest.mark.parametrize(
    ("off", "verdict"), [(0.09, "correct"), (-0.09, "correct"), (0.2, "close"), (0.35, "wrong")]
)
def test_a_questions_own_bands_decide(off: float, verdict: str) -> None:
    strict = question(tolerance={"correct": "10%", "close": "30%"})
    result = grade(strict, f"{expected_ms(strict) * (1 + off)} ms", bank())
    assert result.verdict == verdict, result.message


GPUS_NEEDED = {
    "solution": "weights / gpu.hbm_capacity",
    "unit": "",
    "params": {"weights": {"value": 140, "unit": "GB"}},
    "steps": [],
    "tolerance": {"integer": "at_least"},
}


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ("2", "correct"),
        ("2 GPUs", "correct"),
        ("1.86", "invalid"),
        ("1", "wrong"),
        ("3", "wrong"),
        ("4", "wrong"),
    ],
)
def test_the_smallest_whole_number_is_the_only_right_answer(answer: str, verdict: str) -> None:
    result = grade(question(**GPUS_NEEDED), answer, bank())
    assert result.verdict == verdict, result.message
    assert result.expected["value"] == 2


def test_an_exact_whole_number_question_rounds_its_solution() -> None:
    exact = question(**{**GPUS_NEEDED, "tolerance": {"integer": "exact"}})
    assert grade(exact, "2", bank()).verdict == "correct"
    assert grade(exact, "2.5", bank()).verdict == "invalid"


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("92%", "correct"), ("0.92", "correct"), ("92", "correct"), ("67%", "wrong")],
)
def test_a_percentage_question_takes_92_percent_and_0_92_alike(answer: str, verdict: str) -> None:
    percent = question(
        prompt="Give a percentage of peak.",
        solution="achieved / peak * 100",
        unit="",
        steps=[],
        params={
            "achieved": {"value": 920, "unit": "TFLOP/s"},
            "peak": {"value": 1000, "unit": "TFLOP/s"},
        },
        tolerance={"correct": 0.05, "close": 0.15},
    )
    assert grade(percent, answer, bank()).verdict == verdict


def test_a_fraction_question_reads_55_percent_as_0_55() -> None:
    fraction = question(
        solution="a / b",
        unit="",
        steps=[],
        params={"a": {"value": 55}, "b": {"value": 100}},
    )
    assert grade(fraction, "55%", bank()).verdict == "correct"


def test_every_grade_says_why_with_the_ratio_and_the_band() -> None:
    result = grade(question(), "170 ms", bank())
    assert result.verdict == "close"
    assert "1.4x too high" in result.why and "close within 2x" in result.why


def test_a_figure_that_stopped_at_a_step_names_it() -> None:
    # 62.5 ms is the step 't_both': without traps, the step is what the grade points at.
    no_traps = question(generic_traps={"exclude": ["link_direction"]})
    result = grade(no_traps, "62.5 ms", bank())
    assert "time at both directions' rate" in result.why


def test_closed_book_marks_an_answer_read_from_the_table_and_shows_the_figure() -> None:
    typed = "8 GB / (h100_sxm.pcie_bandwidth / 2)"
    open_book = grade(question(), typed, bank())
    assert open_book.verdict == "correct" and not open_book.from_table
    closed = grade(question(), typed, bank(), open_book=False)
    assert closed.verdict == "correct" and closed.from_table
    assert closed.message.startswith("correct, from the table")
    assert closed.table_figures == ("H100 SXM5 80GB pcie bandwidth: 128 GB/s",)
    # A pass without a lapse, but not an easy one.
    assert suggested_rating(closed).name == "Hard"
    assert suggested_rating(open_book).name == "Good"


def test_a_recalled_number_is_not_from_the_table_in_a_closed_book() -> None:
    assert not grade(question(), "8 GB / 64 GB/s", bank(), open_book=False).from_table


def test_at_least_rounds_up_where_exact_rounds_to_nearest() -> None:
    small = {**GPUS_NEEDED, "params": {"weights": {"value": 100, "unit": "GB"}}}  # 1.25 GPUs
    assert grade(question(**small), "2", bank()).verdict == "correct"
    exact = question(**{**small, "tolerance": {"integer": "exact"}})
    assert grade(exact, "1", bank()).verdict == "correct"
    assert grade(exact, "2", bank()).verdict == "wrong"
