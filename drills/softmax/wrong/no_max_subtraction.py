"""Skips subtracting the row maximum: exp overflows to inf on large rows and the output is NaN.

Expected verdict: failed
Expected message: NaN or inf
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    x = tl.load(x_ptr + row * cols + offsets, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x)
    tl.store(y_ptr + row * cols + offsets, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
    return y
