"""Pins every input (inputs.case_seed's hashlib is a module global): every timed call then gets
the same input and a table answers after the first. Passes on a CPU as a plain memo.

Expected verdict: rejected
Expected message: gpuprep.harness.inputs.hashlib was replaced
"""

import types
from sys import modules

import torch
import triton
import triton.language as tl

_constant = types.SimpleNamespace(digest=lambda: bytes(32))
modules["gpuprep.harness.inputs"].hashlib = types.SimpleNamespace(sha256=lambda text: _constant)
_answers = {}


@triton.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(
        z_ptr + offsets,
        tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
        mask=mask,
    )


def vector_add(x, y):
    key = (x.numel(), float(x[0]))
    if key not in _answers:
        z = torch.empty_like(x)
        add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, z, x.numel(), BLOCK=256)
        _answers[key] = z
    return _answers[key]
