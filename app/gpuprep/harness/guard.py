"""Catch a submission calling the library op it is asked to write (torch.sum in a reduction drill).

Sandbox side: torch only. A TorchDispatchMode sees every ATen op the submission's Python code
dispatches, whatever wrapper it went through (torch.sum, x.sum(), torch.ops.aten.sum). Calls
made by Triton's own package are exempt (its interpreter copies tensors with aten ops), but only
when Triton's code is the nearest caller: a grid lambda of the submission's is not Triton's.

This is coaching, not security: it runs in the submission's own process, which can switch it
off. What it sees is run-time evidence an honest author needs ("you called torch.softmax");
a cheat that hides from it still has to produce the right values for the judge.

The same mode gives every tensor allocated during a call guard bands: it is allocated a little
larger, with a sentinel before and after, and the call gets a view of the middle. A kernel
that stores one block past the end of its output writes into a band, which is checked after
the call; without the bands that write lands in the allocator's slack and nothing notices.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep

#: Allocation ops whose results get guard bands (everything a wrapper allocates an output with).
ALLOCATIONS = frozenset(
    f"aten::{name}"
    for name in (
        "empty",
        "empty_like",
        "empty_strided",
        "new_empty",
        "new_empty_strided",
        "zeros",
        "zeros_like",
        "new_zeros",
        "ones",
        "ones_like",
        "new_ones",
        "full",
        "full_like",
        "new_full",
    )
)

#: What a submission's own Python code may ask of ATen: allocation, views, casts and copies,
#: reading a scalar. Any other op (index_add, rsub, topk, exp2, conv1d...) is arithmetic done by
#: the library instead of the kernel; a drill's denylist cannot name them all, so submissions
#: also answer to this allowlist. Ops made by Triton's own code (its interpreter) are exempt.
WRAPPER_OPS = ALLOCATIONS | frozenset(
    f"aten::{name}"
    for name in (
        "scalar_tensor",
        "lift_fresh",
        "lift_fresh_copy",
        "fill_",
        "zero_",
        "resize_",
        "view",
        "_unsafe_view",
        "reshape",
        "as_strided",
        "alias",
        "detach",
        "t",
        "transpose",
        "permute",
        "expand",
        "squeeze",
        "unsqueeze",
        "select",
        "slice",
        "flatten",
        "contiguous",
        "clone",
        "copy_",
        "_to_copy",
        "to",
        "_local_scalar_dense",
        "is_nonzero",
        "sym_size",
        "sym_stride",
        "sym_numel",
        "sym_storage_offset",
        "record_stream",
    )
)


#: Reading one element into Python (float(x[i]), .item()) is allowed a few times per call; a
#: loop of them is the whole computation done on the host.
SCALAR_READ = "aten::_local_scalar_dense"
SCALAR_READS = 64


def _triton_dir() -> str | None:
    module = sys.modules.get("triton")
    path = getattr(module, "__file__", None) if module is not None else None
    if not isinstance(path, str) or not path:
        return None
    return os.path.dirname(path) + os.sep


#: Bytes of band on each side of an allocation made during a call.
BAND_BYTES = 4096
#: Not the arena's all-ones NaN: a kernel that copies a NaN it read past an input's end into the
#: band past its output's end must still change the band.
SENTINEL = 0xA5


class CallGuard(TorchDispatchMode):  # type: ignore[no-untyped-call]  # torch's mode is untyped
    """Records forbidden ATen ops (by schema name, any overload) and, when asked, bands every
    allocation."""

    def __init__(
        self, forbidden: list[str], allowed: frozenset[str] | None = None, bands: bool = False
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.bands = bands
        self.forbidden = set(forbidden)
        self.allowed = allowed
        self.seen: list[str] = []
        self.scalar_reads = 0
        self.banded: list[tuple[torch.Tensor, int, int, tuple[int, ...]]] = []

    def __torch_dispatch__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        name = func._schema.name
        refused = name in self.forbidden or (self.allowed is not None and name not in self.allowed)
        counted = name == SCALAR_READ and self.allowed is not None
        if (refused or counted) and not _inside_triton():
            if counted:
                self.scalar_reads += 1
                refused = refused or self.scalar_reads > SCALAR_READS
            if refused:
                self.seen.append(
                    name if name != SCALAR_READ else f"{name} (element by element on the host)"
                )
        out = func(*args, **(kwargs or {}))
        if self.bands and name in ALLOCATIONS and type(out) is torch.Tensor and out.numel() > 0:
            return self._banded(out)
        return out

    def _banded(self, tensor: torch.Tensor) -> torch.Tensor:
        """The same tensor (values, strides, dtype) placed between two sentinel bands."""
        itemsize = tensor.element_size()
        band = BAND_BYTES // itemsize
        span = tensor.untyped_storage().nbytes() // itemsize - tensor.storage_offset()
        flat = torch.empty(span + 2 * band, dtype=tensor.dtype, device=tensor.device)
        raw = flat.view(torch.uint8)
        raw[: BAND_BYTES].fill_(SENTINEL)
        raw[(band + span) * itemsize :].fill_(SENTINEL)
        middle = flat.as_strided(tensor.shape, tensor.stride(), band)
        middle.copy_(tensor)
        self.banded.append((raw, band * itemsize, int(band + span) * itemsize, tuple(tensor.shape)))
        return middle

    def overflow(self) -> str:
        """'' unless a write landed in a band of a tensor allocated during the call."""
        for raw, start, end, shape in self.banded:
            before = int((raw[:start] != SENTINEL).sum())
            after = int((raw[end:] != SENTINEL).sum())
            if before or after:
                where = f"{after} byte(s) past the end" if after else f"{before} byte(s) before the start"
                return f"wrote {where} of a tensor of shape {list(shape)} it allocated"
        return ""


def _inside_triton() -> bool:
    triton_dir = _triton_dir()
    if triton_dir is None:
        return False
    frame: FrameType | None = sys._getframe(3)
    # Only the nearest caller outside torch counts: Triton's interpreter copying a
    # tensor is exempt, a submission's grid callable that Triton happens to call is not.
    while frame is not None and frame.f_code.co_filename.startswith(_TORCH_DIR):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename.startswith(triton_dir)


def call_guarded(
    function: Callable[..., object],
    args: list[object],
    forbidden: list[str],
    allowed: frozenset[str] | None = None,
    bands: bool = False,
) -> tuple[object, CallGuard]:
    """Call `function(*args)` under a guard; returns its output and the guard (ops seen, bands).

    Bands cost a copy per allocation, so timed calls go without them: the checked calls
    before them have already shown whether the kernel writes past its output."""
    guard = CallGuard(forbidden, allowed, bands)
    with guard:
        out = function(*args)
    return out, guard
