"""Scans every 1024-element block on its own and never adds the totals of the blocks before it:
right while n fits in one block, wrong from the second block on.

Expected verdict: failed
Expected message: wrong output for n=4097
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_scan_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(y_ptr + offsets, tl.cumsum(x, axis=0), mask=mask)


def cumsum(x):
    y = torch.empty_like(x)
    block_scan_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y
