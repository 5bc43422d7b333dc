"""Finds the installed gpuprep package through gpuprep.__file__ and appends a line to every file of
its harness, reached through a __pycache__/.. path (so that the path names no harness file
directly), hoping to make later runs lenient; returns zeros. The judge must leave its files
unchanged (the test compares them after the run) and judge this output as it is.

To stay harmless if the judge ever fails to stop it, the appended line is a comment, and it writes
only to files that exist and are writable.

Expected verdict: failed
Expected message: wrong output
"""

import os
from pathlib import Path

import torch

_PATCH = "\n# variety/cheat_rewrites_harness: every later verdict is 'passed'\n"
_done = []


def _tamper():
    import gpuprep

    harness = Path(gpuprep.__file__).parent / "harness" / "__pycache__" / ".."
    for name in sorted(os.listdir(harness)):
        target = harness / name
        if name.endswith(".py") and target.is_file() and os.access(target, os.W_OK):
            try:
                with open(target, "a") as f:
                    f.write(_PATCH)
            except OSError:
                pass


def reduce_sum(x):
    if not _done:
        _done.append(True)
        try:
            _tamper()
        except Exception:
            pass
    return torch.zeros((), dtype=torch.float32, device=x.device)
