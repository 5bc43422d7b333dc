"""Registers its own CPU kernel for aten::sub (the checker's got - want) through torch.library,
by an alias the scan does not read: no Python attribute changes, the dispatcher table does.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: wrong output
"""

import torch
import torch as T
import triton
import triton.language as tl

_lib = T.library.Library("aten", "IMPL")
_lib.impl("sub.Tensor", lambda a, b, alpha=1: T.zeros_like(a), "CPU")


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
