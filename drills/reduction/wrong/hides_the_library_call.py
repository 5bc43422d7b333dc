"""Calls torch.sum with torch's Python dispatch switched off for the block: the guard's
TorchDispatchMode never sees aten::sum. Refused by the scan (torch._C).

Expected verdict: rejected
Expected message: dispatcher hooks
"""

import torch


def reduce_sum(x):
    with torch._C._DisableTorchDispatch():
        return x.sum()
