"""Softmax from ops the drill's denylist does not name: topk for the row maximum, exp2 for the
exponential, a matrix product for the row sums and a reciprocal for the division.

Expected verdict: rejected
Expected message: aten::topk
"""

import torch


def softmax(x):
    m = torch.topk(x.double(), 1, dim=-1).values
    e = torch.exp2((x.double() - m) * 1.4426950408889634)
    s = e @ torch.ones(x.shape[-1], 1, dtype=torch.float64, device=x.device)
    return (e * s.reciprocal()).to(x.dtype)
