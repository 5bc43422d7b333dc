"""A complete kernel and wrapper, but the wrapper is named transpose_2d, not transpose: the entry
the drill calls is not defined.

Expected verdict: failed
Expected message: does not define
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, T: tl.constexpr):
    r = tl.program_id(0) * T + tl.arange(0, T)
    c = tl.program_id(1) * T + tl.arange(0, T)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[None, :] * rows + r[:, None], tile, mask=mask)


def transpose_2d(x):
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    transpose_kernel[(triton.cdiv(rows, 32), triton.cdiv(cols, 32))](x, y, rows, cols, T=32)
    return y
