"""v1_wide_blocks: 4096-element blocks, 8 warps, 16-byte accesses per thread.

What changed from v0: each program covers 4096 elements with 256 threads, so every thread
loads 16 elements of each input as four 16-byte vectors, all issued before the first use.
Offsets are 64-bit so tensors past 2^31 elements stay correct.

Why it is faster: more bytes in flight per thread hides DRAM latency with fewer resident
programs, and 16x fewer programs cut the launch and scheduling overhead. Expect close to the
device-copy bandwidth.

Measured on an H200, 2^28 fp32: 0.794 ms, 1.60x v0 and 95% of a device copy, but 0.93x
torch.add (0.736 ms, 104% of a copy; benchmarks/results/judge-2026-12-01-h200/bench.log, and
0.91x in drills-2026-11-30-h200-verified.md). An add can beat a copy because it reads two bytes
for each byte it writes, a copy one, so it pays fewer read-write turnarounds on the memory bus
(our reading, not profiled). Why torch's vectorised elementwise kernel gets 8% more of that
than this rung was not profiled, and the block size and warp count were not swept past these;
the drill's notes say so.

What an interviewer wants to hear: "vectorised loads plus enough independent work per thread";
that a device copy is the practical ceiling, not the datasheet figure; and that beyond this
point only fusing the add into a neighbour kernel saves time, because the bytes are fixed.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    """x_ptr, y_ptr: inputs; z_ptr: output; n: length; BLOCK: elements per program."""
    start = tl.program_id(0).to(tl.int64) * BLOCK
    offsets = start + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, eviction_policy="evict_first")
    y = tl.load(y_ptr + offsets, mask=mask, eviction_policy="evict_first")
    tl.store(z_ptr + offsets, x + y, mask=mask)


def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    z = torch.empty_like(x)
    n = x.numel()
    BLOCK = 4096
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, z, n, BLOCK=BLOCK, num_warps=8)
    return z
