"""Subtracts the row's first element instead of its maximum ("any constant works, softmax is shift
invariant"). True in exact arithmetic; in float32 exp overflows as soon as some x[c] - x[0] > 88,
and a row that starts with -inf gives inf - inf.

Exposed by rows with a value range over ~90 (the spread rows) and rows whose first entry is -inf;
normal rows and the row-shifted large rows (std 4) pass.

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
    pivot = tl.load(x_ptr + row * cols).to(tl.float32)
    e = tl.exp(x - pivot)
    tl.store(y_ptr + row * cols + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
    return y
