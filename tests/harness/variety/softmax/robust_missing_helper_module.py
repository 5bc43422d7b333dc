"""Imports a helper module from the author's own project, which was not submitted with the file:
ModuleNotFoundError at import time.

Expected verdict: failed
Expected message: raised
"""

import torch
from my_kernels.softmax_utils import pick_block  # noqa: F401


def softmax(x):
    return torch.empty_like(x)
