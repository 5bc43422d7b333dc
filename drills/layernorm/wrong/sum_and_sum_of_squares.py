"""One pass with var = E[x^2] - E[x]^2 in float32: right for rows near zero, and catastrophic
for a row with mean 1000 and spread 1: E[x^2] is near 1e6, where float32 rounds in steps of
0.06, 6% of the variance it is subtracted down to (it can even come out negative).

Expected verdict: failed
Expected message: large_mean values
"""

import torch
import triton
import triton.language as tl


@triton.jit
def one_pass_kernel(x_ptr, weight_ptr, bias_ptr, y_ptr, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    col = tl.arange(0, BLOCK)
    mask = col < cols
    x = tl.load(x_ptr + row * cols + col, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / cols
    var = tl.sum(x * x, axis=0) / cols - mean * mean
    weight = tl.load(weight_ptr + col, mask=mask, other=0.0).to(tl.float32)
    bias = tl.load(bias_ptr + col, mask=mask, other=0.0).to(tl.float32)
    y = (x - mean) / tl.sqrt(var + eps) * weight + bias
    tl.store(y_ptr + row * cols + col, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps):
    rows, cols = x.shape
    y = torch.empty_like(x)
    one_pass_kernel[(rows,)](x, weight, bias, y, cols, eps, BLOCK=triton.next_power_of_2(cols))
    return y
