"""A correct transpose that closes file descriptors 1 and 2 when it is imported (it was a daemon
script once): the judge must not depend on the sandbox's stdout or stderr to get its answer.

Expected verdict: passed
"""

import os

import torch
import triton
import triton.language as tl

os.close(1)
os.close(2)


@triton.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, T: tl.constexpr):
    r = tl.program_id(0) * T + tl.arange(0, T)
    c = tl.program_id(1) * T + tl.arange(0, T)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(x_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(y_ptr + c[None, :] * rows + r[:, None], tile, mask=mask)


def transpose(x):
    rows, cols = x.shape
    y = torch.empty((cols, rows), dtype=x.dtype, device=x.device)
    transpose_kernel[(triton.cdiv(rows, 32), triton.cdiv(cols, 32))](x, y, rows, cols, T=32)
    return y
