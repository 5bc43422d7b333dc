"""Masked lanes load other=0.0 instead of -inf: the padding lanes count exp(0 - max) in the
denominator, so every value comes out too small whenever the block is wider than the row.

Exposed when cols is not a power of two (3 x 7, 5 x 300, 2 x 2500, 2 x 20001); cols = 1, 2048,
16384 pass.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=0.0).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
    return y
