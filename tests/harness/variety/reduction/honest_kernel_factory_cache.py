"""The kernel is built by a factory function (a nested @triton.jit def), and the built kernels are
kept in a module-level dict keyed by block size, so each is made (and compiled) once. Only kernels
are cached, never results.

Expected verdict: passed
"""

import torch
import triton
import triton.language as tl

_KERNELS = {}


def _make_kernel():
    @triton.jit
    def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_add(out_ptr, tl.sum(x, axis=0), sem="relaxed")

    return block_sum


def _kernel_for(block):
    if block not in _KERNELS:
        _KERNELS[block] = _make_kernel()
    return _KERNELS[block]


def reduce_sum(x):
    n = x.numel()
    block = 512 if n < 8192 else 8192
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    _kernel_for(block)[(triton.cdiv(n, block),)](x, out, n, BLOCK=block)
    return out
