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


def _triton_dir() -> str | None:
    module = sys.modules.get("triton")
    if module is None or not getattr(module, "__file__", None):
        return None
    return os.path.dirname(module.__file__) + os.sep


class ForbiddenOps(TorchDispatchMode):
    """Records forbidden ATen ops (by schema name, any overload) called while it is active."""

    def __init__(self, forbidden: list[str], quiet=contextlib.nullcontext) -> None:  # noqa: ANN001
        super().__init__()
        self.forbidden = set(forbidden)
        self.seen: list[str] = []
        self._quiet = quiet

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        name = func._schema.name
        if name in self.forbidden and not self._inside_triton():
            self.seen.append(name)
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
    function, args: list, forbidden: list[str], quiet=contextlib.nullcontext
) -> tuple[object, list[str]]:  # noqa: ANN001
    """Call `function(*args)` and return its output and the forbidden ops it used.

    `quiet` pauses the worker's audit watch while the guard itself reads frames."""
    if not forbidden:
        return function(*args), []
    mode = ForbiddenOps(forbidden, quiet)
    with mode:
        out = function(*args)
    return out, sorted(set(mode.seen))
