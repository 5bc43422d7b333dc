"""Calls torch.softmax through torch.nn.functional: the guard sees aten::_softmax.

Expected verdict: rejected
Expected message: aten::_softmax
"""

import torch.nn.functional as F


def softmax(x):
    return F.softmax(x, dim=-1)
