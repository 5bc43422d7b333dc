"""Vector add written with `from __future__ import annotations`, so every annotation (tl.constexpr
included) is a string when Triton reads it, and typed as my linter likes.

Expected verdict: passed
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n: int, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    z: torch.Tensor = torch.empty_like(x)
    n: int = x.numel()
    add_kernel[(triton.cdiv(n, 512),)](x, y, z, n, BLOCK=512)
    return z
