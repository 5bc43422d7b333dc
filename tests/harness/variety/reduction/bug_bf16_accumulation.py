"""Rounds the data to bfloat16 before summing and keeps each block's sum in bfloat16 ("half the
bytes"; the adds are float32 rounded back, as a GPU does for bf16): 8 bits of mantissa give errors
far above the 1e-5 tolerance on sum(|x|).

Exposed on short inputs above all (n = 1, 2, 777, 1024): each element's rounding error is up to
2^-9 of it. On very long inputs the random rounding errors partly cancel.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.bfloat16)
    s = tl.sum(x.to(tl.float32), axis=0).to(tl.bfloat16)
    tl.atomic_add(out_ptr, s.to(tl.float32))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    block_sum[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
