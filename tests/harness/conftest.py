"""Shared helpers for the harness tests: the built-in drills, and whether a CUDA GPU is here."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from gpuprep.paths import builtin_folder

DRILLS_DIR = builtin_folder("drills")
KERNELS_DIR = builtin_folder("kernels_ref")
DRILL_IDS = sorted(p.parent.name for p in DRILLS_DIR.glob("*/drill.yaml"))


@functools.cache
def drills() -> dict:
    from gpuprep.bank.loader import load_bank

    bank, _problems = load_bank()
    return {drill_id: bank.drills[drill_id] for drill_id in DRILL_IDS}


def expected_verdict(path: Path) -> tuple[str, str]:
    """The verdict and message fragment a known-wrong file declares in its docstring."""
    text = path.read_text()
    verdict = re.search(r"^Expected verdict: (\w+)", text, re.MULTILINE)
    message = re.search(r"^Expected message: (.+)$", text, re.MULTILINE)
    assert verdict and message, f"{path} must declare 'Expected verdict:' and 'Expected message:'"
    return verdict.group(1), message.group(1).strip()


@functools.cache
def cuda_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


needs_gpu = pytest.mark.skipif(not cuda_available(), reason="needs a CUDA GPU")
