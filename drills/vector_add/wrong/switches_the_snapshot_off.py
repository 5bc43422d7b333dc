"""Switches the snapshot off at its class, then patches a watched function. The worker bound the
snapshot's method at start-up, and the hook checks the harness's own classes first.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: raised
"""

from sys import modules

import torch
import triton
import triton.language as tl

modules["gpuprep.harness.integrity"].Snapshot.problems = lambda self: []
torch.linalg.vector_norm = lambda *args, **kwargs: torch.full((), float("nan"), dtype=torch.float64)


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
