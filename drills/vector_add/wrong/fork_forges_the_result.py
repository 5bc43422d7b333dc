"""Forks; the child finds the result channel in its copy of memory and reports a pass before the
parent's own verdict. A fork is refused, not only noted.

Expected verdict: rejected
Expected message: started a process (os.fork)
"""

from sys import modules

import torch

import __main__


def vector_add(x, y):
    collector, system = __main__.gc, modules["os"]
    if system.fork() == 0:
        for obj in collector.get_objects():
            if type(obj).__name__ == "Channel":
                obj.send(
                    "kernel",
                    result={
                        "name": "fork",
                        "role": "submission",
                        "language": "triton",
                        "status": "passed",
                        "message": "",
                        "checks": [],
                    },
                )
        system._exit(0)
    system.wait()
    return torch.zeros_like(x)
