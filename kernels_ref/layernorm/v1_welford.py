"""v1_welford: one kernel per row, the mean and variance in one pass (Welford), then the
normalisation loop: two reads of x instead of three, one launch instead of three.

What changed from v0: each of the 1024 lanes keeps a running (count, mean, M2) and updates it
with Welford's recurrence for every chunk: delta = x - mean; mean += delta / count;
M2 += delta * (x - mean). At the end the lanes are merged: the row mean is the count-weighted
mean of the lane means, and M2 = sum(M2_lane + count_lane * (mean_lane - mean)^2) (Chan et al.'s
combination, done here as two plain reductions). The same program then reads the row again to
write y: for a 16 KB row that second read is mostly an L2 hit.

Why it is faster: one launch and two reads of x (3 * rows * cols words, from 4), and no float
per row written and re-read between kernels.

Why not sum and sum of squares: var = E[x^2] - E[x]^2 is also one pass and cheaper (no divide),
but in fp32 it cancels catastrophically: a row with mean 1000 and spread 1 has E[x^2] near 1e6,
whose rounding (about 0.06) is 6% of the variance, and a row near a constant can come out
negative (NaN after the square root). Welford carries deviations from the running mean, so its
error follows the spread, not the mean. (The drill's large_mean rows catch the shortcut.)

What an interviewer wants to hear: the cancellation argument with numbers, Welford's update
and the parallel merge of partial statistics (how a warp or a block combines them), that the
divide per element is free in a memory-bound kernel, and that the remaining cost is the second
read of x, which keeping the row in registers (v2) removes.
"""

import torch
import triton
import triton.language as tl

CHUNK = 1024


@triton.jit
def welford_layernorm_kernel(x_ptr, weight_ptr, bias_ptr, y_ptr, cols, eps, CHUNK: tl.constexpr):
    """x_ptr, y_ptr: (rows, cols) row-major, same dtype; weight_ptr, bias_ptr: (cols,).
    One program per row: a Welford loop for the statistics, a second loop to normalise."""
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    count = tl.zeros([CHUNK], tl.float32)
    mean = tl.zeros([CHUNK], tl.float32)
    m2 = tl.zeros([CHUNK], tl.float32)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=0.0).to(tl.float32)
        count = tl.where(mask, count + 1.0, count)
        delta = tl.where(mask, x - mean, 0.0)
        mean += delta / tl.maximum(count, 1.0)
        m2 += delta * tl.where(mask, x - mean, 0.0)
    row_mean = tl.sum(count * mean, axis=0) / cols
    spread = mean - row_mean
    row_var = tl.sum(m2 + count * spread * spread, axis=0) / cols
    rstd = 1.0 / tl.sqrt(row_var + eps)
    for start in range(0, cols, CHUNK):
        offsets = start + tl.arange(0, CHUNK)
        mask = offsets < cols
        x = tl.load(x_row + offsets, mask=mask, other=0.0).to(tl.float32)
        weight = tl.load(weight_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        bias = tl.load(bias_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        y = (x - row_mean) * rstd * weight + bias
        tl.store(y_row + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float
) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty_like(x)
    welford_layernorm_kernel[(rows,)](x, weight, bias, y, cols, eps, CHUNK=CHUNK, num_warps=8)
    return y
