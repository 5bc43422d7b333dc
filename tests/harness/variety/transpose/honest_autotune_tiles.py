"""Tiled transpose whose tile shape is picked by @triton.autotune over four configs, keyed on the
shape. The kernel is a pure function of x, so the tuning runs leave nothing behind.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"TR": 32, "TC": 32}, num_warps=4),
        triton.Config({"TR": 64, "TC": 64}, num_warps=8),
        triton.Config({"TR": 32, "TC": 128}, num_warps=4),
        triton.Config({"TR": 128, "TC": 32}, num_warps=4),
    ],
    key=["rows", "cols"],
)
@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, TR: tl.constexpr, TC: tl.constexpr):
    r = tl.program_id(0) * TR + tl.arange(0, TR)
    c = tl.program_id(1) * TC + tl.arange(0, TC)
    m = (r[:, None] < rows) & (c[None, :] < cols)
    t = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=m)
    tl.store(y_ptr + c[:, None] * rows + r[None, :], tl.trans(t), mask=tl.trans(m))


def transpose(x):
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    grid = lambda meta: (triton.cdiv(rows, meta["TR"]), triton.cdiv(cols, meta["TC"]))  # noqa: E731
    transpose_kernel[grid](x, y, rows, cols)
    return y
