"""Returns zero, which is within an absolute tolerance of a mean-zero sum: a relative one catches it.

Expected verdict: failed
Expected message: relative error
"""

import torch


def reduce_sum(x):
    return torch.zeros((), dtype=x.dtype, device=x.device)
