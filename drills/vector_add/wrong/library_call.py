"""Calls the library op the drill asks you to write.

Expected verdict: rejected
Expected message: aten::add
"""

import torch


def vector_add(x, y):
    return torch.add(x, y)
