"""Deterministic two-pass sum: per-block partial sums, then one program adds the partials in a loop.
The entry is a functools.partial of a function with the block size as a keyword.

Expected verdict: passed
"""

import functools

import torch
import triton
import triton.language as tl


@triton.jit
def partial_sums(x_ptr, partials_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(partials_ptr + pid, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


@triton.jit
def finish(partials_ptr, out_ptr, count, CHUNK: tl.constexpr):
    acc = tl.zeros([CHUNK], dtype=tl.float32)
    for start in range(0, count, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        acc += tl.load(partials_ptr + offs, mask=offs < count, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def _reduce_sum(x, *, block=2048, chunk=1024):
    n = x.numel()
    programs = triton.cdiv(n, block)
    partials = torch.empty(programs, dtype=torch.float32, device=x.device)
    out = torch.empty((), dtype=torch.float32, device=x.device)
    partial_sums[(programs,)](x, partials, n, BLOCK=block)
    finish[(1,)](partials, out, programs, CHUNK=chunk)
    return out


reduce_sum = functools.partial(_reduce_sum, block=4096)
