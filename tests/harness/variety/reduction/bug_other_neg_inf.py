"""Load copied from a softmax kernel: the masked lanes read other=-inf, which a max ignores and a
sum does not. Any partial last block makes the total -inf.

Exposed whenever n is not a multiple of 1024 (n = 1, 777, 10007, 70000); n = 1024 or 65536 pass.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    block_sum[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
