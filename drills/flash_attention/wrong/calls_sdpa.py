"""Calls F.scaled_dot_product_attention, the op the drill asks you to write: the guard sees
its fused kernel (aten::_scaled_dot_product_flash_attention on a GPU, its _for_cpu twin on a CPU).

Expected verdict: rejected
Expected message: aten::_scaled_dot_product
"""

import torch
import torch.nn.functional as F


def attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False
) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
