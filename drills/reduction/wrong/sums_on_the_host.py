"""No kernel: the sum in a Python loop of scalar reads (select and item are wrapper ops).
A few scalar reads per call are allowed, a loop of them is not.

Expected verdict: rejected
Expected message: element by element on the host
"""

import torch


def reduce_sum(x):
    total = 0.0
    for i in range(x.numel()):
        total += float(x[i])
    return torch.full((), total, dtype=x.dtype, device=x.device)
