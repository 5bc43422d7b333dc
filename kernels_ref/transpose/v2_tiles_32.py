"""v2_tiles_32: smaller tiles, 32 x 32 with 4 warps, in plain launch order.

What changed from v1: the tile shrinks from 64 x 128 to 32 x 32 and the grouped order goes.

Why it is (slightly) faster: a 64 x 128 fp32 tile needs 32 KB of shared memory for the turn,
so fewer programs fit on an SM at once; 32 x 32 tiles keep more programs resident, and more
independent programs hide DRAM latency as well as bigger tiles do. Bigger is not automatically
better.

Measured on an H200 at 8192 x 8192 fp32 (the only benchmark shape), the gain is 3%, under the
10% a rung should buy: 0.1378 against v1's 0.1421 ms, 92% of a copy against 89%
(benchmarks/results/drills-2026-11-30-h200-verified.md; 1.02x in drills-2026-11-30-h200.md,
repeatable within 0.3%). That is real but small, and it cannot be larger: v1 left ~12% to the
copy. It is a step because it isolates one knob, occupancy (shared memory per block against
blocks per SM), from v3's other knob, bytes per thread: a smaller tile with the grouped order
dropped is as fast as the big one, so the big tile was buying nothing. Not yet re-measured
under the rebuilt judge.

What an interviewer wants to hear: the occupancy side of the tile-size trade-off (shared
memory per block against blocks per SM), and measuring rather than assuming which side wins.
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
    grid = (triton.cdiv(rows, 32), triton.cdiv(cols, 32))
    transpose_kernel[grid](x, y, rows, cols, TILE_R=32, TILE_C=32, num_warps=4)
    return y
