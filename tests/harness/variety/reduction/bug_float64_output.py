"""Accumulates into a float64 result "for accuracy": the value is fine, the dtype is not the
float32 the contract asks for.

Exposed on every shape.

Expected verdict: failed
Expected message: output dtype
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float64)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float64, device=x.device)
    block_sum[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
