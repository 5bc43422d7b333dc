"""Copies x into a fresh buffer and returns buffer.t(): new memory and the right values, but a
strided view rather than the contiguous (cols, rows) tensor the contract asks for. Compared after
.contiguous() it would pass; the harness compares the tensor it was given.

Expected verdict: failed
Expected message: not contiguous
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def transpose(x):
    y = torch.empty_like(x)
    copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y.t()
