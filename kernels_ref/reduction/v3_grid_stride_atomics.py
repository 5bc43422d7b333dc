"""v3_grid_stride_atomics: the same persistent loop, finished with one atomic per program.

What changed from v2: the second launch goes; each of the few hundred programs adds its
partial sum into the output with a relaxed atomic. A few hundred atomics on one address cost
well under a microsecond, less than a launch.

Why it is faster: one launch instead of two, and one BLOCK-wide load per iteration with a
single accumulator (on the H200 this measured faster than v2's two loads per iteration).
The price is determinism: the order of the final additions varies run to run.

Measured on an H200, 2^28 fp32: 0.2501 against v2's 0.2681 ms, 1.07x, under the 10% a rung
should buy (benchmarks/results/drills-2026-11-30-h200-verified.md; 1.07x again in
judge-2026-12-01-h200/bench.log; both repeatable within 0.5%). v2 was already at 96% of a copy,
so there was little left to buy. It is still a step because it is the trade every reduction
interview reaches: determinism (v2's second pass) against one launch (a few hundred atomics),
priced in microseconds on the real machine.

What an interviewer wants to hear: when atomics are fine (few, at the end) and when they are
not (v0); relaxed versus acquire-release semantics (a plain CUDA atomicAdd is relaxed); and
that the tail is handled by the mask on the last iteration, not by a separate kernel.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def grid_stride_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """x_ptr: input; out_ptr: zeroed 0-d output; BLOCK: elements per program per step."""
    pid = tl.program_id(0)
    step = tl.num_programs(0).to(tl.int64) * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid.to(tl.int64) * BLOCK, n, step):
        offsets = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0), sem="relaxed")


def _programs(x: torch.Tensor, per_sm: int) -> int:
    if x.device.type == "cuda":
        return torch.cuda.get_device_properties(x.device).multi_processor_count * per_sm
    return 4  # the CPU interpreter runs programs one by one: a few is enough


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    n = x.numel()
    BLOCK = 4096
    grid = max(1, min(_programs(x, 4), triton.cdiv(n, BLOCK)))
    grid_stride_sum_kernel[(grid,)](x, out, n, BLOCK=BLOCK, num_warps=8)
    return out
