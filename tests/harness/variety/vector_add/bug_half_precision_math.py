"""Adds in float16 "to halve the register traffic" and widens the result back to float32: about
three decimal digits survive, and |x| near 1e6 (the wide_uniform inputs) overflows fp16 to inf.

Exposed on every shape (normal inputs miss the 1e-6 tolerance; wide_uniform gives inf).

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
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float16)
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float16)
    tl.store(z_ptr + offsets, (x + y).to(tl.float32), mask=mask)


def vector_add(x, y):
    z = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, z, x.numel(), BLOCK=1024)
    return z
