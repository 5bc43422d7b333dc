"""Pops the guard's dispatch mode around the library call and pushes it back (torch._C by an
alias). Not caught at run time yet: the scan refuses any `._C`.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: rejected
Expected message: no Triton kernel ran
"""

import torch as T


def vector_add(x, y):
    mode = T._C._pop_torch_dispatch_stack(None)
    try:
        return T.add(x, y)
    finally:
        T._C._push_on_torch_dispatch_stack(mode)
