"""The four newer kernel drills (layernorm, matmul, scan, flash_attention) each have a Triton
coding question in the bank, so practice and the mock can offer them, and a 45-minute mock on a
machine without a CUDA GPU is no longer always the vector add."""

from __future__ import annotations

import re

import pytest

from gpuprep.sessions.coding import needs_cuda_gpu
from gpuprep.sessions.mock_plan import compose

NEWER_DRILLS = ("layernorm", "matmul", "scan", "flash_attention")


def _coding_questions_for(bank, drill_id: str) -> list:
    return [q for q in bank.questions.values() if q.kind == "coding" and q.drill == drill_id]


@pytest.mark.parametrize("drill_id", NEWER_DRILLS)
def test_each_newer_drill_has_a_triton_question_that_names_its_entry(builtin_bank, drill_id):
    entry = builtin_bank.drills[drill_id].entry
    triton = [q for q in _coding_questions_for(builtin_bank, drill_id) if not needs_cuda_gpu(q)]

    assert triton, f"no Triton coding question points at the {drill_id} drill"
    assert any(f"`{entry}(" in q.prompt for q in triton), (
        f"no {drill_id} question asks for `{entry}(...)`, the drill's entry point"
    )


@pytest.mark.parametrize("drill_id", NEWER_DRILLS)
def test_each_newer_drill_question_estimates_through_the_hardware_tables(builtin_bank, drill_id):
    # The estimate's rate must come from hardware/*.yaml, so a corrected table flows into it.
    for question in _coding_questions_for(builtin_bank, drill_id):
        assert re.search(r"\{\{ hw\.\w+\.name \}\}", question.prompt), question.id
        assert re.search(r"\{\{ hw\.\w+\.(hbm_bandwidth|bf16_dense) \}\}", question.answer), (
            question.id
        )


@pytest.mark.parametrize("track", ["general", "kernel"])
def test_a_45_minute_mock_without_a_cuda_gpu_can_draw_the_layernorm_drill(builtin_bank, track):
    drawn = {
        qid
        for seed in range(40)
        for section in compose(
            builtin_bank, minutes=45, track=track, seed=seed, cuda_gpu=False
        ).sections
        if section.kind == "coding"
        for qid in section.question_ids
    }

    assert "kernel-coding-layernorm" in drawn, drawn
    assert "kernel-coding-vector-add" in drawn, "the vector add stays in the draw"
