"""Makes the audit watch call every caller a library (a class attribute, inside the call), then
scrapes gc. The hook checks its own module and classes before judging an event.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: raised
"""

from sys import modules

import torch

import __main__


def _ok(*args, **kwargs):
    return {"ok": True, "problem": "", "rel_err": 0.0, "max_abs_err": 0.0, "first_mismatch": None}


def vector_add(x, y):
    watch_class = modules["gpuprep.harness.integrity"].AuditWatch
    watch_class._by_a_library = lambda *args: True
    collector = __main__.gc
    for obj in collector.get_objects():
        if type(obj).__name__ == "Drill":
            obj.snapshot.problems = lambda: []
            obj.watch.take()
            obj._check_output = _ok
    return torch.zeros_like(x)
