"""Starter for the layernorm drill (Triton): correct, one program per row, three loops over it.

Each program walks its row three times in chunks of 256: the mean, the variance around the mean
(subtracting first: E[x^2] - E[x]^2 cancels in float32 when the mean is large), then the
normalisation. Statistics are float32 for float32 and bfloat16 inputs. The harness checks rows
with a mean of 1000, spreads below sqrt(eps) and constant rows. Ideas: Welford's one-pass
statistics, the whole row in registers when it fits (one read), several narrow rows per
program, weight and bias loaded once per program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, weight_ptr, bias_ptr, y_ptr, cols, eps, CHUNK: tl.constexpr):
    """x_ptr, y_ptr: (rows, cols) row-major; weight_ptr, bias_ptr: (cols,). One program per row."""
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    total = tl.zeros([CHUNK], tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        total += tl.load(x_row + offsets, mask=offsets < cols, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / cols
    squares = tl.zeros([CHUNK], tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=0.0).to(tl.float32)
        centred = tl.where(mask, x - mean, 0.0)
        squares += centred * centred
    rstd = 1.0 / tl.sqrt(tl.sum(squares, axis=0) / cols + eps)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=0.0).to(tl.float32)
        weight = tl.load(weight_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        bias = tl.load(bias_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * weight + bias
        tl.store(y_ptr + row * cols + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float
) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    layernorm_kernel[(rows,)](x, weight, bias, y, cols, eps, CHUNK=256)
    return y
