"""The judge and the sandbox import no app-only library: the GPU machine may have no pydantic."""

import subprocess
import sys

WORKER_MODULES = [
    "judge",
    "drill_run",
    "sandbox",
    "sandboxes",
    "forkserver",
    "landlock",
    "manifest",
    "protocol",
    "arena",
    "verdicts",
    "inputs",
    "references",
    "checking",
    "guard",
    "timing",
    "loading",
    "formulas",
    "runner",
    "report",
    "source_scan",
]
APP_ONLY = ["pydantic", "typer", "textual", "sympy", "yaml", "rich"]


def test_worker_modules_import_only_stdlib_and_torch():
    code = (
        "import sys\n"
        + "".join(f"import gpuprep.harness.{name}\n" for name in WORKER_MODULES)
        + f"bad = [m for m in {APP_ONLY!r} if m in sys.modules]\n"
        + "print(bad)\nsys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
