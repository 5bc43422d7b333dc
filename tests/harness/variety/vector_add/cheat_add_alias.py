"""Imports torch.add under another name, so that no line of the file says "torch.add". The op
still runs as aten::add, and the run-time guard sees it.

Expected verdict: rejected
Expected message: which this drill forbids
"""

from torch import add as fused_elementwise


def vector_add(x, y):
    return fused_elementwise(x, y)
