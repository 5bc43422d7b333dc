"""Returns 1/cols everywhere: right shape, right dtype, rows that sum to one, and wrong.

Expected verdict: failed
Expected message: constant output
"""

import torch


def softmax(x):
    return torch.full_like(x, 1.0 / x.shape[-1])
