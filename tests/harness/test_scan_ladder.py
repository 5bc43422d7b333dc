"""The scan ladder's single pass does what its docstring says, checked without a GPU.

Triton's interpreter runs programs one after another, so a whole-array run never finds a
predecessor that has published only its total: the look-back always stops one tile back. Here
one program is launched on a workspace staged as a GPU would leave it mid-flight (tiles that
published only their AGGREGATE, an INCLUSIVE prefix further back, junk before it), which drives
the multi-window walk. The rung is also compiled for an H200 (sm_90) to show the instructions
the protocol relies on: atomics for tickets and states, volatile loads for the look-back.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import KERNELS_DIR

RUNG = KERNELS_DIR / "scan" / "v3_decoupled_lookback.py"

#: Run in a child process: TRITON_INTERPRET must be set before triton is first imported.
MID_FLIGHT_CHECK = """
import sys
from pathlib import Path

import torch
from gpuprep.harness.loading import load_entry

module = load_entry(Path(sys.argv[1]), "cumsum").__globals__
block, window = module["TILE"][0], module["WINDOW"]
inclusive_at, ticket = (sum(int(term.replace("W", str(window))) for term in arg.split("+")) for arg in sys.argv[2:4])
x = torch.randn((ticket + 1) * block, generator=torch.Generator().manual_seed(16))
totals = x.double().reshape(ticket + 1, block).sum(dim=1)
prefix = totals.cumsum(dim=0)

def state(flag, value):
    bits = int(torch.tensor([value], dtype=torch.float32).view(torch.int32)) & 0xFFFFFFFF
    return (flag << 32) | bits

workspace = torch.zeros(ticket + 2, dtype=torch.int64)
for tile in range(ticket):
    if tile < inclusive_at:
        workspace[tile] = state(module["AGGREGATE"], 1.0e6)  # junk a correct walk never reaches
    elif tile == inclusive_at:
        workspace[tile] = state(module["INCLUSIVE"], float(prefix[tile]))
    else:
        workspace[tile] = state(module["AGGREGATE"], float(totals[tile]))
workspace[ticket + 1] = ticket  # the counter: this program draws the last tile
y = torch.full_like(x, float("nan"))
module["lookback_scan_kernel"][(1,)](
    x, y, workspace, workspace[ticket + 1:], x.numel(),
    BLOCK=block, WINDOW=window, AGGREGATE=module["AGGREGATE"], INCLUSIVE=module["INCLUSIVE"],
)
mine = slice(ticket * block, (ticket + 1) * block)
expected = x.double().cumsum(dim=0)[mine]
error = float(((y[mine].double() - expected).abs() / x.double().abs().cumsum(dim=0)[mine]).max())
published = workspace[ticket]
print(f"{error:.3g} {int(published) >> 32}")
"""


@pytest.mark.parametrize(
    ("inclusive_at", "ticket", "why"),
    [
        ("0", "W+40", "only tile 0 is inclusive: two windows of aggregates"),
        ("20", "W+40", "an inclusive prefix inside the second window: stop there"),
        ("W+39", "W+40", "the predecessor is done: one step"),
        ("7", "8", "the first window reaches before tile 0 (masked entries)"),
    ],
)
def test_the_lookback_adds_aggregates_back_to_the_newest_inclusive_prefix(
    inclusive_at, ticket, why
):
    done = subprocess.run(
        [sys.executable, "-c", MID_FLIGHT_CHECK, str(RUNG), inclusive_at, ticket],
        env={**os.environ, "TRITON_INTERPRET": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    error, flag = done.stdout.split()
    assert float(error) < 1e-6, f"{why}: error {error} against the running |x| sum"
    assert flag == "2", f"{why}: the tile must publish an INCLUSIVE prefix, got flag {flag}"


#: Run in a child process with TRITON_INTERPRET unset: in this one, an interpreted kernel run by
#: an earlier test leaves Triton's language patched, and the compile then fails (CI, 2026-12-01).
HOPPER_COMPILE = """
import sys
from pathlib import Path

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from gpuprep.harness.loading import load_entry

module = load_entry(Path(sys.argv[1]), "cumsum").__globals__
constants = {name: module[name] for name in ("WINDOW", "AGGREGATE", "INCLUSIVE")}
constants["BLOCK"] = module["TILE"][0]
signature = {
    "x_ptr": "*fp32",
    "y_ptr": "*fp32",
    "status_ptr": "*i64",
    "ticket_ptr": "*i64",
    "n": "i32",
    **{name: "constexpr" for name in constants},
}
source = ASTSource(fn=module["lookback_scan_kernel"], signature=signature, constexprs=constants, attrs={})
compiled = triton.compile(
    source, target=GPUTarget("cuda", 90, 32), options={"num_warps": module["TILE"][1]}
)
sys.stdout.write(compiled.asm["ptx"])
"""


def test_the_single_pass_compiles_for_hopper_to_atomics_and_volatile_loads():
    pytest.importorskip("triton.backends.nvidia", reason="needs Triton's NVIDIA backend")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    done = subprocess.run(
        [sys.executable, "-c", HOPPER_COMPILE, str(RUNG)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    ptx = done.stdout
    assert "atom.global.acq_rel.gpu.add.u64" in ptx or "atom.global.gpu.acq_rel.add.u64" in ptx, (
        "the ticket is one atomic add"
    )
    assert "exch.b64" in ptx, "a state is published by one 64-bit exchange"
    assert "ld.volatile.global" in ptx, "the look-back reads states past L1"
