"""Swaps the torch that the reference module computes with: its softmax hands back the
submission's own last output.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: wrong output
"""

from sys import modules

import torch

_last = []


class _Torch:
    def softmax(self, x, dim):
        return _last[-1].double()


modules["gpuprep.harness.references"].torch = _Torch()


def softmax(x):
    out = torch.zeros_like(x)
    out[..., 0] = 1.0
    _last.append(out)
    return out
