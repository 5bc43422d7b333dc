"""The truth each drill is checked against (float64, on private copies) and the vendor op it is timed against.

Worker side: torch only. drill.yaml names a reference by key; nothing is evaluated from text.
"""

from __future__ import annotations

from collections.abc import Callable

import torch


def _vector_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x.double() + y.double()


def _reduce_sum(x: torch.Tensor) -> torch.Tensor:
    return x.double().sum()


def _softmax(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.double(), dim=-1)


def _transpose(x: torch.Tensor) -> torch.Tensor:
    return x.double().t().contiguous()


#: key -> float64 reference.
REFERENCES: dict[str, Callable[..., torch.Tensor]] = {
    "vector_add": _vector_add,
    "reduce_sum": _reduce_sum,
    "softmax": _softmax,
    "transpose": _transpose,
}

#: key -> the library op in the input dtype, timed beside the ladder.
VENDOR_OPS: dict[str, Callable[..., torch.Tensor]] = {
    "vector_add": lambda x, y: torch.add(x, y),
    "reduce_sum": lambda x: torch.sum(x),
    "softmax": lambda x: torch.softmax(x, dim=-1),
    "transpose": lambda x: x.t().contiguous(),
}


def expected_dtype(reference: str, input_dtype: torch.dtype) -> torch.dtype:
    """Every drill so far returns its input's dtype."""
    return input_dtype
