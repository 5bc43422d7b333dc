"""Adds its own audit hook: CPython 3.11 hands sys._getframe's frame to every hook, and the
harness calls sys._getframe itself (its guard, its audit watch). Adding a hook is refused.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: wrong output
"""

from string import Formatter
from sys import addaudithook

import torch

_field = Formatter().get_field
_frames = []
addaudithook(
    lambda event, args: _frames.append(args[0]) if event == "sys._getframe" and args else None
)


def _ok(*args, **kwargs):
    return {"ok": True, "problem": "", "rel_err": 0.0, "max_abs_err": 0.0, "first_mismatch": None}


def vector_add(x, y):
    for frame in list(_frames):
        while frame is not None:
            worker = _field("0.f_locals", (frame,), {})[0].get("self")
            if type(worker).__name__ == "Drill":
                worker.snapshot._instances["the worker"][1]["_check_output"] = _ok
                worker._check_output = _ok
            frame = _field("0.f_back", (frame,), {})[0]
    return torch.zeros_like(x)
