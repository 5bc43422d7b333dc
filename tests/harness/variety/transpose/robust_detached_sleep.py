"""A correct transpose that, on its first call, starts `sleep 600` in a new session (detached from
the sandbox's process group, as a background job would be). The verdict is the kernel's, and the
sleep must not outlive the run.

Expected verdict: passed
"""

import subprocess

import torch
import triton
import triton.language as tl

_background = []


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, T: tl.constexpr):
    r = tl.program_id(0) * T + tl.arange(0, T)
    c = tl.program_id(1) * T + tl.arange(0, T)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[None, :] * rows + r[:, None], tile, mask=mask)


def transpose(x):
    if not _background:
        _background.append(
            subprocess.Popen(
                ["sleep", "600"],
                start_new_session=True,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    transpose_kernel[(triton.cdiv(rows, 32), triton.cdiv(cols, 32))](x, y, rows, cols, T=32)
    return y
