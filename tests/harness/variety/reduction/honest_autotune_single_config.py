"""Sum reduction behind @triton.autotune, so I can add configs later on the GPU. It has one
config for now; reset_to_zero keeps the atomic accumulator right if tuning ever reruns it.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": 4096}, num_warps=8)],
    key=["n"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    vals = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(vals, axis=0))


def reduce_sum(x):
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
    return out
