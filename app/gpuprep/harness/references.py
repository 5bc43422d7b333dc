"""The truth each drill is checked against (float64, on private copies) and the vendor op it is timed against.

Worker side: torch only. drill.yaml names a reference by key; nothing is evaluated from text.
Every reference and vendor op takes the entry's arguments: the inputs, then the drill's scalar
params in declared order (`attention(q, k, v, causal)`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch
import torch.nn.functional as F

#: The float64 score block of the attention reference, in elements: B=4 H=32 S=4096 at once
#: would be 17 GB; chunks over B*H keep it near 512 MiB.
ATTENTION_CHUNK_ELEMENTS = 1 << 26


def _vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x.double() + y.double()


def _reduce_sum(x: torch.Tensor) -> torch.Tensor:
    return x.double().sum()


def _softmax(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.double(), dim=-1)


def _transpose(x: torch.Tensor) -> torch.Tensor:
    return x.double().t().contiguous()


def _matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a.double() @ b.double()


def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool = False) -> torch.Tensor:
    """softmax(q k^T / sqrt(D), masked above the diagonal when causal) v, one chunk of heads at a time."""
    batch, heads, s_q, dim = q.shape
    s_k = k.shape[2]
    flat_q = q.reshape(batch * heads, s_q, dim)
    flat_k = k.reshape(batch * heads, s_k, dim)
    flat_v = v.reshape(batch * heads, s_k, v.shape[-1])
    out = torch.empty((batch * heads, s_q, v.shape[-1]), dtype=torch.float64, device=q.device)
    # Top-left aligned, as F.scaled_dot_product_attention(is_causal=True) masks.
    mask = torch.ones(s_q, s_k, dtype=torch.bool, device=q.device).tril() if causal else None
    per_chunk = max(1, ATTENTION_CHUNK_ELEMENTS // max(s_q * s_k, 1))
    scale = 1.0 / math.sqrt(dim)
    for start in range(0, batch * heads, per_chunk):
        part = slice(start, start + per_chunk)
        scores = flat_q[part].double() @ flat_k[part].double().transpose(-1, -2) * scale
        if mask is not None:
            scores.masked_fill_(~mask, float("-inf"))
        out[part] = torch.softmax(scores, dim=-1) @ flat_v[part].double()
        del scores
    return out.reshape(batch, heads, s_q, v.shape[-1])


def _layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    wide = x.double()
    mean = wide.mean(dim=-1, keepdim=True)
    variance = (wide - mean).square().mean(dim=-1, keepdim=True)
    return (wide - mean) / torch.sqrt(variance + eps) * weight.double() + bias.double()


def _cumsum(x: torch.Tensor) -> torch.Tensor:
    return x.double().cumsum(dim=-1)


#: key -> float64 reference.
REFERENCES: dict[str, Callable[..., torch.Tensor]] = {
    "vector_add": _vector_add,
    "reduce_sum": _reduce_sum,
    "softmax": _softmax,
    "transpose": _transpose,
    "matmul": _matmul,
    "attention": _attention,
    "layernorm": _layernorm,
    "cumsum": _cumsum,
}

#: key -> the library op in the input dtype, timed beside the ladder.
VENDOR_OPS: dict[str, Callable[..., torch.Tensor]] = {
    "vector_add": lambda x, y: torch.add(x, y),
    "reduce_sum": lambda x: torch.sum(x),
    "softmax": lambda x: torch.softmax(x, dim=-1),
    "transpose": lambda x: x.t().contiguous(),
    "matmul": lambda a, b: torch.matmul(a, b),
    "attention": lambda q, k, v, causal=False: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal)),
    "layernorm": lambda x, weight, bias, eps: F.layer_norm(x, (x.shape[-1],), weight, bias, eps),
    "cumsum": lambda x: torch.cumsum(x, dim=-1),
}


def error_scale(kind: str, inputs: list[torch.Tensor]) -> float | torch.Tensor | None:
    """What one output's error is measured against (None: the reference's own norm).

    'input_abs_sum': sum(|x|), since a sum's forward error grows with it whatever the order of
    additions. 'running_abs_sum': per position, the sum of |x| up to it, since a prefix sum's
    error at position i grows with sum(|x[:i+1]|) while the output there can be near zero (a
    normal input's prefix sums wander around 0): relative to the output's norm, fp32
    accumulation over 2^28 elements would look like a wrong kernel."""
    if kind == "input_abs_sum":
        return float(inputs[0].double().abs().sum())
    if kind == "running_abs_sum":
        return inputs[0].double().abs().cumsum(dim=-1)
    return None


def expected_dtype(reference: str, input_dtype: torch.dtype) -> torch.dtype:
    """Every drill so far returns its input's dtype."""
    return input_dtype
