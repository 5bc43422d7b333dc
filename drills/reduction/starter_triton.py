"""Starter for the reduction drill (Triton): correct, slow, and yours to make fast.

Each program sums one block and adds it into the result with an atomic. The harness checks
the sum on odd lengths (against sum(|x|), since any order of additions is fine), then times
it on 1 GiB against torch.sum and a device copy. Ideas: more elements per program, fewer
atomics, a persistent grid, a second pass instead of atomics.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """x_ptr: input; out_ptr: a zeroed 0-d output; each program adds its block's sum."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    BLOCK = 1024
    block_sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, out, x.numel(), BLOCK=BLOCK)
    return out
