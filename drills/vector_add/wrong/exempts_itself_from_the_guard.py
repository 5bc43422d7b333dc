"""Makes the forbidden-op guard take every caller for Triton (guard._triton_dir, a module global
no list named), then calls the library. Every global of the harness's modules is watched.

Expected verdict: rejected
Expected message: gpuprep.harness.guard._triton_dir was replaced
"""

from sys import modules

modules["gpuprep.harness.guard"]._triton_dir = lambda: "/"


def vector_add(x, y):
    return x + y
