"""Keeps the exponentials and the running sum in bfloat16 ("the inputs are bf16 anyway"; each add
is done in float32 and rounded back, as the GPU does for bf16): with 8 bits of mantissa the
per-lane sums stall once they are large next to their terms, and the output has bf16 precision
even for float32 inputs.

Exposed on float32 inputs of every shape with more than one column (3 x 7 onwards): the output
carries bf16 precision. The bfloat16 cases stay inside their looser tolerance (2 x 20001 included,
measured with an absolute 1e-2), so the bug shows only through the float32 ones.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        m = tl.maximum(m, tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32))
    mx = tl.max(m, axis=0)
    acc = tl.zeros([CHUNK], dtype=tl.bfloat16)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        x = tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32)
        e = tl.exp(x - mx).to(tl.bfloat16)
        acc = (acc.to(tl.float32) + e.to(tl.float32)).to(tl.bfloat16)
    total = tl.sum(acc.to(tl.float32), axis=0).to(tl.bfloat16)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        x = tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32)
        e = tl.exp(x - mx).to(tl.bfloat16)
        y = (e.to(tl.float32) / total.to(tl.float32)).to(tl.bfloat16)
        tl.store(y_ptr + row * cols + o, y.to(y_ptr.dtype.element_ty), mask=o < cols)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, CHUNK=64)
    return y
