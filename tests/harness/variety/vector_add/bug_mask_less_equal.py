"""Mask written `offsets <= n`: the last block reads x[n], y[n] and writes z[n], one element past
the end of every buffer. The values inside [0, n) are all right.

Exposed when n is not a multiple of BLOCK (n = 1, 1000, 4099); n = 1024 or 65536 launch no
program that reaches index n.

Expected verdict: failed
Expected message: past the end
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets <= n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(z_ptr + offsets, x + y, mask=mask)


def vector_add(x, y):
    z = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, 256),)](x, y, z, n, BLOCK=256)
    return z
