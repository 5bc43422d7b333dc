"""Computes the right answer, then calls os._exit(0) (a leftover from a script that stopped after
the first call): the sandbox process is gone before it can hand the output back.

Expected verdict: crashed
Expected message: sandbox
"""

import os

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
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, z, x.numel(), BLOCK=1024)
    print("done, exiting")
    os._exit(0)
