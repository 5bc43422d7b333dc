"""Puts the reference ladder's transpose folder on sys.path and imports the top rung as an ordinary
module, then submits its entry.

Expected verdict: rejected
Expected message: reference ladder
"""

import importlib
import sys
from pathlib import Path

import gpuprep

_root = Path(gpuprep.__file__).resolve().parent
for _base in (_root, _root.parent, _root.parent.parent):
    if (_base / "kernels_ref" / "transpose").is_dir():
        sys.path.insert(0, str(_base / "kernels_ref" / "transpose"))
        break

_fast = importlib.import_module("v3_tiles_64")


def transpose(x):
    return _fast.transpose(x)
