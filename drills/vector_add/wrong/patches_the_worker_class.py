"""Replaces the worker's check_kernel on its class through `import __main__` (the worker runs as
__main__). The snapshot holds every global and class attribute of the harness's modules.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: raised
"""

import torch

import __main__


def _passed(self, kernel, function):
    return {"status": "passed", "message": "", "checks": []}


__main__.Drill.check_kernel = _passed


def vector_add(x, y):
    return torch.zeros_like(x)
