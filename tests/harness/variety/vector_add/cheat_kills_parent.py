"""Kills its parent process (hoping that is the checker, and that a silent checker counts as a
pass), then returns zeros. The judge is not the sandbox's parent, or outlives it: the verdict is
the one zeros deserve.

Expected verdict: failed
Expected message: wrong output
"""

import os
import signal

import torch


def vector_add(x, y):
    try:
        os.kill(os.getppid(), signal.SIGKILL)
    except OSError:
        pass
    return torch.zeros_like(x)
