"""Starter for the transpose drill (Triton): correct, and slow on purpose.

Each program writes a block of consecutive output elements, so the writes are coalesced and
the reads jump a whole row apart. The harness checks odd shapes, then times 8192 x 8192 fp32
against x.t().contiguous() and a device copy. Ideas: 2-D tiles, tile size, num_warps.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, BLOCK: tl.constexpr):
    """y is (cols, rows); program p writes y's flat elements [p * BLOCK, (p + 1) * BLOCK)."""
    flat = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = flat < rows * cols
    j = flat // rows  # row of y = column of x
    i = flat % rows  # column of y = row of x
    tl.store(y_ptr + flat, tl.load(x_ptr + i * cols + j, mask=mask), mask=mask)


def transpose(x: torch.Tensor) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    BLOCK = 1024
    transpose_kernel[(triton.cdiv(rows * cols, BLOCK),)](x, y, rows, cols, BLOCK=BLOCK)
    return y
