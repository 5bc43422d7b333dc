"""Vector add whose launch parameters live in a frozen dataclass.

Expected verdict: passed
"""

from dataclasses import dataclass

import torch
import triton
import triton.language as tl


@dataclass(frozen=True)
class LaunchConfig:
    block: int = 512
    num_warps: int = 4

    def grid(self, n: int) -> tuple[int]:
        return (triton.cdiv(n, self.block),)


CONFIG = LaunchConfig()


@triton.jit
def vadd_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < n
    tl.store(z_ptr + idx, tl.load(x_ptr + idx, mask=inside) + tl.load(y_ptr + idx, mask=inside), mask=inside)


def vector_add(x, y, config: LaunchConfig = CONFIG):
    z = torch.empty_like(x)
    vadd_kernel[config.grid(x.numel())](x, y, z, x.numel(), BLOCK=config.block, num_warps=config.num_warps)
    return z
