"""Masks the loads (with other=0.0) but not the store: the last program writes a whole block, so
up to BLOCK - 1 zeros land past the end of z.

Exposed when n is not a multiple of 1024 (n = 1, 1000, 4099, 65537, 70000).

Expected verdict: failed
Expected message: past the end
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_bounds = offsets < n
    x = tl.load(x_ptr + offsets, mask=in_bounds, other=0.0)
    y = tl.load(y_ptr + offsets, mask=in_bounds, other=0.0)
    tl.store(z_ptr + offsets, x + y)


def vector_add(x, y):
    z = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, z, x.numel(), BLOCK=1024)
    return z
