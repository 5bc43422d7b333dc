"""Catch a submission calling the library op it is asked to write (torch.sum in a reduction drill).

Worker side: torch only. A TorchDispatchMode sees every ATen op the submission's Python code
dispatches, whatever wrapper it went through (torch.sum, x.sum(), torch.ops.aten.sum). Calls
made by Triton's own package are exempt (its interpreter copies tensors with aten ops), but only
when Triton's code is the nearest caller: a grid lambda of the submission's is not Triton's.
"""

from __future__ import annotations

import contextlib
import os
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode

_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep

#: What a submission's own Python code may ask of ATen: allocation, views, casts and copies,
#: reading a scalar. Any other op (index_add, rsub, topk, exp2, conv1d...) is arithmetic done by
#: the library instead of the kernel; a drill's denylist cannot name them all, so submissions
#: also answer to this allowlist. Ops made by Triton's own code (its interpreter) are exempt.
WRAPPER_OPS = frozenset(
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
    if module is None or not getattr(module, "__file__", None):
        return None
    return os.path.dirname(module.__file__) + os.sep


class ForbiddenOps(TorchDispatchMode):
    """Records forbidden ATen ops (by schema name, any overload) called while it is active."""

    def __init__(
        self,
        forbidden: list[str],
        quiet=contextlib.nullcontext,  # noqa: ANN001
        allowed: frozenset[str] | None = None,
    ) -> None:
        super().__init__()
        self.forbidden = set(forbidden)
        self.allowed = allowed
        self.seen: list[str] = []
        self.scalar_reads = 0
        self._quiet = quiet

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        name = func._schema.name
        refused = name in self.forbidden or (self.allowed is not None and name not in self.allowed)
        counted = name == SCALAR_READ and self.allowed is not None
        if (refused or counted) and not self._inside_triton():
            if counted:
                self.scalar_reads += 1
                refused = refused or self.scalar_reads > SCALAR_READS
            if refused:
                self.seen.append(
                    name if name != SCALAR_READ else f"{name} (element by element on the host)"
                )
        return func(*args, **(kwargs or {}))

    def _inside_triton(self) -> bool:
        triton_dir = _triton_dir()
        if triton_dir is None:
            return False
        with self._quiet():  # the harness's own look at the frames, not the submission's
            frame = sys._getframe(2)
            # Only the nearest caller outside torch counts: Triton's interpreter copying a
            # tensor is exempt, a submission's grid callable that Triton happens to call is not.
            while frame is not None and frame.f_code.co_filename.startswith(_TORCH_DIR):
                frame = frame.f_back
            return frame is not None and frame.f_code.co_filename.startswith(triton_dir)


def call_guarded(
    function,  # noqa: ANN001
    args: list,
    forbidden: list[str],
    quiet=contextlib.nullcontext,  # noqa: ANN001
    allowed: frozenset[str] | None = None,
) -> tuple[object, list[str]]:
    """Call `function(*args)` and return its output and the forbidden ops it used.

    `quiet` pauses the worker's audit watch while the guard itself reads frames; `allowed`,
    when given, refuses every op outside it as well (WRAPPER_OPS, for submissions)."""
    if not forbidden and allowed is None:
        return function(*args), []
    mode = ForbiddenOps(forbidden, quiet, allowed)
    with mode:
        out = function(*args)
    return out, sorted(set(mode.seen))
