"""Looks through every live object for a float64 tensor of the output's shape: the harness's
reference answer, on leaderboards that computed it before calling the kernel (pygpubench #7).
Refused by the scan; a spelling the scan misses meets the audit hook on gc.get_objects, and
there is nothing to find anyway: the reference is computed only after the call returns.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: wrong output
"""

import gc

import torch


def vector_add(x, y):
    for obj in gc.get_objects():
        if type(obj) is torch.Tensor and obj.dtype == torch.float64 and obj.shape == x.shape:
            return obj.to(x.dtype)
    return torch.zeros_like(x)
