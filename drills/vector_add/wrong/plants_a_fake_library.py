"""Plants a fake `cupy` in sys.modules whose file is this one, so its gc walk would read as
CuPy's. The watch takes the libraries' folders at start-up.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: raised
"""

import types
from sys import modules

import torch

import __main__

_fake = types.ModuleType("cupy")
_fake.__file__ = __file__
modules["cupy"] = _fake


def _ok(*args, **kwargs):
    return {"ok": True, "problem": "", "rel_err": 0.0, "max_abs_err": 0.0, "first_mismatch": None}


def vector_add(x, y):
    collector = __main__.gc
    for obj in collector.get_objects():
        if type(obj).__name__ == "Drill":
            obj.snapshot.problems = lambda: []
            obj.watch.take()
            obj._check_output = _ok
    return torch.zeros_like(x)
