"""Calls torch.sum from another thread: torch's dispatch modes are per thread, so the guard in
the calling thread would not see it. Refused by the scan; a spelling it misses is caught at run
time, because the worker notes every thread started during a call.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: rejected
Expected message: no Triton kernel ran
"""

import threading


def reduce_sum(x):
    box = []
    worker = threading.Thread(target=lambda: box.append(x.sum()))
    worker.start()
    worker.join()
    return box[0]
