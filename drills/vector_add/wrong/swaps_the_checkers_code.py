"""Gives the bound checker another function's code: the same object, so identity checks hold.
Setting __code__ is audited and refused; the snapshot compares each function's code too.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: wrong output
"""

from string import Formatter
from sys import modules

import torch


def _ok(out, expected, expected_dtype, device, tolerance, scale=None):
    return {"ok": True, "problem": "", "rel_err": 0.0, "max_abs_err": 0.0, "first_mismatch": None}


_checker = modules["gpuprep.harness.checking"].check_output
object.__setattr__(_checker, "__" + "code__", Formatter().get_field("0.__code__", (_ok,), {})[0])


def vector_add(x, y):
    return torch.zeros_like(x)
