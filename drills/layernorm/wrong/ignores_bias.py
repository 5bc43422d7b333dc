"""Scales by weight and forgets to add bias: a one-element row (variance 0, so y is the bias
alone) is already wrong.

Expected verdict: failed
Expected message: wrong output for rows=1, cols=1
"""

import torch
import triton
import triton.language as tl


@triton.jit
def row_kernel(x_ptr, weight_ptr, bias_ptr, y_ptr, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    col = tl.arange(0, BLOCK)
    mask = col < cols
    x = tl.load(x_ptr + row * cols + col, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / cols
    centred = tl.where(mask, x - mean, 0.0)
    var = tl.sum(centred * centred, axis=0) / cols
    weight = tl.load(weight_ptr + col, mask=mask, other=0.0).to(tl.float32)
    bias = tl.load(bias_ptr + col, mask=mask, other=0.0).to(tl.float32)
    y = centred / tl.sqrt(var + eps) * weight
    tl.store(y_ptr + row * cols + col, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps):
    rows, cols = x.shape
    y = torch.empty_like(x)
    row_kernel[(rows,)](x, weight, bias, y, cols, eps, BLOCK=triton.next_power_of_2(cols))
    return y
