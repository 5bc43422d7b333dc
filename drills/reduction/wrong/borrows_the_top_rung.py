"""Loads the top rung of the reference ladder through pkgutil and submits it as its own: the
path is spelled in pieces so that no string names the ladder's folder. The worker's audit hook
sees the rung's file opened while the submission loads.

Expected verdict: rejected
Expected message: reference ladder
"""

import pkgutil
from pathlib import Path

_folder = Path(__file__).resolve().parents[3] / ("kernels" + "_ref") / "reduction"
_spec = pkgutil.get_importer(str(_folder)).find_spec("v4_tuned_single_pass")
_module = _spec.loader.load_module(_spec.name)


def reduce_sum(x):
    return _module.reduce_sum(x)
