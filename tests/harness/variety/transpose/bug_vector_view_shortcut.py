"""A "fast path" for vectors: a 1 x n or n x 1 matrix has the same bytes as its transpose, so it
returns x.view(cols, rows). Right values, but the caller gets its own input's memory back.

Exposed on every shape with a dimension of 1 (1 x 1, 1 x 37, 1 x 1000, 1000 x 1); the kernel path
for the others is correct.

Expected verdict: failed
Expected message: memory of input
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
    rows, cols = x.shape
    if rows == 1 or cols == 1:
        return x.view(cols, rows)
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    transpose_kernel[(triton.cdiv(rows, 32), triton.cdiv(cols, 32))](x, y, rows, cols, T=32)
    return y
