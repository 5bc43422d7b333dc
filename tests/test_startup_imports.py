"""`gpuprep --help`, `bank check` and `hw` start without the heavy libraries."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

HEAVY = ("torch", "triton", "cupy", "textual", "sympy")


def _imported_modules(home, *args: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gpuprep", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "GPUPREP_HOME": str(home)},
    )
    # A command that crashed imports little: its exit status is part of the check.
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    modules = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            modules.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return modules


@pytest.mark.parametrize(
    "args",
    [("--help",), ("bank", "check"), ("hw", "list"), ("hw", "show", "h100_sxm")],
    ids=" ".join,
)
def test_light_commands_do_not_import_heavy_libraries(args: tuple[str, ...], tmp_path):
    imported = _imported_modules(tmp_path, *args)

    assert "gpuprep" in imported
    assert not imported & set(HEAVY), (
        f"`gpuprep {' '.join(args)}` imported {sorted(imported & set(HEAVY))}"
    )
