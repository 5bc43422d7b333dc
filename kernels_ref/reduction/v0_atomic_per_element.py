"""v0_atomic_per_element: every element is an atomic add into the one output word.

What it is: the first kernel most people write. Each program loads 1024 elements and issues
one `atomicAdd(out, x[i])` per element (Triton's atomic_add on a vector of identical pointers).

Why it is slow: all 2^28 atomics hit the same address, so they serialise in the L2 slice that
owns it, at roughly one per clock; the memory system idles while they queue. The result is
also order-dependent (not bitwise reproducible run to run).

What an interviewer wants to hear: that contention, not bandwidth, is the limit; that the fix
is to reduce locally first (registers, warp, block) and touch global memory once per block,
or once per program, or not at all (a second pass).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def atomic_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """x_ptr: input; out_ptr: zeroed 0-d output; BLOCK: elements per program."""
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    # One atomic per element: a vector of pointers that all point at the output word.
    tl.atomic_add(out_ptr + tl.zeros([BLOCK], dtype=tl.int32), x, mask=mask, sem="relaxed")


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    BLOCK = 1024
    atomic_sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, out, x.numel(), BLOCK=BLOCK, num_warps=4)
    return out
