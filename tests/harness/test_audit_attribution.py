"""The audit watch blames the submission for what its own code does, not for what an installed
library does on its behalf (CuPy dlopens NVRTC through cuda-pathfinder while it compiles).

Each case runs in a fresh interpreter: the watch installs a permanent audit hook.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

LOADS_A_LIBRARY = "import ctypes\n\ndef load():\n    ctypes.CDLL(None)\n"


def _noted_when_calling_from(folder: Path, *, submission: bool = False) -> str:
    """What the watch notes when loader_module.load() in `folder` loads a native library;
    `submission`: the module is the submission's own file (the worker names it to the watch)."""
    folder.mkdir(parents=True)
    (folder / "loader_module.py").write_text(LOADS_A_LIBRARY)
    own = {str((folder / "loader_module.py").resolve())} if submission else set()
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(folder)!r})
        from gpuprep.harness.integrity import AuditWatch
        import loader_module
        watch = AuditWatch([], {own!r})
        watch.active = True
        loader_module.load()
        watch.active = False
        print(watch.take())
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def test_a_native_library_loaded_by_the_submissions_own_code_is_noted(tmp_path: Path):
    noted = _noted_when_calling_from(tmp_path / "work", submission=True)
    assert "loaded a native library through ctypes" in noted


def test_a_native_library_loaded_by_an_installed_package_is_not_blamed_on_the_submission(
    tmp_path: Path,
):
    assert _noted_when_calling_from(tmp_path / "lib" / "site-packages") == "[]"
