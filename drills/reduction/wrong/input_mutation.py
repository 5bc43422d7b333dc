"""Uses the input as scratch space for an in-place tree: the right sum, and a wrecked input.

Expected verdict: failed
Expected message: modified
"""

import torch
import triton
import triton.language as tl


@triton.jit
def fold_kernel(x_ptr, n, half, BLOCK: tl.constexpr):
    """x[i] += x[i + half] for i < n - half: one level of an in-place tree."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n - half
    a = tl.load(x_ptr + offsets, mask=mask)
    b = tl.load(x_ptr + offsets + half, mask=mask)
    tl.store(x_ptr + offsets, a + b, mask=mask)


def reduce_sum(x):
    n = x.numel()
    while n > 1:
        half = (n + 1) // 2
        fold_kernel[(triton.cdiv(n - half, 256) or 1,)](x, n, half, BLOCK=256)
        n = half
    out = torch.empty((), dtype=x.dtype, device=x.device)
    out.fill_(x[0].item())
    return out
