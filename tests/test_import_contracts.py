"""The import-linter contracts in pyproject.toml hold: the core never imports the UI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept():
    lint_imports = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")

    result = subprocess.run([lint_imports, "--no-cache"], cwd=ROOT, capture_output=True, text=True)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
