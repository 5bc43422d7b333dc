"""The layernorm ladder's top rung is right for every launch shape its table picks, checked in
Triton's interpreter.

v3_tuned chooses rows per program and warps per (width, dtype); the drill's CPU shapes reach only
some of those entries. Here each width class gets a row count that is not a multiple of its rows
per program, so the last program's row mask is exercised too.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import KERNELS_DIR

#: Run in a child process: TRITON_INTERPRET must be set before triton is first imported.
TILES_CHECK = """
import sys
from pathlib import Path

import torch
from gpuprep.harness.checking import check_output
from gpuprep.harness.loading import load_entry
from gpuprep.harness.references import REFERENCES

layernorm = load_entry(Path(sys.argv[1]), "layernorm")
rows, cols = int(sys.argv[2]), int(sys.argv[3])
generator = torch.Generator().manual_seed(16)
x = torch.randn(rows, cols, generator=generator) + 5.0
weight = 1.0 + 0.1 * torch.randn(cols, generator=generator)
bias = 0.1 * torch.randn(cols, generator=generator)
expected = REFERENCES["layernorm"](x, weight, bias, 1e-5)
result = check_output(layernorm(x, weight, bias, 1e-5), expected, torch.float32, torch.device("cpu"), 2e-4)
print(result["problem"] or "ok")
"""


@pytest.mark.parametrize(
    ("rows", "cols", "why"),
    [
        (7, 300, "512-wide rows, 2 a program: the last program holds one row"),
        (9, 700, "1024-wide rows, 4 a program: the last program holds one row"),
        (5, 1500, "2048-wide rows, 4 a program: the last program holds one row"),
        (3, 9000, "16384-wide rows, one a program"),
    ],
)
def test_every_tuned_launch_shape_normalises_every_row(rows, cols, why):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            TILES_CHECK,
            str(KERNELS_DIR / "layernorm" / "v3_tuned.py"),
            str(rows),
            str(cols),
        ],
        env={**os.environ, "TRITON_INTERPRET": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "ok", f"{why}: {done.stdout}"
