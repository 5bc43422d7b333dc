"""Returns a fresh zero matrix of the right shape, dtype and layout, and no transpose at all.

Expected verdict: failed
Expected message: wrong output
"""

import torch


def transpose(x):
    rows, cols = x.shape
    return torch.zeros((cols, rows), dtype=x.dtype, device=x.device)
