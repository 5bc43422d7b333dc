"""Calls torch.sum with torch's Python dispatch switched off for the block: the guard's
TorchDispatchMode never sees aten::sum. Refused by the scan (torch._C).

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: rejected
Expected message: no Triton kernel ran
"""

import torch


def reduce_sum(x):
    with torch._C._DisableTorchDispatch():
        return x.sum()
