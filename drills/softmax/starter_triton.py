"""Starter for the softmax drill (Triton): correct for rows that fit in one block, and slow.

One program per row; the row is loaded whole, its maximum subtracted before exp (large rows
would overflow otherwise), and written once. The harness checks float32 and bfloat16, rows
with large magnitudes and rows with -inf entries. Ideas: num_warps for wide rows, several
rows per program for narrow ones, an online (one-loop) softmax for rows wider than registers.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    """x_ptr, y_ptr: (rows, cols) row-major; BLOCK >= cols, a power of two."""
    row = tl.program_id(0).to(tl.int64)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    x = tl.load(x_ptr + row * cols + offsets, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * cols + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
    return y
