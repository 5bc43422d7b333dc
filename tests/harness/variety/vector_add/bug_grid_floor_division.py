"""The grid is n // BLOCK instead of cdiv(n, BLOCK): the partial last block never runs, so the
tail of z is whatever torch.empty left there. The kernel itself masks correctly.

Exposed when n is not a multiple of 256: n = 1 (no program at all), 1000, 4099, 65537.
Correct on n = 1024 or 65536.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def vector_add(x, y):
    z = torch.empty_like(x)
    n = x.numel()
    add_kernel[(n // 256,)](x, y, z, n, BLOCK=256)
    return z
