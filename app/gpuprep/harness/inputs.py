"""Fresh inputs for one correctness case or one timed call, from a seed the submission never sees.

Worker side: standard library and torch only.
"""

from __future__ import annotations

import hashlib

import torch

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def case_seed(secret: int, *parts: object) -> int:
    """A 63-bit seed for one case, mixed from the secret and the case's identity."""
    text = ":".join(str(p) for p in (secret, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 1


def draw(
    shape: tuple[int, ...],
    dtype: torch.dtype,
    distribution: dict,
    generator: torch.Generator,
    device: torch.device,
) -> torch.Tensor:
    """One tensor with values from a drill's distribution (see ValueDistribution in the bank)."""
    kind = distribution["kind"]
    if kind == "uniform":
        low, high = distribution["low"], distribution["high"]
        values = torch.rand(shape, generator=generator, device=device) * (high - low) + low
    else:
        values = (
            torch.randn(shape, generator=generator, device=device) * distribution["std"]
            + distribution["mean"]
        )
    if kind == "row_shifted" and len(shape) > 0:
        rows = shape[:-1] + (1,)
        offsets = (torch.rand(rows, generator=generator, device=device) * 2 - 1) * distribution[
            "shift"
        ]
        values += offsets
    elif kind == "neg_inf_sprinkled" and len(shape) > 0:
        masked = torch.rand(shape, generator=generator, device=device) < distribution["fraction"]
        masked[..., 0] = False  # never a whole row of -inf: its softmax is undefined
        values[masked] = float("-inf")
    return values.to(dtype)


def make_inputs(
    spec: dict,
    dims: dict[str, int],
    dtype_name: str,
    distribution: dict,
    seed: int,
    device: torch.device,
) -> list[torch.Tensor]:
    """The entry function's arguments for one case, as fresh tensors."""
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    dtype = DTYPES[dtype_name]
    return [
        draw(tuple(dims[s] for s in item["shape"]), dtype, distribution, generator, device)
        for item in spec["inputs"]
    ]
