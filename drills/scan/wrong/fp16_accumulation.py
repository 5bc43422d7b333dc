"""Loads x as fp16 to halve the register footprint and scans in fp16: every input loses all but
11 bits of mantissa (about 5e-4 of its size) before a single addition, long sums stall, and
values past 65504 become inf.

Expected verdict: failed
Expected message: exceeds the tolerance
"""

import torch
import triton
import triton.language as tl


@triton.jit
def half_scan_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    carry = tl.zeros([], dtype=tl.float16)
    for start in range(0, n, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < n
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float16)
        tl.store(y_ptr + offsets, (tl.cumsum(x, axis=0) + carry).to(tl.float32), mask=mask)
        carry += tl.sum(x, axis=0)


def cumsum(x):
    y = torch.empty_like(x)
    half_scan_kernel[(1,)](x, y, x.numel(), BLOCK=1024)
    return y
