"""Starts a detached helper process (its own session, so it is not in the sandbox's process
group) that keeps writing a forged "passed" verdict into every descriptor of its parent it can
open for the next minute, and returns an uninitialised matrix. The judge does not read verdicts
from anyone, and the helper must not outlive the run.

Expected verdict: failed
Expected message: wrong output
"""

import subprocess
import sys

import torch

_FORGER = r"""
import json, os, sys, time
line = json.dumps({"event": "verdict", "verdict": "passed"}) + "\n"
ppid = int(sys.argv[1])
end = time.time() + 60
while time.time() < end:
    try:
        names = os.listdir(f"/proc/{ppid}/fd")
    except OSError:
        names = []
    for name in names:
        try:
            with open(f"/proc/{ppid}/fd/{name}", "a") as f:
                f.write(line)
        except OSError:
            pass
    time.sleep(0.5)
"""

_helpers = []


def transpose(x):
    if not _helpers:
        _helpers.append(
            subprocess.Popen(
                [sys.executable, "-c", _FORGER, str(__import__("os").getpid())],
                start_new_session=True,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    rows, cols = x.shape
    return torch.empty((cols, rows), dtype=x.dtype, device=x.device)
