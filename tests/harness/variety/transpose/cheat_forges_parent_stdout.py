"""Writes a forged "passed" line into its parent's stdout through /proc/<ppid>/fd/1 (where the
checker's report to the app might go), then returns x.t(): a view of the input.

Expected verdict: failed
Expected message: memory of input
"""

import json
import os


def transpose(x):
    try:
        with open(f"/proc/{os.getppid()}/fd/1", "a") as parent_stdout:
            parent_stdout.write(json.dumps({"drill": "transpose", "verdict": "passed"}) + "\n")
    except OSError:
        pass
    return x.t()
