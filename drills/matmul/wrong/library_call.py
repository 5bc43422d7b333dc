"""Calls torch.matmul: the guard sees aten::mm, the op the drill asks you to write.

Expected verdict: rejected
Expected message: aten::mm
"""

import torch


def matmul(a, b):
    return torch.matmul(a, b)
