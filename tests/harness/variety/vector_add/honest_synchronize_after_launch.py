"""Vector add whose wrapper waits for the GPU before it returns.

I like my wrappers to hand back a result that is really there, so the launch is followed by
torch.cuda.synchronize() (skipped when the tensors are not on a GPU, as in CPU practice mode).

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _add(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = out.numel()
    _add[(triton.cdiv(n_elements, 1024),)](x, y, out, n_elements, BLOCK_SIZE=1024)
    if x.is_cuda:
        torch.cuda.synchronize()
    return out
