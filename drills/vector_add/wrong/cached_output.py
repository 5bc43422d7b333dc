"""Computes once per shape and replays that answer: fresh inputs on every call expose it.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl

_cache = {}


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def vector_add(x, y):
    key = (tuple(x.shape), x.dtype)
    if key not in _cache:
        z = torch.empty_like(x)
        add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, z, x.numel(), BLOCK=256)
        _cache[key] = z
    return _cache[key]
