"""Vector add with a grid lambda over the meta-parameters and an output made by torch.empty_strided.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(z_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


def vector_add(x, y):
    (n,) = x.shape
    z = torch.empty_strided((n,), (1,), dtype=x.dtype, device=x.device)
    add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, z, n, BLOCK=4096, num_warps=8)
    return z
