"""Grid-stride loop written as a while loop that never advances `start`: every program spins
forever (in the CPU interpreter as on a GPU). The run must end at the time limit and say so.

Expected verdict: timeout
Expected message: took over
"""

import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    while start < n:
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    sum_kernel[(4,)](x, out, x.numel(), BLOCK=1024)
    return out
