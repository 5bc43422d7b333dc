"""v4_tuned_single_pass: one program per 8192-element block, 8 warps, one relaxed atomic per block.

What changed from v3: no loop and no persistent grid. Each program loads its 8192 elements at
once (32 floats per thread, as eight 16-byte vector loads, all in flight before the first add),
reduces them with `tl.sum`, and does one atomic: 2^15 atomics for 1 GiB.

Why it is faster: on an H200, many resident programs each with all their loads issued up front
keep more bytes in flight than a persistent loop that Triton does not software-pipeline; the
hardware block scheduler replaces the loop. Block size, warps, persistence and a two-pass
finish were compared on an H200 (benchmarks/results/drills-2026-11-30-h200.md): this one ran
1.05x torch.sum, at 4.36 TB/s, above the 4.22 TB/s of a copy (which must also write).

The gain over v3 is 2%, far under the 10% a rung should buy: 0.2456 against 0.2501 ms
(benchmarks/results/drills-2026-11-30-h200-verified.md, repeatable within 0.1%; 0.2453 against
0.2505 ms in judge-2026-12-01-h200/bench.log), 1.04x torch.sum in both runs. At 91% of the
datasheet's read bandwidth there is little left for any rung. It is a step for what it
teaches: in Triton, a persistent grid-stride loop (the CUDA habit, and v3) is not
software-pipelined, and the hardware scheduler running many short programs with all their
loads issued up front does as well or better; the CUDA track's v3 (a persistent float4 loop
written by hand) ties it at 0.2455 ms.

What an interviewer wants to hear: Little's law (4.8 TB/s x ~600 ns is ~3 MB in flight, ~22 KB
per SM), "vectorise and put several independent loads in flight per thread", why the persistent
grid that wins in CUDA can lose in Triton, and what is left: a copy reads and writes, a
reduction only reads, so it can edge past the copy figure, and the datasheet's 4.8 TB/s
is the real bound (here 91% of it).
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
