"""Fresh inputs for one correctness case or one timed call, from a seed the submission never sees.

Worker side: standard library and torch only.
"""

from __future__ import annotations

import hashlib
from typing import Any

import torch

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def case_seed(secret: int, *parts: object) -> int:
    """A 63-bit seed for one case, mixed from the secret and the case's identity."""
    text = ":".join(str(p) for p in (secret, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 1


def draw(
    shape: tuple[int, ...],
    dtype: torch.dtype,
    distribution: dict[str, Any],
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
    drawn: torch.Tensor = values.to(dtype)
    return drawn


def make_inputs(
    spec: dict[str, Any],
    dims: dict[str, int],
    dtype_name: str,
    distribution: dict[str, Any],
    seed: int,
    device: torch.device,
) -> list[torch.Tensor]:
    """The entry function's tensor arguments for one case, as fresh tensors: each from the
    case's distribution, or from its own where the input names one (a layernorm weight)."""
    generator = torch.Generator(device=device)
    generator.manual_seed(seed)
    dtype = DTYPES[dtype_name]
    by_name = {d["name"]: d for d in spec["distributions"]}
    return [
        draw(
            tuple(dims[s] for s in item["shape"]),
            dtype,
            by_name[item["distribution"]] if item.get("distribution") else distribution,
            generator,
            device,
        )
        for item in spec["inputs"]
    ]


def case_distributions(spec: dict[str, Any], dtype: str | None = None) -> list[dict[str, Any]]:
    """The distributions correctness cases cycle through: all but the inputs' own, and with a
    dtype, only those that apply to it."""
    owned = {item.get("distribution") for item in spec["inputs"]} - {None}
    return [
        d
        for d in spec["distributions"]
        if d["name"] not in owned and (dtype is None or not d.get("dtypes") or dtype in d["dtypes"])
    ]


def param_cases(spec: dict[str, Any], shape: dict[str, Any]) -> list[dict[str, Any]]:
    """Every combination of the params' values this shape runs with, in declared order;
    a param the shape fixes takes that value alone. [{}] for a drill without params."""
    cases: list[dict[str, Any]] = [{}]
    fixed = shape.get("params") or {}
    for param in spec.get("params") or []:
        name = param["name"]
        values = [fixed[name]] if name in fixed else list(param["values"])
        cases = [{**case, name: value} for case in cases for value in values]
    return cases
