"""Vector add with its launch constants worked out with numpy (habit from my notebooks).

Expected verdict: passed
"""

import numpy as np
import torch
import triton
import triton.language as tl

BLOCK = int(np.power(2, 11))  # 2048 elements per program
NUM_WARPS = int(np.log2(BLOCK)) - 7  # 4 warps


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    a = tl.load(a_ptr + offs, mask=keep, other=0.0)
    b = tl.load(b_ptr + offs, mask=keep, other=0.0)
    tl.store(c_ptr + offs, a + b, mask=keep)


def vector_add(x, y):
    c = torch.empty_like(x)
    n = x.numel()
    add_kernel[(int(np.ceil(n / BLOCK)),)](x, y, c, n, BLOCK=BLOCK, num_warps=NUM_WARPS)
    return c
