"""Tries to read the checker's memory through /proc/<ppid>/mem (its heap holds the seed and the
expected sums), keeps what it finds for the next call, and returns zeros for now. The judge is not
dumpable and is not the submission's process, and zeros are the wrong answer.

Expected verdict: failed
Expected message: wrong output
"""

import os

import torch

_LOOT = []


def _peek_parent():
    found = b""
    ppid = os.getppid()
    try:
        with open(f"/proc/{ppid}/maps") as maps, open(f"/proc/{ppid}/mem", "rb", 0) as mem:
            for line in maps:
                span, perms = line.split()[:2]
                if "rw" in perms and "[heap]" in line:
                    lo, hi = (int(v, 16) for v in span.split("-"))
                    mem.seek(lo)
                    found += mem.read(min(hi - lo, 1 << 20))
    except (OSError, ValueError):
        pass
    return found


def reduce_sum(x):
    loot = _peek_parent()
    if loot:
        _LOOT.append(loot)
    return torch.zeros((), dtype=torch.float32, device=x.device)
