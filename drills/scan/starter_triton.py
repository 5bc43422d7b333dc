"""Starter for the scan drill (Triton): correct, and one program does all the work.

A single program walks x in blocks of 1024, scans each block with `tl.cumsum`, adds the running
total of the blocks before it, and writes y: the output is right and one streaming
multiprocessor of a hundred-odd does everything. The harness checks odd lengths, a carry into a
one-element block and values up to 1e4 (fp16 accumulation overflows). Ideas: one program per
block with a second pass for the carries, then reduce-then-scan (block sums first: three
phases, x read twice), then a single pass where each block looks back at its predecessors'
published totals (decoupled look-back).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def scan_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """x_ptr, y_ptr: n floats; one program, BLOCK elements per step, a carry between steps."""
    carry = 0.0
    for start in range(0, n, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < n
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        tl.store(y_ptr + offsets, tl.cumsum(x, axis=0) + carry, mask=mask)
        carry += tl.sum(x, axis=0)


def cumsum(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    scan_kernel[(1,)](x, y, x.numel(), BLOCK=1024, num_warps=8)
    return y
