"""v2_wide_blocks: 8192 elements per program, 16-byte loads, eight warps.

What changed from v1: the block grows from 1024 to 8192 elements and the program from 4 to 8
warps, so each thread loads 32 floats as eight 16-byte vectors, all issued before the adds.

Why it is faster: DRAM latency is hidden by bytes in flight per SM (Little's law: about
bandwidth x latency, tens of KB per SM on Hopper); eight independent 16-byte loads per thread
get there with fewer resident programs. Atomics drop another 8x, to 2^15.

What an interviewer wants to hear: "vectorise and give each thread more independent loads",
with the number: 4.8 TB/s x ~600 ns is about 3 MB in flight across 132 SMs, ~22 KB per SM.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """x_ptr: input; out_ptr: zeroed 0-d output; BLOCK: elements per program."""
    offsets = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0), sem="relaxed")


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    BLOCK = 8192
    block_sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, out, x.numel(), BLOCK=BLOCK, num_warps=8)
    return out
