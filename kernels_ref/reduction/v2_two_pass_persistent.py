"""v2_two_pass_persistent: a persistent grid accumulates in registers; partial sums, then one small pass.

What changed from v1: instead of one program per 1024-element block, a few programs per SM
walk the whole tensor (a grid-stride loop), each thread adding many elements into registers,
two independent loads per iteration. Each program writes its partial sum to its own slot; a
second launch of a single program adds the slots. No atomics: the result is bitwise
reproducible for a given grid.

Why it is faster: the per-block tree and the 2^18 atomics of v1 are gone; each element costs a
load and an add. On an H200: 0.2681 ms, 2.12x v1 and 96% of a copy's bandwidth
(benchmarks/results/drills-2026-11-30-h200-verified.md; 0.2684 ms under the rebuilt judge,
judge-2026-12-01-h200/bench.log). The second launch and the loop's few loads in flight per
thread are what is left. A reduction only reads, so its ceiling is the read bandwidth: this
rung reads at 4.0 TB/s (83% of the datasheet's 4.8 TB/s) and the best rung after it at 4.37
TB/s, about 9% more, so no two later rungs could each buy 10%.

What an interviewer wants to hear: grid-stride loops sized from the SM count, why a two-pass
reduction is deterministic (CUB's DeviceReduce works this way), and why determinism matters
(training runs that differ run to run because of atomics).
"""

import torch
import triton
import triton.language as tl

BLOCK = 4096
PROGRAMS_PER_SM = 4
NUM_WARPS = 8


@triton.jit
def partial_sum_kernel(x_ptr, partial_ptr, n, BLOCK: tl.constexpr):
    """x_ptr: input; partial_ptr: one float per program; BLOCK: elements per load."""
    pid = tl.program_id(0)
    step = tl.num_programs(0).to(tl.int64) * (2 * BLOCK)
    acc0 = tl.zeros([BLOCK], dtype=tl.float32)
    acc1 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid.to(tl.int64) * (2 * BLOCK), n, step):
        offsets = start + tl.arange(0, BLOCK)
        acc0 += tl.load(x_ptr + offsets, mask=offsets < n, other=0.0, eviction_policy="evict_first")
        acc1 += tl.load(
            x_ptr + offsets + BLOCK,
            mask=offsets + BLOCK < n,
            other=0.0,
            eviction_policy="evict_first",
        )
    tl.store(partial_ptr + pid, tl.sum(acc0 + acc1, axis=0))


@triton.jit
def finish_kernel(partial_ptr, out_ptr, count, BLOCK: tl.constexpr):
    """Sums `count` partials (count <= BLOCK) into the 0-d output."""
    offsets = tl.arange(0, BLOCK)
    tl.store(
        out_ptr, tl.sum(tl.load(partial_ptr + offsets, mask=offsets < count, other=0.0), axis=0)
    )


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    if x.device.type == "cuda":
        programs = (
            torch.cuda.get_device_properties(x.device).multi_processor_count * PROGRAMS_PER_SM
        )
    else:
        programs = 4  # the CPU interpreter runs programs one by one
    programs = max(1, min(programs, triton.cdiv(n, 2 * BLOCK)))
    partials = torch.empty(programs, dtype=torch.float32, device=x.device)
    out = torch.empty((), dtype=torch.float32, device=x.device)
    partial_sum_kernel[(programs,)](x, partials, n, BLOCK=BLOCK, num_warps=NUM_WARPS)
    finish_kernel[(1,)](
        partials, out, programs, BLOCK=triton.next_power_of_2(programs), num_warps=4
    )
    return out
