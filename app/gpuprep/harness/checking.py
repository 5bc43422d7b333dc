"""Is one output right? Compared in float64 with the reference computed on private copies.

Worker side: torch only. The verdict is a relative-norm error against the drill's tolerance
for the dtype, plus the checks that defeat the classic escapes: NaN or inf where the truth is
finite (or the reverse) always fails, a constant output fails when the truth is not constant,
a few badly wrong elements hidden in a large norm fail an elementwise bound, and the output
must be a plain, contiguous tensor of the right shape, dtype and device.
"""

from __future__ import annotations

import math
from typing import Any

import torch

#: The elementwise bound is this many times the norm tolerance, relative to each element's
#: magnitude (or the output's RMS, for elements near zero).
ELEMENT_SLACK = 64.0


def _index(flat: int, shape: tuple[int, ...]) -> list[int]:
    index = []
    for size in reversed(shape):
        index.append(flat % size if size else 0)
        flat //= max(size, 1)
    return list(reversed(index))


def _value(x: float) -> float | str:
    return x if math.isfinite(x) else str(x)


def check_output(
    out: object,
    expected: torch.Tensor,
    expected_dtype: torch.dtype,
    device: torch.device,
    tolerance: float,
    scale: float | torch.Tensor | None = None,
) -> dict[str, Any]:
    """Compare `out` with the float64 `expected`; returns {ok, problem, rel_err, max_abs_err, first_mismatch}.

    `scale` replaces the reference's norm as the error's denominator: a number (sum(|x|) for
    sums) or a tensor of the output's shape, one scale per position (a prefix sum's running
    sum of |x|), whose norm is the denominator and whose entries bound each element.
    """
    result: dict[str, Any] = {
        "ok": False,
        "problem": "",
        "rel_err": None,
        "max_abs_err": None,
        "first_mismatch": None,
    }
    if type(out) is not torch.Tensor:
        what = type(out).__name__
        result["problem"] = (
            f"returned a {what} (a tensor subclass); return a plain torch.Tensor"
            if isinstance(out, torch.Tensor)
            else f"returned {what}, expected a torch.Tensor"
        )
        return result
    if vars(out):
        # A plain tensor can still carry instance attributes that shadow its methods
        # (is_contiguous, untyped_storage): the checks below would ask the output about itself.
        result["problem"] = (
            f"the output tensor carries Python attributes ({', '.join(sorted(vars(out)))}); return a plain torch.Tensor"
        )
        return result
    if tuple(out.shape) != tuple(expected.shape):
        result["problem"] = f"output shape {tuple(out.shape)}, expected {tuple(expected.shape)}"
        return result
    if out.dtype != expected_dtype:
        result["problem"] = (
            f"output dtype {str(out.dtype).replace('torch.', '')}, expected {str(expected_dtype).replace('torch.', '')}"
        )
        return result
    if out.device != device:
        result["problem"] = f"output on {out.device}, expected {device}"
        return result
    if not out.is_contiguous():
        result["problem"] = (
            f"output is not contiguous (strides {tuple(out.stride())}); the contract asks for a contiguous tensor"
        )
        return result
    got = out.detach().double().reshape(-1)
    want = expected.reshape(-1)
    shape = tuple(expected.shape)
    nan_mismatch = torch.isnan(got) != torch.isnan(want)
    inf_mismatch = torch.isinf(want) & (got != want) | torch.isinf(got) & (got != want)
    both_finite = torch.isfinite(got) & torch.isfinite(want)
    diff = torch.where(both_finite, (got - want).abs(), torch.zeros_like(got))
    finite_want = torch.where(torch.isfinite(want), want, torch.zeros_like(want))
    per_element: float | torch.Tensor
    if isinstance(scale, torch.Tensor):
        scales = scale.detach().double().reshape(-1)
        norm = float(torch.linalg.vector_norm(scales))
        per_element = scales
    elif scale is None:
        norm = float(torch.linalg.vector_norm(finite_want))
        per_element = norm / math.sqrt(max(want.numel(), 1))
    else:
        norm = per_element = scale
    result["max_abs_err"] = float(diff.max()) if diff.numel() else 0.0
    result["rel_err"] = (
        float(torch.linalg.vector_norm(diff)) / norm
        if norm > 0
        else float(torch.linalg.vector_norm(diff))
    )
    floor = per_element if isinstance(per_element, torch.Tensor) else torch.full_like(finite_want, per_element)
    bound = ELEMENT_SLACK * tolerance * torch.maximum(finite_want.abs(), floor)
    bad = nan_mismatch | inf_mismatch | (diff > bound)
    if bool(bad.any()):
        flat = int(torch.nonzero(bad)[0])
    elif result["rel_err"] > tolerance:
        flat = int(torch.argmax(diff))
    else:
        flat = None
    if flat is not None:
        result["first_mismatch"] = {
            "index": _index(flat, shape),
            "got": _value(float(got[flat])),
            "expected": _value(float(want[flat])),
        }
    if bool(nan_mismatch.any()) or bool(inf_mismatch.any()):
        count = int((nan_mismatch | inf_mismatch).sum())
        result["problem"] = (
            f"{count} element(s) are NaN or inf where the reference is not, or the reverse"
        )
        return result
    if got.numel() > 1 and bool((got == got[0]).all()) and not bool((want == want[0]).all()):
        result["problem"] = (
            f"every element is {_value(float(got[0]))}: a constant output where the reference varies"
        )
        return result
    if result["rel_err"] > tolerance:
        result["problem"] = (
            f"relative error {result['rel_err']:.3g} exceeds the tolerance {tolerance:.3g}"
        )
        return result
    if bool(bad.any()):
        result["problem"] = (
            f"{int(bad.sum())} element(s) are far off although the norm error {result['rel_err']:.3g} is small"
        )
        return result
    result["ok"] = True
    return result


def inputs_unchanged(
    before: list[torch.Tensor], after: list[torch.Tensor], names: list[str]
) -> str:
    """'' when the caller's inputs are bitwise what they were, else which one changed."""
    for name, old, new in zip(names, before, after, strict=True):
        same_nan = torch.isnan(old) == torch.isnan(new)
        equal = (old == new) | (torch.isnan(old) & torch.isnan(new))
        if not bool(same_nan.all()) or not bool(equal.all()):
            return f"input {name} was modified by the call ({int((~equal).sum())} element(s) changed); inputs are read-only"
    return ""
