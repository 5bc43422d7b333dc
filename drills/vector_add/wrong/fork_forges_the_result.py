"""Forks; the child finds the result channel in its copy of memory and reports a pass before the
parent's own verdict. A fork is refused, not only noted.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: failed
Expected message: raised
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
