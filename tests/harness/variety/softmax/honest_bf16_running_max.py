"""Online softmax that stores the running maximum in the input's own dtype (bfloat16 for bf16
inputs) between chunks: a max of bf16 values is itself a bf16 value, so nothing is lost. The
comparisons, exponentials and the running sum are done in float32. Lanes that have seen only
-inf keep a zero sum.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def online_softmax(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * cols
    y_row = y_ptr + row * cols
    run_max = tl.full([CHUNK], float("-inf"), x_ptr.dtype.element_ty)  # bf16 for bf16 input
    run_sum = tl.zeros([CHUNK], dtype=tl.float32)
    for start in range(0, cols, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        x = tl.load(x_row + offs, mask=offs < cols, other=float("-inf")).to(tl.float32)
        old_max = run_max.to(tl.float32)
        new_max = tl.maximum(old_max, x)
        alive = new_max > float("-inf")
        safe_max = tl.where(alive, new_max, 0.0)
        run_sum = tl.where(alive, run_sum * tl.exp(old_max - safe_max) + tl.exp(x - safe_max), 0.0)
        run_max = new_max.to(x_ptr.dtype.element_ty)
    lane_max = run_max.to(tl.float32)
    row_max = tl.max(lane_max, axis=0)
    row_sum = tl.sum(run_sum * tl.exp(lane_max - row_max), axis=0)
    for start in range(0, cols, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        mask = offs < cols
        x = tl.load(x_row + offs, mask=mask, other=float("-inf")).to(tl.float32)
        tl.store(y_row + offs, (tl.exp(x - row_max) / row_sum).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    online_softmax[(rows,)](x, y, cols, CHUNK=1024, num_warps=4)
    return y
