"""One block per row, with the block capped at 16384 columns "so it compiles": rows wider than
that are silently cut. Columns past 16384 are never written and never summed.

Exposed only by rows wider than 16384 columns (2 x 16385, 2 x 20001); every narrower shape passes.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl

MAX_BLOCK = 16384


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    block = min(triton.next_power_of_2(cols), MAX_BLOCK)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=block, num_warps=16 if block > 4096 else 4)
    return y
