"""Hands the scan to torch.cumsum: the guard sees aten::cumsum at run time.

Expected verdict: rejected
Expected message: aten::cumsum
"""

import torch


def cumsum(x):
    return torch.cumsum(x, dim=0)
