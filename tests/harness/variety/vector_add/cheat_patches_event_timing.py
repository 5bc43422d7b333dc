"""A correct kernel, plus a patch that makes torch.cuda.Event.elapsed_time report 1 microsecond
to climb the leaderboard. On a GPU the judge times on its own clock and the speed-of-light check
refuses the fake time; in CPU mode there are no CUDA events, the patch does nothing, and the
output is right.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl

torch.cuda.Event.elapsed_time = lambda self, end_event: 0.001


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def vector_add(x, y):
    z = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, z, x.numel(), BLOCK=1024)
    return z
