"""v1_block_tree: reduce each block on chip, then one atomic per block.

What changed from v0: `tl.sum` over the program's 1024 elements. Triton lowers it the way a
CUDA programmer would: each thread adds its own elements, a warp combines lanes with
shuffles (`shfl.sync.bfly`), and the warps meet in shared memory. Only the block's total goes
to global memory.

Why it is faster: 1024x fewer atomics on the hot address (2^18 instead of 2^28), so the
kernel is now limited by how fast it can stream the input rather than by serialisation.

What an interviewer wants to hear: the reduction tree (log2 steps, a barrier per shared-memory
level), why warp shuffles beat shared memory for the last 32 lanes (no barrier, no bank
traffic), and that 2^18 atomics still cost something at the end of the ladder.
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
    BLOCK = 1024
    block_sum_kernel[(triton.cdiv(x.numel(), BLOCK),)](x, out, x.numel(), BLOCK=BLOCK, num_warps=4)
    return out
