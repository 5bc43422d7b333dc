"""Hands the work to F.layer_norm: the guard sees aten::layer_norm at run time.

Expected verdict: rejected
Expected message: aten::native_layer_norm
"""

import torch.nn.functional as F


def layernorm(x, weight, bias, eps):
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)
