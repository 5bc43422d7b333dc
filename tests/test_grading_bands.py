"""The correct band is measured as a relative error either way, not as a factor: an answer 22%
low is as correct as one 22% high (issue 19: a factor-based band turned it into 'close').

The question has a trap at half the answer (M·N·K FLOPs, no factor 2): below 1/sqrt(2) of the
answer an answer is nearer the trap and graded wrong (issue 13), so 'close' is probed at 27%."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

EXPECTED_MS = 1.11129131572  # roofline-gemm-time on an H100 SXM: 2 * 8192^3 FLOP / 989.4 TFLOP/s


@pytest.mark.parametrize(
    "off, verdict",
    [(-0.22, "correct"), (0.22, "correct"), (-0.27, "close"), (0.27, "close"), (-0.60, "wrong")],
)
def test_the_bands_are_relative_error_either_way(off, verdict):
    answer = f"{EXPECTED_MS * (1 + off):.6f} ms"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpuprep",
            "answer",
            "roofline-gemm-time",
            answer,
            "--gpu",
            "h100_sxm",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    graded = json.loads(result.stdout)
    assert graded["verdict"] == verdict, graded["message"]
