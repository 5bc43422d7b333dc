"""The grid is still computed for 64 x 64 tiles after the kernel's tile was changed to 32: each
program moves only the top-left quarter of its 64 x 64 patch, the rest of y is left as torch.empty
made it.

Exposed when either dimension is over 32 (1 x 37, 33 x 70, 130 x 9, 64 x 64, 129 x 257, 1000 x 1);
1 x 1, 5 x 3 and 32 x 32 pass.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl

TILE = 32
GRID_TILE = 64


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, TILE: tl.constexpr, STEP: tl.constexpr):
    r = tl.program_id(0) * STEP + tl.arange(0, TILE)
    c = tl.program_id(1) * STEP + tl.arange(0, TILE)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[None, :] * rows + r[:, None], tile, mask=mask)


def transpose(x):
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(rows, GRID_TILE), triton.cdiv(cols, GRID_TILE))
    transpose_kernel[grid](x, y, rows, cols, TILE=TILE, STEP=GRID_TILE)
    return y
