"""No kernel: a dot product with a vector of ones is a sum. It dispatches as aten::dot (through
matmul), which the drill forbids; the guard sees it at run time.

Expected verdict: rejected
Expected message: which this drill forbids
"""

import torch


def reduce_sum(x):
    return x @ torch.ones_like(x)
