"""A rank's input, drawn from a seed: the rank draws it privately, the judge draws it again.

The judge never puts one rank's input where another rank could read it: each rank receives
only its own seed for the case, draws its tensor in its own memory, and the judge, which keeps
every seed, draws the same tensors on its side for the float64 sum.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

DTYPE_BYTES = {"float32": 4, "bfloat16": 2}


def draw(numel: int, dtype: str, seed: int) -> torch.Tensor:
    """Standard normal values on the CPU, rounded to `dtype`: the same on every machine."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    values = torch.randn(numel, generator=generator, dtype=torch.float32)
    return values.to(getattr(torch, dtype))
