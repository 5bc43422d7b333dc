"""Per-question traps and tolerances: the schema, and what `bank check` says about them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from gpuprep.bank.loader import Bank, load_bank
from gpuprep.bank.question import GenericTraps, Tolerance
from gpuprep.estimate.bank_check import check_bank, check_bank_warnings
from gpuprep.estimate.solve import solve
from gpuprep.estimate.traps import generic_traps, own_traps

TRAP_BANK = Path(__file__).parent / "fixtures" / "trap_bank"


@pytest.fixture(scope="module")
def trap_bank() -> Bank:
    bank, problems = load_bank([TRAP_BANK])
    assert problems == []
    return bank


def test_a_trap_is_solved_per_gpu_and_param_variant_like_the_solution(trap_bank: Bank) -> None:
    question = trap_bank.questions["trap-pcie-copy"]
    for gpu, size in (("h100_sxm", 8), ("a100_sxm", 8), ("h100_sxm", 16)):
        solution = solve(question, trap_bank, gpu, {"size": size})
        (trap,) = own_traps(question, solution, trap_bank.hardware)
        assert trap.name == "both PCIe directions"
        # Counting both directions halves the time, on every GPU and size.
        assert trap.value.to("ms") == pytest.approx(solution.answer_value / 2)


def test_a_trap_that_does_not_evaluate_is_an_error_at_its_line(trap_bank: Bank) -> None:
    errors = [p for p in check_bank(trap_bank) if p.where == "question trap-broken-formula"]
    assert len(errors) == 1
    assert errors[0].line == 44
    assert "no_such_step" in errors[0].what and "names a step that is not there" in errors[0].what


def test_a_trap_of_the_wrong_dimension_is_an_error_naming_both(trap_bank: Bank) -> None:
    errors = [p for p in check_bank(trap_bank) if p.where == "question trap-wrong-dimension"]
    assert len(errors) == 1
    assert errors[0].line == 64
    assert "an amount of data" in errors[0].what and "a time" in errors[0].what


def test_a_trap_inside_the_correct_band_warns_naming_the_gpu(trap_bank: Bank) -> None:
    warnings = check_bank_warnings(trap_bank)
    (inside,) = [w for w in warnings if w.where == "question trap-inside-band"]
    assert "on h100_sxm" in inside.what and inside.line == 84
    # A warning is not a fault: the clean questions have no problems.
    assert not [p for p in check_bank(trap_bank) if p.where == "question trap-inside-band"]


def test_a_whole_number_question_warns_about_a_fractional_trap_only(trap_bank: Bank) -> None:
    # floor(140 GB / 80 GB) = 1 GPU, against the expected 2: a real trap, no warning; the
    # unrounded 1.75 can never be named, since a fraction is an invalid answer there.
    (warning,) = [w for w in check_bank_warnings(trap_bank) if "gpus-needed" in w.where]
    assert "'did not round'" in warning.what and "not a whole number" in warning.what


def test_tolerances_are_written_as_said() -> None:
    assert Tolerance.model_validate({"correct": "10%", "close": "30%"}).close_factor == 1.3
    assert Tolerance.model_validate({"correct": 0.1, "close": "2x"}).close_factor == 2.0
    assert Tolerance().correct == 0.25 and Tolerance().close_factor == 2.0


@pytest.mark.parametrize(
    ("fields", "complaint"),
    [
        ({"correct": 0.3, "close": 0.2}, "wider than correct"),
        ({"correct": 0.3, "close": 1.2}, "wider than correct"),
        ({"close": 1}, "ambiguous"),
        ({"integer": "exact", "correct": 0.1}, "no bands"),
        ({"integer": "roughly"}, "exact"),
    ],
)
def test_a_tolerance_that_makes_no_sense_is_refused(
    fields: dict[str, object], complaint: str
) -> None:
    with pytest.raises(ValidationError, match=complaint):
        Tolerance.model_validate(fields)


def test_generic_traps_opt_in_and_out_by_id() -> None:
    default = GenericTraps()
    assert default.applies("bits_vs_bytes") and not default.applies("forgot_the_write")
    chosen = GenericTraps.model_validate(
        {"include": ["forgot_the_write"], "exclude": ["bits_vs_bytes"]}
    )
    assert chosen.applies("forgot_the_write") and not chosen.applies("bits_vs_bytes")
    with pytest.raises(ValidationError, match="forgot_the_writ"):
        GenericTraps.model_validate({"include": ["forgot_the_writ"]})


def test_the_link_direction_trap_applies_only_where_the_solution_uses_a_link(
    trap_bank: Bank,
) -> None:
    pcie = trap_bank.questions["trap-pcie-copy"]
    hbm = trap_bank.questions["trap-inside-band"]
    pcie_ids = {t.id for t in generic_traps(pcie, solve(pcie, trap_bank))}
    hbm_ids = {t.id for t in generic_traps(hbm, solve(hbm, trap_bank))}
    assert "link_direction" in pcie_ids and "link_direction" not in hbm_ids
    assert "bits_vs_bytes" in pcie_ids and "bits_vs_bytes" in hbm_ids
    assert "forgot_the_write" not in pcie_ids


def test_bits_for_bytes_applies_only_when_the_answer_depends_on_bytes() -> None:
    from gpuprep.bank.question import Question

    def gemm(solution: str) -> Question:
        return Question.model_validate(
            {
                "id": "test-gemm",
                "title": "GEMM",
                "kind": "estimation",
                "level": "junior",
                "minutes": 3,
                "prompt": "x",
                "answer": "**{{ answer }}**",
                "rubric": {"strong_signals": ["a"], "red_flags": ["b"]},
                "estimate": {
                    "solution": solution,
                    "unit": "ms",
                    "gpu": "h100_sxm",
                    "params": {"M": {"value": 8192}},
                    "steps": [
                        {"name": "flops", "formula": "2 * M^3 FLOP"},
                        {"name": "bytes", "formula": "3 * M^2 * 2 B"},
                        {"name": "mem_time", "formula": "bytes / gpu.hbm_bandwidth"},
                    ],
                },
            }
        )

    bank, _problems = load_bank()
    # The memory time is shown beside a compute-bound answer but does not enter it.
    compute = gemm("flops / gpu.bf16_dense")
    assert "bits_vs_bytes" not in {t.id for t in generic_traps(compute, solve(compute, bank))}
    roofline = gemm("max(flops / gpu.bf16_dense, mem_time)")
    assert "bits_vs_bytes" in {t.id for t in generic_traps(roofline, solve(roofline, bank))}


def test_an_answer_is_still_graded_when_a_trap_of_its_question_is_broken(trap_bank: Bank) -> None:
    from gpuprep.estimate.grading import grade

    result = grade(trap_bank.questions["trap-broken-formula"], "1 us", trap_bank)
    assert result.verdict == "wrong" and "299x too low" in result.message
