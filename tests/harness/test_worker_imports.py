"""The judge and the sandbox import no app-only library: the GPU machine may have no pydantic.

The judge-side modules are the ones pyproject.toml's import-linter contract names, so the static
check (every import, inside functions too) and this one (what really lands in `sys.modules`)
cover the same files.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

from gpuprep.harness import manifest

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
JUDGE_CONTRACT = "The judge and the sandbox import no app library"
#: App-side harness modules that are standard library only as well.
APP_SIDE = ["gpuprep.harness.runner", "gpuprep.harness.report", "gpuprep.harness.source_scan"]
APP_ONLY = ["pydantic", "typer", "textual", "sympy", "yaml", "rich"]


def judge_side_modules() -> list[str]:
    contracts = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    (contract,) = [c for c in contracts if c["name"] == JUDGE_CONTRACT]
    return contract["source_modules"]


def test_worker_modules_import_only_stdlib_and_torch():
    modules = judge_side_modules() + APP_SIDE
    assert "gpuprep.harness.judge" in modules and "gpuprep.units.formulas" in modules
    code = (
        "import sys\n"
        + "".join(f"import {name}\n" for name in modules)
        + f"bad = [m for m in {APP_ONLY!r} if m in sys.modules]\n"
        + "print(bad)\nsys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_judge_module_outside_the_harness_is_in_its_manifest():
    outside = [m for m in judge_side_modules() if not m.startswith("gpuprep.harness.")]
    files = {m.removeprefix("gpuprep.").replace(".", "/") + ".py" for m in outside}
    assert files <= set(manifest.OUTSIDE), "a file the judge runs must be hashed in its manifest"
