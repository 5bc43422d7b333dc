"""Divides the squared deviations by cols - 1 (the unbiased sample variance, torch.var's
default) where layer norm uses cols: off by sqrt(cols / (cols - 1)), 8% at 7 columns, and a
one-column row divides 0 by 0.

Expected verdict: failed
Expected message: NaN or inf
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
    var = tl.sum(centred * centred, axis=0) / (cols - 1)
    weight = tl.load(weight_ptr + col, mask=mask, other=0.0).to(tl.float32)
    bias = tl.load(bias_ptr + col, mask=mask, other=0.0).to(tl.float32)
    y = centred / tl.sqrt(var + eps) * weight + bias
    tl.store(y_ptr + row * cols + col, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps):
    rows, cols = x.shape
    y = torch.empty_like(x)
    row_kernel[(rows,)](x, weight, bias, y, cols, eps, BLOCK=triton.next_power_of_2(cols))
    return y
