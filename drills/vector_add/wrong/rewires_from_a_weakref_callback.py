"""Answers the first case and leaves a weakref callback on its input, which runs between calls
(where the audit watch looked away) and rewires the worker: judged there too, now.

Expected verdict: failed
Expected message: wrong output
"""

import weakref

import torch
import triton
import triton.language as tl

import __main__

_refs = []


def _later(ref):
    collector, ok = __main__.gc, lambda *args: {"ok": True, "problem": "", "first_mismatch": None}
    for obj in collector.get_objects():
        if type(obj).__name__ == "Drill":
            obj.snapshot._instances["the worker"][1]["_check_output"] = obj._check_output = ok


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    z = tl.load(x_ptr + offsets, mask=offsets < n) + tl.load(y_ptr + offsets, mask=offsets < n)
    tl.store(z_ptr + offsets, z, mask=offsets < n)


def vector_add(x, y):
    if _refs:  # after the first case: nothing computed
        return torch.zeros_like(x)
    _refs.append(weakref.ref(x, _later))
    z = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, z, x.numel(), BLOCK=256)
    return z
