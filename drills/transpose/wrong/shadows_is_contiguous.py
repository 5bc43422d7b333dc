"""No transpose: a straight copy of x handed back as its transposed view, with an instance
attribute that makes is_contiguous() say True.

Expected verdict: failed
Expected message: carries Python attributes
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def transpose(x):
    z = torch.empty_like(x)
    copy_kernel[(triton.cdiv(x.numel(), 256),)](x, z, x.numel(), BLOCK=256)
    out = z.t()
    out.is_contiguous = lambda *args, **kwargs: True
    return out
