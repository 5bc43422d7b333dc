"""The four newer kernel drills (layernorm, matmul, scan, flash_attention) each have a Triton
coding question in the bank, so practice and the mock can offer them, and a 45-minute mock on a
machine without a CUDA GPU is no longer always the vector add."""

from __future__ import annotations

import dataclasses
import re

import pytest
from test_sessions_mock import drills_drawn

from gpuprep.estimate.render import render_question
from gpuprep.sessions.coding import needs_cuda_gpu

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
    drawn = drills_drawn(builtin_bank, cuda_gpu=False, tracks=(track,), lengths=(45,))

    assert "kernel-coding-layernorm" in drawn, drawn
    assert "kernel-coding-vector-add" in drawn, "the vector add stays in the draw"


@pytest.mark.parametrize("track", ["general", "kernel"])
def test_a_60_minute_mock_without_a_cuda_gpu_draws_each_15_minute_triton_drill(builtin_bank, track):
    # The design question takes 25 of the 60 minutes and the warm-ups keep their typical
    # lengths, so the drill gets 15: the vector add, the block-atomics sum and the tiled
    # transpose are the drills that short, and over 40 seeds the draw reaches each of them.
    fifteen_minutes = {
        "kernel-coding-vector-add",
        "kernel-coding-reduction-block-atomics",
        "kernel-coding-transpose-triton-tile",
    }
    drawn = drills_drawn(builtin_bank, cuda_gpu=False, tracks=(track,), lengths=(60,))

    assert fifteen_minutes <= drawn, f"never drawn: {sorted(fifteen_minutes - drawn)}"
    assert all(builtin_bank.questions[qid].minutes <= 15 for qid in drawn), drawn


@pytest.mark.parametrize("track", ["general", "kernel"])
def test_a_45_minute_mid_level_mock_without_a_cuda_gpu_draws_each_20_minute_triton_drill(
    builtin_bank, track
):
    # At mid level the warm-ups leave the drill 20 minutes, and without a CUDA GPU only the
    # Triton drills that short can be drawn: the layernorm and the online-softmax row. Over 40
    # seeds the draw reaches both, so no mid-level mock is always the same drill.
    twenty_minutes = {"kernel-coding-layernorm", "kernel-coding-softmax-online-row"}
    drawn = drills_drawn(builtin_bank, cuda_gpu=False, tracks=(track,), lengths=(45,), level="mid")

    assert twenty_minutes <= drawn, f"never drawn: {sorted(twenty_minutes - drawn)}"
    assert all(builtin_bank.questions[qid].minutes <= 20 for qid in drawn), drawn


def _with_h200_scaled(bank, field_name: str, factor: float):
    """The bank with one figure of the H200's table multiplied, as a corrected table would be."""
    h200 = bank.hardware["h200"]
    spec = getattr(h200.specs, field_name)
    specs = h200.specs.model_copy(
        update={field_name: spec.model_copy(update={"value": spec.value * factor})}
    )
    hardware = {**bank.hardware, "h200": h200.model_copy(update={"specs": specs})}
    return dataclasses.replace(bank, hardware=hardware)


@pytest.mark.parametrize(
    ("question_id", "field_name", "as_typed_today", "after_doubling"),
    [
        ("kernel-coding-layernorm", "hbm_bandwidth", "4.8 TB/s = 0.224 ms", "9.6 TB/s = 0.112 ms"),
        ("kernel-coding-layernorm", "hbm_bandwidth", "near 0.25-0.26 ms", "near 0.12-0.13 ms"),
        ("kernel-coding-matmul", "bf16_dense", "= 0.139 ms on", "= 0.069 ms on"),
        ("kernel-coding-scan", "hbm_bandwidth", "or 0.447 ms at", "or 0.224 ms at"),
        (
            "kernel-coding-softmax-online-row",
            "hbm_bandwidth",
            "4.8 TB/s = 0.168 ms",
            "9.6 TB/s = 0.084 ms",
        ),
        (
            "kernel-coding-softmax-online-row",
            "hbm_bandwidth",
            "0.112 ms on paper",
            "0.056 ms on paper",
        ),
        (
            "kernel-coding-softmax-online-row",
            "boost_clock",
            "are 0.052 ms of work",
            "are 0.026 ms of work",
        ),
        (
            "kernel-coding-flash-attention",
            "bf16_dense",
            "1.11 ms, or 0.56 ms",
            "0.56 ms, or 0.28 ms",
        ),
        ("kernel-coding-flash-attention", "bf16_dense", "about 4096 dense", "about 8193 dense"),
    ],
)
def test_paper_times_next_to_a_templated_rate_follow_the_h200_table(
    builtin_bank, question_id, field_name, as_typed_today, after_doubling
):
    question = builtin_bank.questions[question_id]
    today = render_question(question, builtin_bank).answer
    corrected = render_question(question, _with_h200_scaled(builtin_bank, field_name, 2)).answer

    assert as_typed_today in " ".join(today.split())
    assert after_doubling in " ".join(corrected.split()), (
        f"{question_id}: a figure derived from the H200's {field_name} was typed, not computed"
    )


@pytest.mark.parametrize("drill_id", NEWER_DRILLS)
def test_each_answer_quotes_the_headline_ratio_its_drill_notes_measured(builtin_bank, drill_id):
    # The drill's first note holds the judge's latest headline ratio against the vendor op; an
    # answer still quoting an older run's ratio is stale.
    notes = builtin_bank.drills[drill_id].notes
    headline = re.search(r"(\d+\.\d+)x", notes[0])
    assert headline is not None, f"{drill_id}: the first note names no ratio"
    for question in _coding_questions_for(builtin_bank, drill_id):
        if question.topic != "kernel-coding-ii":
            continue
        answer = render_question(question, builtin_bank).answer
        assert f"{headline.group(1)}x" in answer, (
            f"{question.id} does not quote {drill_id}'s measured {headline.group(1)}x"
        )
