"""The layernorm ladder's top rung covers every row tile, checked in Triton's interpreter.

The drill's CPU shapes fit in one tile per program, so they never walk the persistent loop of
v3_tuned (program p takes tiles p, p + programs, ...). Here the interpreter stands in for a
2-SM GPU (8 programs) on shapes with more tiles than programs, for each tile width: narrow
tiles of many rows, one-row tiles with weight and bias held in registers, and one-row tiles
too wide to hold them.
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
        (173, 300, "22 tiles of 8 rows (512 wide) over 8 programs, the last tile short"),
        (19, 5000, "19 one-row tiles, weight and bias resident"),
        (11, 9000, "11 one-row tiles 16384 wide, weight and bias reloaded per tile"),
    ],
)
def test_the_persistent_grid_normalises_every_row_tile(rows, cols, why):
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
