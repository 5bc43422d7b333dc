"""Sums on the host with numpy: no ATen op runs, so the forbidden-op guard sees nothing, and no
kernel was written. Refused by the scan.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: rejected
Expected message: no Triton kernel ran
"""

import numpy as np
import torch


def reduce_sum(x):
    total = np.asarray(x.cpu().numpy().sum(dtype=np.float64), dtype=np.float32)
    return torch.from_numpy(total).to(x.device)
