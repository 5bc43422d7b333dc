"""Faster than light is a verdict on both sides of the roofline: bytes against the memory's
bandwidth, and FLOPs against the datasheet's tensor-core peak, each with LIGHT_SLACK."""

from __future__ import annotations

import pytest

from gpuprep.harness.api import _light_for
from gpuprep.harness.report import Ceilings
from gpuprep.harness.verdicts import LIGHT_SLACK, faster_than_light, outside_the_stream

H200_BF16 = 989.5e12
H200_HBM = 4.8e12
GEMM_4096 = 2.0 * 4096**3


def row(
    ms: float, flops: float = 0.0, bytes_: float | None = None, dtype: str = "bfloat16"
) -> dict:
    return {"timing": {"median_ms": ms}, "flops": flops, "bytes": bytes_, "dtype": dtype}


def test_a_gemm_faster_than_the_tensor_cores_is_refused_with_both_rates():
    # 4096^3 in 0.1 ms is 1374 TFLOP/s: no H200 does that, whatever the kernel.
    verdict = faster_than_light(row(0.1, GEMM_4096), bandwidth=H200_HBM, flop_rate=H200_BF16)
    assert "faster than the tensor cores" in verdict
    assert "1374 TFLOP/s" in verdict and "990 TFLOP/s" in verdict and "bfloat16" in verdict


def test_a_gemm_near_the_peak_passes_and_the_margin_is_the_same_as_for_bytes():
    at_peak_ms = GEMM_4096 / H200_BF16 * 1e3
    assert (
        faster_than_light(row(at_peak_ms, GEMM_4096), bandwidth=H200_HBM, flop_rate=H200_BF16) == ""
    )
    inside = at_peak_ms / (LIGHT_SLACK * 0.999)
    beyond = at_peak_ms / (LIGHT_SLACK * 1.001)
    assert faster_than_light(row(inside, GEMM_4096), bandwidth=None, flop_rate=H200_BF16) == ""
    assert faster_than_light(row(beyond, GEMM_4096), bandwidth=None, flop_rate=H200_BF16) != ""


def test_the_bytes_side_still_refuses_a_copy_faster_than_the_memory():
    verdict = faster_than_light(row(0.1, bytes_=1e9), bandwidth=H200_HBM, flop_rate=H200_BF16)
    assert verdict.startswith("faster than the memory can move the bytes")


def test_without_a_flop_ceiling_only_the_bytes_are_judged():
    assert faster_than_light(row(0.001, GEMM_4096), bandwidth=H200_HBM, flop_rate=None) == ""


def test_the_judge_gets_the_datasheet_tensor_peak_else_the_calibrated_rate_with_slack():
    ceilings = Ceilings(
        datasheet_bandwidth=H200_HBM,
        datasheet_tensor_flops={"bfloat16": H200_BF16},
        calibrated_tensor_flops={"bfloat16": 700e12, "float16": 700e12},
    )
    light = _light_for(lambda device: ceilings)({"kind": "cuda"})
    assert light["bandwidth"] == H200_HBM
    assert light["flops"]["bfloat16"] == H200_BF16
    assert light["flops"]["float16"] == pytest.approx(700e12 * 1.15)
    assert _light_for(lambda device: Ceilings())({"kind": "cuda"}) == {}


def test_the_h200_table_gives_its_dense_tensor_peaks(bank_for_ceilings):
    from gpuprep.sessions.drill import DrillSession

    h200 = bank_for_ceilings.hardware["h200"]
    ceilings = DrillSession(bank_for_ceilings).ceilings({"kind": "cuda", "name": h200.aliases[0]})
    assert ceilings.datasheet_tensor_flops == {
        "bfloat16": pytest.approx(989.5e12),
        "float16": pytest.approx(989.5e12),
        "float32": pytest.approx(494.5e12),  # TF32: the fastest an fp32 product may legally run
    }


@pytest.fixture
def bank_for_ceilings(isolated_gpuprep_home):
    from gpuprep.bank.loader import load_bank

    bank, _problems = load_bank()
    return bank


H200_HBM_BYTES = 4.8e12
LAYERNORM_OUT = 32768 * 4096 * 4  # 512 MiB of fp32


def timed(median_ms: float, bracket_min_ms: float) -> dict[str, float]:
    return {"median_ms": median_ms, "bracket_min_ms": bracket_min_ms}


def test_a_large_outputs_copy_after_the_timed_region_is_not_work_outside_the_stream():
    # Layernorm's top rung on the H200: 0.26 ms of kernel, then 0.45 ms of copying its 512 MB
    # output into the arena, inside the judge's bracket (2 ms of round trip) but not the events.
    assert not outside_the_stream(
        timed(0.26, 2.0 + 0.26 + 0.45 + 0.2), 2.0, LAYERNORM_OUT, H200_HBM_BYTES
    )


def test_work_beyond_the_kernel_and_the_outputs_copy_is_flagged():
    delivery = 2 * (2 * LAYERNORM_OUT / H200_HBM_BYTES) * 1e3
    limit = 2.0 + 2 * 0.26 + 0.2 + delivery
    assert not outside_the_stream(timed(0.26, limit - 0.01), 2.0, LAYERNORM_OUT, H200_HBM_BYTES)
    assert outside_the_stream(timed(0.26, limit + 0.01), 2.0, LAYERNORM_OUT, H200_HBM_BYTES)
    # A tiny output earns no allowance: a side stream's milliseconds show.
    assert outside_the_stream(timed(0.01, 2.0 + 1.0), 2.0, 4, H200_HBM_BYTES)
