"""Adds on the host with numpy and copies the answer into a fresh tensor: no kernel. The copy back
into the output is aten::copy_, which this drill forbids; the guard sees it at run time.

Expected verdict: rejected
Expected message: which this drill forbids
"""

import numpy as np
import torch


def vector_add(x, y):
    host = np.add(x.detach().cpu().numpy(), y.detach().cpu().numpy())
    z = torch.empty_like(x)
    z.copy_(torch.from_numpy(host))
    return z
