"""Row softmax with exp2 and a log2(e) factor worked out with the math module (exp2 is the cheaper
instruction on most GPUs). The row is held in one block when it fits, else the loops run in chunks.

Expected verdict: passed
"""

import math

import torch
import triton
import triton.language as tl

LOG2E = math.log2(math.e)
MAX_CHUNK = 8192


@triton.jit
def softmax_exp2(x_ptr, y_ptr, cols, LOG2E: tl.constexpr, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    src = x_ptr + row * cols
    dst = y_ptr + row * cols
    m = tl.full([CHUNK], -float("inf"), tl.float32)
    for c in range(0, cols, CHUNK):
        i = c + tl.arange(0, CHUNK)
        m = tl.maximum(m, tl.load(src + i, mask=i < cols, other=-float("inf")).to(tl.float32))
    m_row = tl.max(m, axis=0)
    d = tl.zeros([CHUNK], tl.float32)
    for c in range(0, cols, CHUNK):
        i = c + tl.arange(0, CHUNK)
        d += tl.exp2((tl.load(src + i, mask=i < cols, other=-float("inf")).to(tl.float32) - m_row) * LOG2E)
    d_row = tl.sum(d, axis=0)
    for c in range(0, cols, CHUNK):
        i = c + tl.arange(0, CHUNK)
        v = tl.load(src + i, mask=i < cols, other=-float("inf")).to(tl.float32)
        tl.store(dst + i, (tl.exp2((v - m_row) * LOG2E) / d_row).to(dst.dtype.element_ty), mask=i < cols)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    chunk = min(triton.next_power_of_2(cols), MAX_CHUNK)
    softmax_exp2[(rows,)](x, y, cols, LOG2E=LOG2E, CHUNK=chunk, num_warps=8 if chunk > 1024 else 4)
    return y
