"""Returns an uninitialised tensor of a subclass whose comparisons always succeed (__eq__, isclose,
allclose, sub all say "equal"). Only a plain torch.Tensor is accepted.

Expected verdict: failed
Expected message: plain torch.Tensor
"""

import torch


class AlwaysEqual(torch.Tensor):
    def __eq__(self, other):
        return torch.ones(self.shape, dtype=torch.bool)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("allclose", "equal"):
            return True
        if name in ("isclose", "eq"):
            return torch.ones(args[0].shape, dtype=torch.bool)
        if name == "sub":
            return torch.zeros(args[0].shape)
        return super().__torch_function__(func, types, args, kwargs or {})


def softmax(x):
    return torch.empty_like(x).as_subclass(AlwaysEqual)
