"""A mask that stops at the last whole block: the tail past it is never written.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < (n // BLOCK) * BLOCK
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(z_ptr + offsets, x + y, mask=mask)


def vector_add(x, y):
    z = torch.full_like(x, 0.0)
    n = x.numel()
    add_kernel[(triton.cdiv(n, 256),)](x, y, z, n, BLOCK=256)
    return z
