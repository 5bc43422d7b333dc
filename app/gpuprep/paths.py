"""Where things live: the built-in data folders (from a wheel or a checkout) and the gpuprep home.

The store, the harness and the settings all keep files in the gpuprep home, so it is found here,
below them all, rather than in `settings`.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

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


def gpuprep_home() -> Path:
    """Where gpuprep keeps the user's data: `GPUPREP_HOME`, else the platform's data dir."""
    override = os.environ.get("GPUPREP_HOME")
    if override:
        return Path(override).expanduser()
    return user_data_path("gpuprep", appauthor=False)
