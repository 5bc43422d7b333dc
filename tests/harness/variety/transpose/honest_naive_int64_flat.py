"""One output element per lane on a flat grid with int64 indices (written for 2^31-element
matrices); a docstring-only mention of x.t().contiguous() (what I compare against) and of
torch.cuda.synchronize() (which I call in my benchmark script, not here).

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_flat(x_ptr, y_ptr, rows, cols, total, BLOCK: tl.constexpr):
    k = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK).to(tl.int64)
    live = k < total
    out_row = k // rows  # a column of x
    out_col = k - out_row * rows  # a row of x
    tl.store(y_ptr + k, tl.load(x_ptr + out_col * cols + out_row, mask=live), mask=live)


def transpose(x):
    rows, cols = x.shape
    total = rows * cols
    y = torch.empty(cols, rows, dtype=x.dtype, device=x.device)
    transpose_flat[(triton.cdiv(total, 2048),)](x, y, rows, cols, total, BLOCK=2048)
    return y
