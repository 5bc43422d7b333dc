"""v4_two_pass_tuned: partial sums per program, then one small program adds them; no atomics.

What changed from v3: each persistent program writes its partial sum to its own slot, and a
second launch of a single program sums the slots. The loop loads two blocks per iteration
(more independent loads in flight) with an evict-first hint (the data is never reused, so it
should not push other lines out of L2). Block, warps and programs per SM were swept on an H200.

Why it is faster (or as fast, and better): no atomics at all, so the result is bitwise
reproducible for a given grid; the second pass reads a few KB, about 3 us of launch.

What an interviewer wants to hear: determinism matters (training runs that diverge run to run
because of atomics), the two-pass structure (CUB's DeviceReduce does the same), and that the
top rung is judged against a device copy: a read-only kernel can reach ~95% of it.
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
        acc1 += tl.load(x_ptr + offsets + BLOCK, mask=offsets + BLOCK < n, other=0.0, eviction_policy="evict_first")
    tl.store(partial_ptr + pid, tl.sum(acc0 + acc1, axis=0))


@triton.jit
def finish_kernel(partial_ptr, out_ptr, count, BLOCK: tl.constexpr):
    """Sums `count` partials (count <= BLOCK) into the 0-d output."""
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr, tl.sum(tl.load(partial_ptr + offsets, mask=offsets < count, other=0.0), axis=0))


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    if x.device.type == "cuda":
        programs = torch.cuda.get_device_properties(x.device).multi_processor_count * PROGRAMS_PER_SM
    else:
        programs = 4  # the CPU interpreter runs programs one by one
    programs = max(1, min(programs, triton.cdiv(n, 2 * BLOCK)))
    partials = torch.empty(programs, dtype=torch.float32, device=x.device)
    out = torch.empty((), dtype=torch.float32, device=x.device)
    partial_sum_kernel[(programs,)](x, partials, n, BLOCK=BLOCK, num_warps=NUM_WARPS)
    finish_kernel[(1,)](partials, out, programs, BLOCK=triton.next_power_of_2(programs), num_warps=4)
    return out
