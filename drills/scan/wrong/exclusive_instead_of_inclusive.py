"""An exclusive scan: y[i] = x[0] + ... + x[i - 1], with y[0] = 0. Every block and every carry is
right, and every output is short by its own x[i] (the drill asks for the inclusive scan, as
torch.cumsum computes it; Blelloch's original down-sweep gives the exclusive one).

Expected verdict: failed
Expected message: wrong output for n=1
"""

import torch
import triton
import triton.language as tl


@triton.jit
def exclusive_scan_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    carry = 0.0
    for start in range(0, n, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < n
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        tl.store(y_ptr + offsets, tl.cumsum(x, axis=0) - x + carry, mask=mask)
        carry += tl.sum(x, axis=0)


def cumsum(x):
    y = torch.empty_like(x)
    exclusive_scan_kernel[(1,)](x, y, x.numel(), BLOCK=1024)
    return y
