"""Tiled transpose whose output is allocated with torch.empty_strided (explicitly row-major
(cols, rows), stride (rows, 1)) and launched on a 2-D grid built by a lambda.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def tile_transpose(src, dst, R, C, BR: tl.constexpr, BC: tl.constexpr):
    i = tl.program_id(0).to(tl.int64) * BR + tl.arange(0, BR)[:, None]
    j = tl.program_id(1).to(tl.int64) * BC + tl.arange(0, BC)[None, :]
    ok = (i < R) & (j < C)
    v = tl.load(src + i * C + j, mask=ok)
    tl.store(dst + j * R + i, v, mask=ok)


def transpose(x: torch.Tensor) -> torch.Tensor:
    R, C = x.shape
    out = torch.empty_strided((C, R), (R, 1), dtype=x.dtype, device=x.device)
    grid = lambda meta: (triton.cdiv(R, meta["BR"]), triton.cdiv(C, meta["BC"]))  # noqa: E731
    tile_transpose[grid](x, out, R, C, BR=16, BC=64)
    return out
