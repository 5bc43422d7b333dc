"""Returns a tensor subclass that does nothing in the call and computes when the checker first
touches it (reference-kernels #162): the timed call is empty. Only a plain torch.Tensor is
accepted.

Expected verdict: failed
Expected message: tensor subclass
"""

import torch


class Deferred(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})


def softmax(x):
    return torch.empty_like(x).as_subclass(Deferred)
