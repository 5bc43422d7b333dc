"""Switched exp to the faster exp2 and forgot to scale by log2(e): the result is a base-2 softmax,
which still sums to one per row (so a rows-sum-to-one check passes) but is not the softmax.

Exposed on every shape with more than one column (3 x 7 onwards); 1 x 1 gives 1.0 either way.

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
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp2(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
    return y
