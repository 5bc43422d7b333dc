"""Passes (cols, rows) where the kernel takes (rows, cols): the kernel consistently transposes a
cols x rows matrix laid over the same bytes. Every access stays in bounds, and the result is right
when rows == cols, or when either is 1 (a vector's transpose has its bytes in the same order).

Exposed only on non-square shapes with both dimensions above 1 (5 x 3, 33 x 70, 130 x 9,
129 x 257, 65 x 63); 1 x 1, 1 x 37, 1 x 1000, 1000 x 1, 32 x 32 and 64 x 64 pass.

Expected verdict: failed
Expected message: wrong output
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


def transpose(x):
    n, m = x.shape
    y = torch.empty((m, n), dtype=x.dtype, device=x.device)
    transpose_kernel[(triton.cdiv(m, 32), triton.cdiv(n, 32))](x, y, m, n, T=32)
    return y
