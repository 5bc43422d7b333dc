# -*- coding: latin-1 -*-
"""Vector add saved by an editor set to latin-1, with a coding cookie that says so.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def addition(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    # Addition élément par élément ; le masque protège la fin du tableau (n « impair »).
    debut = tl.program_id(0) * BLOCK
    offsets = debut + tl.arange(0, BLOCK)
    masque = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=masque) + tl.load(y_ptr + offsets, mask=masque), mask=masque)


def vector_add(x, y):
    z = torch.empty_like(x)
    addition[(triton.cdiv(x.numel(), 1024),)](x, y, z, x.numel(), BLOCK=1024)
    return z
