"""Calls torch.sum from another thread: torch's dispatch modes are per thread, so the guard in
the calling thread would not see it. Refused by the scan; a spelling it misses is caught at run
time, because the worker notes every thread started during a call.

Expected verdict: rejected
Expected message: threads
"""

import threading


def reduce_sum(x):
    box = []
    worker = threading.Thread(target=lambda: box.append(x.sum()))
    worker.start()
    worker.join()
    return box[0]
