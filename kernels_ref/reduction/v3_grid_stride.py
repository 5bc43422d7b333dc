"""v3_grid_stride: a persistent grid that loops over the tensor, accumulating in registers.

What changed from v2: instead of one program per block, launch a few programs per SM; each
walks the tensor with a stride of (programs x BLOCK), adding blocks into a register vector,
and reduces that vector once at the end: one atomic per program, a few hundred in all.

Why it is faster: no launch or scheduling cost per block, the accumulation needs no tree per
block, and the loads of the next iteration can be in flight while this one is added.

What an interviewer wants to hear: grid-stride loops ("persistent kernels"), sizing the grid
from the SM count rather than the data, and that the tail is handled by the mask on the last
iteration, not by a separate kernel.
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
