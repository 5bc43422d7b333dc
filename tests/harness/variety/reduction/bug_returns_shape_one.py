"""Right sum, wrong container: torch.zeros(1) is a 1-element vector, not the 0-d tensor the
contract asks for.

Exposed on every shape.

Expected verdict: failed
Expected message: output shape
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


def reduce_sum(x):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    block_sum[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
    return out
