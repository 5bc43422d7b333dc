"""A real kernel, but the answer is computed once per length and replayed afterwards ("the
benchmark calls it on the same data anyway"). Fresh inputs of a length already seen get the old sum.

Exposed on the second call of any length (each shape is checked with several distributions).

Expected verdict: failed
Expected message: wrong output
"""

import torch
import triton
import triton.language as tl

_answers = {}


@triton.jit
def block_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


def reduce_sum(x):
    n = x.numel()
    if n not in _answers:
        out = torch.zeros((), dtype=torch.float32, device=x.device)
        block_sum[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        _answers[n] = out
    return _answers[n]
