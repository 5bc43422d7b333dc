"""Caps the grid at 64 programs of 1024 elements ("enough to fill the GPU") but each program sums
only its one block: there is no loop, so everything past element 65536 is dropped.

Exposed only when n > 65536 (n = 65537, 70000); every shape up to 2^16 is summed right.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl

BLOCK = 1024
MAX_PROGRAMS = 64


@triton.jit
def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    programs = min(triton.cdiv(x.numel(), BLOCK), MAX_PROGRAMS)
    block_sum[(programs,)](x, out, x.numel(), BLOCK=BLOCK)
    return out
