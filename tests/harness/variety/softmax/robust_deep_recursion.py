"""Picks the block size with a recursive helper that steps one by one up to the next power of two:
fine for narrow rows, and a RecursionError once cols passes ~1000 (2 x 2500, 2 x 20001).

Expected verdict: failed
Expected message: raised
"""

import torch
import triton
import triton.language as tl


def _block_for(cols, block=1):
    if block >= cols and block & (block - 1) == 0:
        return block
    return _block_for(cols, block + 1)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(rows,)](x, y, cols, BLOCK=_block_for(cols))
    return y
