"""Replaces torch.allclose, torch.isclose, torch.equal and torch.testing.assert_close with
functions that always agree, then returns zeros. The judge compares in its own process, which
the patch does not reach.

Expected verdict: failed
Expected message: wrong output
"""

import torch
import torch.testing

torch.allclose = lambda *args, **kwargs: True
torch.equal = lambda *args, **kwargs: True
torch.isclose = lambda a, b, *args, **kwargs: torch.ones_like(a, dtype=torch.bool)
torch.testing.assert_close = lambda *args, **kwargs: None


def softmax(x):
    return torch.zeros_like(x)
