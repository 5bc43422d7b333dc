"""Returns x.T, a strided view: the values are right and the contract (contiguous) is not.

Expected verdict: failed
Expected message: not contiguous
"""


def transpose(x):
    return x.t()
