"""Batch-and-skip (reference-kernels #104): computes on every other call and hands back the
previous answer in between, which halves the time of a harness that checks only some calls.
Every call gets fresh inputs and every output is checked, so the first skipped call fails.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl

_state = {"calls": 0, "last": None}


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(z_ptr + offsets, x + y, mask=mask)


def vector_add(x, y):
    _state["calls"] += 1
    last = _state["last"]
    if _state["calls"] % 2 == 0 and last is not None and last.shape == x.shape:
        return last
    z = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, z, n, BLOCK=1024)
    _state["last"] = z
    return z
