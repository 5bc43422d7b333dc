"""Where the built-in data folders live, installed from a wheel or run from a checkout."""

from __future__ import annotations

from pathlib import Path

import gpuprep

DATA_FOLDERS = ("questions", "rubrics", "hardware", "drills", "kernels_ref")


def builtin_root() -> Path:
    """The folder holding questions/, rubrics/, hardware/, drills/ and kernels_ref/.

    In a wheel they sit inside the `gpuprep` package; in a checkout (and an editable
    install) they sit at the top level beside `app/`, as the product card lays out the
    repository, two folders above the package (app/gpuprep).
    """
    package = Path(gpuprep.__file__).resolve().parent
    if (package / "questions").is_dir():
        return package
    return package.parent.parent


def builtin_folder(name: str) -> Path:
    """One built-in data folder by name ('questions', 'drills' ...)."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {name!r}")
    return builtin_root() / name
