"""Makes the forbidden-op guard take every caller for Triton (guard._triton_dir, a module global
no list named), then calls the library. Every global of the harness's modules is watched.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: rejected
Expected message: no Triton kernel ran
"""

from sys import modules

modules["gpuprep.harness.guard"]._triton_dir = lambda: "/"


def vector_add(x, y):
    return x + y
