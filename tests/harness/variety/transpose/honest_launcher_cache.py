"""Tiled transpose that keeps a module-level cache of bound launchers (kernel[grid] objects) keyed
by shape, so repeated calls on one shape skip the grid arithmetic. Only launchers are cached;
every call runs the kernel on the tensors it is given.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl

TILE = 32
_launchers = {}


@triton.jit
def transpose_tile(x_ptr, y_ptr, rows, cols, TILE: tl.constexpr):
    r = tl.program_id(0) * TILE + tl.arange(0, TILE)
    c = tl.program_id(1) * TILE + tl.arange(0, TILE)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[:, None] * rows + r[None, :], tl.trans(tile), mask=tl.trans(mask))


def _launcher(rows, cols):
    key = (rows, cols)
    if key not in _launchers:
        _launchers[key] = transpose_tile[(triton.cdiv(rows, TILE), triton.cdiv(cols, TILE))]
    return _launchers[key]


def transpose(x):
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    _launcher(rows, cols)(x, y, rows, cols, TILE=TILE)
    return y
