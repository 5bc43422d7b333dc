"""v3_tiles_64: 64 x 64 tiles with 8 warps: the best of the shapes measured on an H200.

What changed from v2: the tile grows to 64 x 64 (16 KB in, 16 KB out) and the program to 8
warps, so each thread moves 16 floats with 16-byte accesses on both sides, while the 16 KB
turn still leaves room for several programs per SM.

Why it is faster: more bytes in flight per thread than v2 without v1's occupancy loss. On an
H200 this reached about 95% of a device copy and 3.5x x.t().contiguous() at 8192 x 8192 fp32;
a transpose moves the same bytes as a copy, so the rest is the turn's shared-memory round trip.

The gain over v2 is 3%, under the 10% a rung should buy: 0.1333 against 0.1378 ms, 1.07x over
v1 (benchmarks/results/drills-2026-11-30-h200-verified.md; 1.04x over v2 in
drills-2026-11-30-h200.md), with only ~8% left to the copy after v2. It is still the step a
strong candidate names last: 16-byte vector accesses on both sides of the turn, sized so the
tile still leaves room for several programs per SM; and it is the rung that shows the method
(a tile-size sweep read against a copy) and where to stop. Not yet re-measured under the
rebuilt judge (judge-2026-12-01-h200/README.md).

What an interviewer wants to hear: how to tell from achieved bandwidth against a device copy
that a kernel is done; the tile-size sweep as the method (bytes in flight and 16-byte vectors
against shared memory per block); and what a CUDA version adds (a 32 x 33 padded tile, or TMA
bulk copies on Hopper).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, TILE_R: tl.constexpr, TILE_C: tl.constexpr):
    """Program (pr, pc) moves x[pr*TILE_R : +TILE_R, pc*TILE_C : +TILE_C] to y's transposed tile."""
    r = tl.program_id(0).to(tl.int64) * TILE_R + tl.arange(0, TILE_R)
    c = tl.program_id(1).to(tl.int64) * TILE_C + tl.arange(0, TILE_C)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[:, None] * rows + r[None, :], tl.trans(tile), mask=tl.trans(mask))


def transpose(x: torch.Tensor) -> torch.Tensor:
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(rows, 64), triton.cdiv(cols, 64))
    transpose_kernel[grid](x, y, rows, cols, TILE_R=64, TILE_C=64, num_warps=8)
    return y
