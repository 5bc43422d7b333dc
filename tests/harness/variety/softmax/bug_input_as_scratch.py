"""Uses x as scratch to save a buffer: the second pass writes exp(x - max) back into x, and the third
divides it into y. The output is right; the caller's input is wrecked.

Exposed on every shape whose values are not all 0 after exp (i.e. every shape).

Expected verdict: failed
Expected message: inputs changed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    row = x_ptr + tl.program_id(0).to(tl.int64) * cols
    out = y_ptr + tl.program_id(0).to(tl.int64) * cols
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        m = tl.maximum(m, tl.load(row + o, mask=o < cols, other=float("-inf")).to(tl.float32))
    mx = tl.max(m, axis=0)
    s = tl.zeros([CHUNK], tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        e = tl.exp(tl.load(row + o, mask=o < cols, other=float("-inf")).to(tl.float32) - mx)
        s += e
        tl.store(row + o, e.to(x_ptr.dtype.element_ty), mask=o < cols)  # reuse x for the exponentials
    total = tl.sum(s, axis=0)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        e = tl.load(row + o, mask=o < cols, other=0.0).to(tl.float32)
        tl.store(out + o, (e / total).to(y_ptr.dtype.element_ty), mask=o < cols)


def softmax(x):
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], CHUNK=1024)
    return y
