"""v0_naive: one element per thread, 128-element blocks.

What it is: the textbook kernel. Program i adds elements [128 i, 128 i + 128); the mask
guards the tail. Loads are already coalesced (consecutive threads, consecutive addresses).

Why it is slow: with 4 warps per 128 elements each thread holds one 4-byte element, so a
thread has one load of each input in flight; 2^28 elements make 2 million tiny programs and
the scheduler's per-block cost shows. On an H200 this lands well under the copy ceiling.

What an interviewer wants to hear: vector add is pure bandwidth (1 FLOP per 12 bytes, far left
of any ridge point), so the only question is how close to the copy bandwidth it gets, and the
answer is bytes in flight per SM (Little's law), not arithmetic.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    """x_ptr, y_ptr: inputs; z_ptr: output; n: length; BLOCK: elements per program."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(z_ptr + offsets, x + y, mask=mask)


def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    z = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, 128),)](x, y, z, n, BLOCK=128, num_warps=4)
    return z
