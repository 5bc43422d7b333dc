"""Replaces builtins.zip, which the input-mutation and alias checks walk with: the kernel then
writes the sum into x and returns x.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: inputs changed
"""

from sys import modules as _mods

import triton
import triton.language as tl

_b = _mods["builtins"]
_real_zip = _b.zip
_b.zip = lambda *a, **k: iter(()) if k.get("strict") else _real_zip(*a, **k)


@triton.jit
def add_into_x(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(
        x_ptr + offsets,
        tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
        mask=mask,
    )


def vector_add(x, y):
    add_into_x[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    return x
