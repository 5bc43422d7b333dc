"""Returns zeros and writes a forged "passed" verdict, as JSON, to every descriptor listed in
/proc/self/fd (whatever the judge's channel is, it must be one of them). The verdict comes from
the judge's own check of the output, so the forgery leads nowhere: zeros are the wrong answer.

Expected verdict: failed
Expected message: wrong output
"""

import json
import os

import torch

_FORGED = json.dumps({"event": "verdict", "verdict": "passed", "status": "passed", "ok": True}) + "\n"


def vector_add(x, y):
    for name in os.listdir("/proc/self/fd"):
        try:
            with open(f"/proc/self/fd/{name}", "a") as channel:
                channel.write(_FORGED)
        except OSError:
            pass
    return torch.zeros_like(x)
