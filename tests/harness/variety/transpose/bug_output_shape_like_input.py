"""Allocates the output with torch.empty_like(x) and writes the transposed elements into it in
order: the bytes are right, but the tensor has x's shape (rows, cols), not (cols, rows).

Exposed on every non-square shape (1 x 37, 5 x 3, 33 x 70 ...); 1 x 1, 32 x 32 and 64 x 64 pass.

Expected verdict: failed
Expected message: output shape
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, BLOCK: tl.constexpr):
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = k < rows * cols
    tl.store(y_ptr + k, tl.load(x_ptr + (k % rows) * cols + k // rows, mask=mask), mask=mask)


def transpose(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    transpose_kernel[(triton.cdiv(rows * cols, 1024),)](x, y, rows, cols, BLOCK=1024)
    return y
