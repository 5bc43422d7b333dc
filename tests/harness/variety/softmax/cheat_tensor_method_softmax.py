"""Upcasts and calls the tensor method .softmax, "to check my kernel against" and then forgot to
switch back: aten::_softmax runs in the call, which the drill forbids.

Expected verdict: rejected
Expected message: which this drill forbids
"""


def softmax(x):
    return x.float().softmax(dim=1).to(x.dtype)
