"""The judge's check reads every rank's slot and holds each element to the dtype's tolerance."""

from __future__ import annotations

import pytest
import torch

from gpuprep.collective.inputs import draw
from gpuprep.collective.judge import check_case

SEEDS = [11, 22, 33, 44]
TOLERANCE = {"float32": 2.0**-23, "bfloat16": 2.0**-8}


def _results(numel: int, dtype: str) -> torch.Tensor:
    """Every rank holding the sum as a correct rung would: added in the dtype, rank by rank."""
    total = draw(numel, dtype, SEEDS[0])
    for seed in SEEDS[1:]:
        total = total + draw(numel, dtype, seed)
    return total.to(torch.float64).repeat(len(SEEDS), 1)


def _case(numel: int, dtype: str = "float32") -> dict:
    return {"label": "test", "numel": numel, "dtype": dtype, "check": True, "timed": False}


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_a_sum_added_in_the_dtype_rank_by_rank_passes(dtype):
    outcome = check_case(_case(10007, dtype), SEEDS, _results(10007, dtype), TOLERANCE[dtype])
    assert outcome["ok"] and outcome["bad_ranks"] == []


def test_one_wrong_element_on_the_last_rank_fails_that_rank_alone():
    results = _results(1000, "float32")
    results[3, 999] += 1e-3
    outcome = check_case(_case(1000), SEEDS, results, TOLERANCE["float32"])
    assert outcome["bad_ranks"] == [3]
    assert "rank 3: 1 of 1000 elements wrong, the first at 999" in outcome["message"]


def test_a_nan_on_any_rank_fails():
    results = _results(64, "float32")
    results[1, 5] = float("nan")
    outcome = check_case(_case(64), SEEDS, results, TOLERANCE["float32"])
    assert outcome["bad_ranks"] == [1]


def test_a_bf16_result_that_missed_one_rank_is_out_of_tolerance():
    results = _results(4096, "bfloat16")
    results[0] -= draw(4096, "bfloat16", SEEDS[2]).to(torch.float64)
    outcome = check_case(_case(4096, "bfloat16"), SEEDS, results, TOLERANCE["bfloat16"])
    assert outcome["bad_ranks"] == [0]


def test_an_error_a_little_over_n_roundings_fails_and_just_under_passes():
    numel = 1
    scale = sum(abs(float(draw(numel, "float32", s)[0])) for s in SEEDS)
    allowed = TOLERANCE["float32"] * len(SEEDS) * scale
    for slack, ok in ((0.9, True), (1.1, False)):
        results = _results(numel, "float32")
        truth = sum(float(draw(numel, "float32", s).double()[0]) for s in SEEDS)
        results[:, 0] = truth + slack * allowed
        assert check_case(_case(numel), SEEDS, results, TOLERANCE["float32"])["ok"] is ok
