"""Row softmax with two kernels picked on the host: narrow rows (up to 1024 columns) go several
to a program as a 2-D block held in registers; wider rows get one program each and a chunked
three-loop pass. A heuristic sets how many narrow rows a program takes.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.heuristics({"ROWS": lambda args: max(1, min(16, 4096 // args["BLOCK_C"]))})
@triton.jit
def narrow_rows(x_ptr, y_ptr, n_rows, cols, BLOCK_C: tl.constexpr, ROWS: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    c = tl.arange(0, BLOCK_C)
    mask = (r[:, None] < n_rows) & (c[None, :] < cols)
    ptrs = r[:, None].to(tl.int64) * cols + c[None, :]
    x = tl.load(x_ptr + ptrs, mask=mask, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=1)
    m = tl.where(r < n_rows, m, 0.0)  # rows past the end are all -inf; keep them NaN-free
    e = tl.exp(x - m[:, None])
    s = tl.sum(e, axis=1)
    s = tl.where(r < n_rows, s, 1.0)
    tl.store(y_ptr + ptrs, (e / s[:, None]).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def wide_row(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    base = tl.program_id(0).to(tl.int64) * cols
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        m = tl.maximum(m, tl.load(x_ptr + base + o, mask=o < cols, other=float("-inf")).to(tl.float32))
    mr = tl.max(m, axis=0)
    s = tl.zeros([CHUNK], tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        s += tl.exp(tl.load(x_ptr + base + o, mask=o < cols, other=float("-inf")).to(tl.float32) - mr)
    sr = tl.sum(s, axis=0)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        v = tl.load(x_ptr + base + o, mask=o < cols, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + base + o, (tl.exp(v - mr) / sr).to(y_ptr.dtype.element_ty), mask=o < cols)


def softmax(x):
    n_rows, cols = x.shape
    y = torch.empty_like(x)
    if cols <= 1024:
        block_c = triton.next_power_of_2(cols)
        narrow_rows[lambda meta: (triton.cdiv(n_rows, meta["ROWS"]),)](x, y, n_rows, cols, BLOCK_C=block_c)
    else:
        wide_row[(n_rows,)](x, y, cols, CHUNK=2048, num_warps=8)
    return y
