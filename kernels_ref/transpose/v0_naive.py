"""v0_naive: one output element per thread, in output order.

What it is: program p writes output elements [1024 p, 1024 p + 1024) of y (shape cols x rows),
reading x[i, j] for each y[j, i]. Consecutive threads write consecutive addresses (coalesced)
but read addresses `cols` floats apart.

Why it is slow: each warp's 32 reads touch 32 different 32-byte sectors, of which it uses 4
bytes each; unless a neighbouring warp asks for the rest of a sector while it is still in L1/L2,
8x the bytes cross the bus. On a large matrix much of that waste reaches DRAM.

What an interviewer wants to hear: coalescing in sectors (32 B) and lines (128 B), why one side
of a transpose is always strided in a one-pass scheme, and that the fix is to stage a tile on
chip so both global sides are row-wise.
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
    transpose_kernel[(triton.cdiv(rows * cols, BLOCK),)](x, y, rows, cols, BLOCK=BLOCK, num_warps=4)
    return y
