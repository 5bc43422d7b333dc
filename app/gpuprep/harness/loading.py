"""Load a submission or a ladder rung from its file path, the same way for both.

Worker side, standard library only.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

_counter = itertools.count()


class EntryMissing(Exception):
    """The file loaded but does not define the drill's entry function."""


def load_module(path: Path) -> ModuleType:
    """Import one .py file under a fresh module name (Triton's JIT reads its source back)."""
    name = f"gpuprep_kernel_{next(_counter)}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_entry(path: Path, entry: str) -> Callable[..., object]:
    """The drill's entry function from a file."""
    module = load_module(path)
    function = getattr(module, entry, None)
    if not callable(function):
        raise EntryMissing(f"{path.name} does not define a function {entry}(...)")
    entry_function: Callable[..., object] = function
    return entry_function


def new_modules(before: set[str]) -> list[str]:
    """Real paths of the modules imported since `before` (a snapshot of sys.modules' names)."""
    import os

    paths = []
    for name in set(sys.modules) - before:
        path = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(path, str):
            paths.append(os.path.realpath(path))
    return paths
