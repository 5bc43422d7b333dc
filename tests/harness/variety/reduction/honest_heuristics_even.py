"""Sum reduction that drops the bounds mask when n is a multiple of the block, chosen by
@triton.heuristics (the tutorial trick; every full block then loads without predication).

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.heuristics({"EVEN_N": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN_N:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    sum_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
