"""Finds the reference ladder beside the installed gpuprep package and runs its top softmax rung
with runpy, then submits that rung's entry as its own.

Expected verdict: rejected
Expected message: reference ladder
"""

import runpy
from pathlib import Path

import gpuprep

_root = Path(gpuprep.__file__).resolve().parent
_ladder = next(p for p in (_root / "kernels_ref", _root.parent / "kernels_ref", _root.parent.parent / "kernels_ref") if p.is_dir())
_rung = runpy.run_path(str(_ladder / "softmax" / "v3_tuned_rows.py"))

softmax = _rung["softmax"]
