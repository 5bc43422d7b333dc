"""Tiled transpose on a 1-D grid, with the program id swizzled into groups of tile-rows (the
GROUP_M trick from the matmul tutorial) so neighbouring programs share DRAM pages on both sides.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_grouped(x_ptr, y_ptr, rows, cols, TM: tl.constexpr, TN: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(rows, TM)
    tiles_n = tl.cdiv(cols, TN)
    per_group = GROUP * tiles_n
    group = pid // per_group
    first_m = group * GROUP
    group_size = tl.minimum(tiles_m - first_m, GROUP)
    pid_m = first_m + (pid % per_group) % group_size
    pid_n = (pid % per_group) // group_size
    r = pid_m * TM + tl.arange(0, TM)
    c = pid_n * TN + tl.arange(0, TN)
    inside = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=inside)
    tl.store(y_ptr + c[None, :] * rows + r[:, None], tile, mask=inside)


def transpose(x):
    rows, cols = x.shape
    y = x.new_empty((cols, rows))
    TM, TN = 64, 32
    grid = (triton.cdiv(rows, TM) * triton.cdiv(cols, TN),)
    transpose_grouped[grid](x, y, rows, cols, TM=TM, TN=TN, GROUP=4, num_warps=4)
    return y
