"""Catch a submission calling the library op it is asked to write (torch.sum in a reduction drill).

Worker side: torch only. A TorchDispatchMode sees every ATen op the submission's Python code
dispatches, whatever wrapper it went through (torch.sum, x.sum(), torch.ops.aten.sum). Calls
made from inside Triton's own package are exempt: its interpreter copies tensors with aten ops.
"""

from __future__ import annotations

import os
import sys

import torch
from torch.utils._python_dispatch import TorchDispatchMode


def _triton_dir() -> str | None:
    module = sys.modules.get("triton")
    if module is None or not getattr(module, "__file__", None):
        return None
    return os.path.dirname(module.__file__) + os.sep


class ForbiddenOps(TorchDispatchMode):
    """Records forbidden ATen ops (by schema name, any overload) called while it is active."""

    def __init__(self, forbidden: list[str]) -> None:
        super().__init__()
        self.forbidden = set(forbidden)
        self.seen: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN204
        name = func._schema.name
        if name in self.forbidden and not self._inside_triton():
            self.seen.append(name)
        return func(*args, **(kwargs or {}))

    @staticmethod
    def _inside_triton() -> bool:
        triton_dir = _triton_dir()
        if triton_dir is None:
            return False
        frame = sys._getframe(2)
        while frame is not None:
            if frame.f_code.co_filename.startswith(triton_dir):
                return True
            frame = frame.f_back
        return False


def call_guarded(
    function, args: list[torch.Tensor], forbidden: list[str]
) -> tuple[object, list[str]]:  # noqa: ANN001
    """Call `function(*args)` and return its output and the forbidden ops it used."""
    if not forbidden:
        return function(*args), []
    mode = ForbiddenOps(forbidden)
    with mode:
        out = function(*args)
    return out, sorted(set(mode.seen))
