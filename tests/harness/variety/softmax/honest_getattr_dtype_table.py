"""Row softmax that looks the output's Triton dtype up by name in a table (getattr(tl, name)) and
passes it to the kernel as a constexpr; everything inside is float32.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl

_TL_NAMES = {torch.float32: "float32", torch.bfloat16: "bfloat16", torch.float16: "float16"}


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, OUT: tl.constexpr, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for c in range(0, cols, CHUNK):
        offs = c + tl.arange(0, CHUNK)
        m = tl.maximum(m, tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=float("-inf")).to(tl.float32))
    mx = tl.max(m, axis=0)
    acc = tl.zeros([CHUNK], tl.float32)
    for c in range(0, cols, CHUNK):
        offs = c + tl.arange(0, CHUNK)
        acc += tl.exp(tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=float("-inf")).to(tl.float32) - mx)
    total = tl.sum(acc, axis=0)
    for c in range(0, cols, CHUNK):
        offs = c + tl.arange(0, CHUNK)
        v = tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * cols + offs, (tl.exp(v - mx) / total).to(OUT), mask=offs < cols)


def softmax(x):
    rows, cols = x.shape
    out_ty = getattr(tl, _TL_NAMES[x.dtype])
    y = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
    softmax_kernel[(rows,)](x, y, cols, OUT=out_ty, CHUNK=2048)
    return y
