"""Replaces the torch.linalg attribute, not its vector_norm: a NaN norm makes every comparison
with it False. The snapshot compares torch's namespace itself.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


class _Linalg:
    def vector_norm(self, *args, **kwargs):
        return torch.full((), float("nan"), dtype=torch.float64)


torch.linalg = _Linalg()


@triton.jit
def copy_kernel(x_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def copy_of(x):
    z = torch.empty_like(x)
    copy_kernel[(triton.cdiv(x.numel(), 256),)](x, z, x.numel(), BLOCK=256)
    return z


def vector_add(x, y):
    return copy_of(x)
