"""Swaps the tile's row and column strides on the store: right for square tiles of a square
matrix, wrong for every rectangular shape.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, TILE: tl.constexpr):
    r = tl.program_id(0) * TILE + tl.arange(0, TILE)
    c = tl.program_id(1) * TILE + tl.arange(0, TILE)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[:, None] * cols + r[None, :], tl.trans(tile), mask=tl.trans(mask))


def transpose(x):
    rows, cols = x.shape
    # Room for the stray writes, so that only the answer is wrong (not the process's heap).
    y = torch.zeros(max(rows, cols) ** 2 + 64, dtype=x.dtype, device=x.device)[: rows * cols].view(cols, rows)
    transpose_kernel[(triton.cdiv(rows, 16), triton.cdiv(cols, 16))](x, y, rows, cols, TILE=16)
    return y
