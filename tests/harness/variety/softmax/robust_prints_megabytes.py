"""A correct softmax that dumps 8 MiB of debug text to stdout when imported and 1 MiB per call
(half of it to stderr): the judge must keep draining (or discard) the sandbox's output and still
judge it.

Expected verdict: passed
"""

import sys

import torch
import triton
import triton.language as tl

_LINE = "debug " + "#" * 1018 + "\n"  # 1 KiB
sys.stdout.write(_LINE * 8192)
sys.stdout.flush()


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    m = tl.full([CHUNK], float("-inf"), tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        m = tl.maximum(m, tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32))
    mx = tl.max(m, axis=0)
    s = tl.zeros([CHUNK], tl.float32)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        s += tl.exp(tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32) - mx)
    total = tl.sum(s, axis=0)
    for c in range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        v = tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * cols + o, (tl.exp(v - mx) / total).to(y_ptr.dtype.element_ty), mask=o < cols)


def softmax(x):
    print(_LINE * 512, end="", file=sys.stderr)
    print(_LINE * 512, end="")
    y = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], CHUNK=2048)
    return y
