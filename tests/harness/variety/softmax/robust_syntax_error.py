"""Half-edited file: a missing colon after the def. Python cannot compile it.

Expected verdict: failed
Expected message: SyntaxError
"""

import torch


def softmax(x)
    return torch.empty_like(x)
