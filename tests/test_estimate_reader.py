"""The answers people type: suffixes, separators, percentages, ratios, and hostile text.

The properties (hypothesis): no text makes the reader or the grader raise, and none takes over
50 ms to grade (`deadline=50` is the property itself, per example, not a budget for the file).
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.grading import grade_solved, read_answer
from gpuprep.estimate.reader import read_typed
from gpuprep.estimate.solve import Solution, solve


@cache
def bank() -> Bank:
    loaded, _problems = load_bank()
    return loaded


def count_question(value: float) -> Question:
    return Question.model_validate(
        {
            "id": "test-count",
            "title": "A count",
            "kind": "estimation",
            "level": "junior",
            "minutes": 3,
            "prompt": "How many?",
            "answer": "**{{ answer }}**",
            "rubric": {"strong_signals": ["a"], "red_flags": ["b"]},
            "estimate": {
                "solution": "n",
                "unit": "",
                "gpu": "h100_sxm",
                "params": {"n": {"value": value}},
            },
        }
    )


@cache
def count_solution(value: float) -> tuple[Question, Solution]:
    question = count_question(value)
    return question, solve(question, bank())


def read_count(text: str, value: float) -> float | None:
    question, solution = count_solution(value)
    reading = read_answer(text, solution, bank().hardware, question)
    return reading.quantity.magnitude if reading.quantity is not None else None


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("468k", 468e3),
        ("468 K", 468e3),
        ("468,000", 468e3),
        ("468\u2009000", 468e3),
        ("468\u202f000", 468e3),
        ("468 000", 468e3),
        ("1,234,567.5", 1234567.5),
        ("8.5 billion", 8.5e9),
        ("8.5B", 8.5e9),
        ("8.5 bn", 8.5e9),
        ("2.3M", 2.3e6),
        ("3 trillion", 3e12),
        ("32-way", 32),
        ("32 way", 32),
        ("3.5x", 3.5),
        ("3.5× faster", 3.5),
        ("~468k", 468e3),
        ("about 468k", 468e3),
        ("≈ 468k", 468e3),
        ("2 GPUs", 2),
        ("16 warps per SM", 16),
        ("4.8e9", 4.8e9),
    ],
)
def test_numbers_as_people_write_them(typed: str, value: float) -> None:
    assert read_count(typed, value) == pytest.approx(value)


def test_55_percent_is_0_55_for_a_fraction() -> None:
    assert read_count("55%", 0.55) == pytest.approx(0.55)
    assert read_count("55 %", 0.55) == pytest.approx(0.55)


def test_a_b_after_a_number_is_bytes_where_the_question_asks_for_data() -> None:
    assert read_typed("8.5B", counts=False).expression == "8.5B"
    assert read_typed("8.5B", counts=True).expression == "(8.5*1e9)"


def test_units_and_params_are_left_alone() -> None:
    for text in ("2 GB", "2GB", "1.5 TB/s", "2*M^3 FLOP", "2 * K", "min(1,000, 2)", "3.5 × 4"):
        assert read_typed(text, counts=False).expression == text


def test_each_rewrite_leaves_a_note_the_user_sees() -> None:
    assert read_typed("468k").notes == ("468k read as 468 × 1e3",)


ANSWER_PIECES = st.sampled_from(
    [
        "1",
        "468",
        "0.55",
        "4.8e9",
        "1e999",
        ",",
        ",000",
        "\u2009",
        " ",
        "k",
        "K",
        "M",
        "B",
        "G",
        "T",
        "%",
        "x",
        "×",
        "-way",
        " billion",
        " thousand",
        "bn",
        "~",
        "≈",
        "about ",
        "(",
        ")",
        "*",
        "/",
        "^",
        "-",
        ".",
        "e",
        "ms",
        "GB/s",
        "gpu.",
        "bf16_dense",
        "h100_sxm.",
        "GPUs",
        "min(",
        "sqrt(",
        "9" * 40,
        "_",
        "'",
        "\u00a0",
        "₀",
        "²",
    ]
)
ANSWERS = st.one_of(
    st.text(max_size=600),
    st.lists(ANSWER_PIECES, max_size=200).map("".join),
)


# Texts that once took 20-200 ms: nested optional spaces before '468 000', and a run of digits
# longer than the tokenizer's limit run through every rewrite.
SLOW_ONCE = (" " * 499 + "1", "1" * 600, "1" * 499 + "%", "1," * 250)


@settings(deadline=50, max_examples=300)
@given(ANSWERS)
@example(SLOW_ONCE[0])
@example(SLOW_ONCE[1])
@example(SLOW_ONCE[2])
@example(SLOW_ONCE[3])
def test_no_typed_answer_makes_the_reader_raise_or_take_over_50_ms(text: str) -> None:
    read_typed(text)
    read_typed(text, counts=False)


@settings(deadline=50, max_examples=300)
@given(ANSWERS)
@example(SLOW_ONCE[0])
@example(SLOW_ONCE[1])
@example(SLOW_ONCE[2])
@example(SLOW_ONCE[3])
def test_no_typed_answer_makes_the_grader_raise_or_take_over_50_ms(text: str) -> None:
    question, solution = count_solution(468e3)
    result = grade_solved(question, solution, text, bank().hardware, open_book=False)
    assert result.verdict in ("correct", "close", "wrong", "invalid")
    assert result.why or result.verdict == "invalid"
