"""Row softmax whose entry is wrapped by a decorator factory I use for all my kernels: it checks
the arguments' dims and dtypes and counts calls (functools.wraps keeps the name).

Expected verdict: passed
"""

import functools

import torch
import triton
import triton.language as tl

CALLS = {}


def kernel_entry(ndim, dtypes):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(x):
            if x.dim() != ndim or x.dtype not in dtypes:
                raise TypeError(f"{fn.__name__}: expected {ndim}-D {dtypes}, got {x.dim()}-D {x.dtype}")
            CALLS[fn.__name__] = CALLS.get(fn.__name__, 0) + 1
            return fn(x)

        return wrapper

    return decorate


@triton.jit
def _softmax_rows(x_ptr, y_ptr, cols, CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    mx = tl.full([CHUNK], float("-inf"), tl.float32)
    for c in tl.range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        mx = tl.maximum(mx, tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32))
    row_max = tl.max(mx, axis=0)
    den = tl.zeros([CHUNK], tl.float32)
    for c in tl.range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        den += tl.exp(tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32) - row_max)
    row_den = tl.sum(den, axis=0)
    for c in tl.range(0, cols, CHUNK):
        o = c + tl.arange(0, CHUNK)
        v = tl.load(x_ptr + row * cols + o, mask=o < cols, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + row * cols + o, (tl.exp(v - row_max) / row_den).to(y_ptr.dtype.element_ty), mask=o < cols)


@kernel_entry(ndim=2, dtypes=(torch.float32, torch.bfloat16))
def softmax(x):
    y = torch.empty_like(x)
    _softmax_rows[(x.shape[0],)](x, y, x.shape[1], CHUNK=1024)
    return y
