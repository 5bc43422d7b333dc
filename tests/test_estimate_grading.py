"""Grading typed answers: verdicts, bare numbers, wrong dimensions, factors and directions."""

from __future__ import annotations

from functools import cache

import pytest

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import Question
from gpuprep.estimate.errors import EstimateError
from gpuprep.estimate.grading import grade
from gpuprep.estimate.variants import default_variant, random_variant


@cache
def bank() -> Bank:
    loaded, _problems = load_bank()
    return loaded


def gemm_question(**estimate: object) -> Question:
    """A bf16 GEMM time question (the shape of questions/roofline.yaml's first one)."""
    block = {
        "solution": "flops / gpu.bf16_dense",
        "unit": "ms",
        "gpu": "h100_sxm",
        "gpus": ["a100_sxm"],
        "params": {"M": {"value": 8192, "values": [4096, 16384]}},
        "steps": [{"name": "flops", "formula": "2 * M^3 FLOP", "unit": "TFLOP"}],
    }
    block.update(estimate)
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


def h100_gemm_ms(m: int = 8192) -> float:
    rate = bank().hardware["h100_sxm"].get("bf16_dense")
    assert rate is not None
    return 2 * m**3 / rate.magnitude * 1e3


def test_the_expected_answer_comes_from_the_hardware_table() -> None:
    result = grade(gemm_question(), "1 ms", bank())
    assert result.expected == {"value": pytest.approx(h100_gemm_ms()), "unit": "ms"}


@pytest.mark.parametrize(
    "answer",
    [
        "1.1 ms",
        "about 1.1 ms",
        "~1100 us",
        "≈ 0.0011 s",
        "2*8192^3 FLOP / 989 TFLOP/s",
        "2*M^3 FLOP / gpu.bf16_dense",
        "2*8192^3 FLOP / h100_sxm.bf16_dense",
    ],
)
def test_answers_within_a_quarter_are_correct(answer: str) -> None:
    result = grade(gemm_question(), answer, bank())
    assert result.verdict == "correct", result.message
    assert result.given is not None and result.given["unit"] == "ms"


def test_a_bare_number_is_read_in_the_questions_unit() -> None:
    result = grade(gemm_question(), "1.1", bank())
    assert result.verdict == "correct"
    assert result.given == {"value": pytest.approx(1.1), "unit": "ms"}
    assert "read in ms" in result.message


def test_an_answer_of_another_dimension_is_invalid_and_names_both() -> None:
    result = grade(gemm_question(), "3.35 TB/s", bank())
    assert result.verdict == "invalid"
    assert result.ratio is None
    assert "you gave a bandwidth; the question asks for a time" in result.message
    assert result.given == {"value": pytest.approx(3.35), "unit": "TB/s"}


def test_within_the_close_factor_is_close_and_says_the_direction() -> None:
    result = grade(gemm_question(), f"{h100_gemm_ms() * 1.6} ms", bank())
    assert result.verdict == "close"
    assert result.ratio == pytest.approx(1.6)
    assert "1.6x too high" in result.message


def test_a_wrong_answer_says_by_what_factor_and_which_way() -> None:
    result = grade(gemm_question(), f"{h100_gemm_ms() / 10} ms", bank())
    assert result.verdict == "wrong"
    assert "10x too low" in result.message
    result = grade(gemm_question(), f"{h100_gemm_ms() * 4} ms", bank())
    assert "4x too high" in result.message


def test_the_tolerance_of_the_question_is_used() -> None:
    strict = gemm_question(tolerance={"correct": 0.05, "close": 1.5})
    assert grade(strict, f"{h100_gemm_ms() * 1.1} ms", bank()).verdict == "close"
    assert grade(strict, f"{h100_gemm_ms() * 1.6} ms", bank()).verdict == "wrong"


def test_a_negative_answer_is_wrong() -> None:
    assert grade(gemm_question(), "-1.1 ms", bank()).verdict == "wrong"


def test_an_answer_that_does_not_parse_is_invalid_with_the_caret() -> None:
    result = grade(gemm_question(), "1.1 ms +", bank())
    assert result.verdict == "invalid"
    assert result.given is None
    assert "^" in result.message


def test_steps_cannot_be_typed_as_the_answer() -> None:
    assert grade(gemm_question(), "flops / gpu.bf16_dense", bank()).verdict == "invalid"


def test_another_gpu_and_params_change_the_expected_answer() -> None:
    on_a100 = grade(gemm_question(), "1 ms", bank(), gpu="a100_sxm", params={"M": 4096})
    a100_rate = bank().hardware["a100_sxm"].get("bf16_dense")
    assert a100_rate is not None
    assert on_a100.expected["value"] == pytest.approx(2 * 4096**3 / a100_rate.magnitude * 1e3)


def test_a_gpu_the_question_does_not_allow_is_an_error() -> None:
    with pytest.raises(EstimateError, match="allows h100_sxm, a100_sxm"):
        grade(gemm_question(), "1 ms", bank(), gpu="h200")
    with pytest.raises(EstimateError, match="unknown GPU"):
        grade(gemm_question(), "1 ms", bank(), gpu="no_such_gpu")


def test_an_unknown_param_or_a_param_of_the_wrong_unit_is_an_error() -> None:
    with pytest.raises(EstimateError, match="no parameter 'N'"):
        grade(gemm_question(), "1 ms", bank(), params={"N": 3})
    with pytest.raises(EstimateError, match="parameter M"):
        grade(gemm_question(), "1 ms", bank(), params={"M": "3 ms"})


def test_only_estimation_questions_are_graded() -> None:
    concept = gemm_question().model_copy(update={"kind": "concept", "estimate": None})
    with pytest.raises(EstimateError, match="only estimation questions"):
        grade(concept, "1 ms", bank())


def test_a_seeded_variant_is_repeatable_and_stays_within_the_allowed_values() -> None:
    question = gemm_question()
    variants = [random_variant(question, seed, bank()) for seed in range(40)]
    assert random_variant(question, 7, bank()) == random_variant(question, 7, bank())
    assert {v.gpu for v in variants} == {"h100_sxm", "a100_sxm"}
    assert {v.params["M"] for v in variants} == {8192, 4096, 16384}
    assert default_variant(question).params == {"M": 8192}
