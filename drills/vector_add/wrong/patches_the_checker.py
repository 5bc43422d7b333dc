"""Rewires the arithmetic the checker uses, at import: a norm that is always zero and an any()
that is always False make every relative error 0. Names nothing a static scan refuses; the
worker compares what torch's functions are with what they were before the file was imported.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: rejected
Expected message: which this drill forbids
"""

import torch

torch.linalg.vector_norm = lambda *args, **kwargs: torch.zeros((), dtype=torch.float64)
torch.Tensor.any = lambda self, *args, **kwargs: torch.tensor(False)


def vector_add(x, y):
    return x * 2.0
