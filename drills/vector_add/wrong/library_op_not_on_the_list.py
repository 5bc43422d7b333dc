"""x + y through torch.index_add, an op no drill thinks to forbid: a denylist cannot name every
library route to the answer. A submission's own code may only allocate, view and copy; the
arithmetic belongs in the kernel.

Expected verdict: rejected
Expected message: aten::index_add
"""

import torch


def vector_add(x, y):
    return torch.index_add(x, 0, torch.arange(x.numel(), device=x.device), y)
