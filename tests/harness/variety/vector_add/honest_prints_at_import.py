"""Vector add that says hello when it is imported and logs every call (debug prints left in).

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl

print(f"[my_vector_add] loaded with triton {triton.__version__} and torch {torch.__version__}")

_calls = 0


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(z_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def vector_add(x, y):
    global _calls
    _calls += 1
    z = torch.empty_like(x)
    grid = (triton.cdiv(x.numel(), 256),)
    print(f"[my_vector_add] call {_calls}: n={x.numel()} grid={grid} device={x.device}")
    add_kernel[grid](x, y, z, x.numel(), BLOCK=256)
    return z
