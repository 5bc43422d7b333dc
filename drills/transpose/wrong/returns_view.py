"""Returns x.T, a view of the input: right values, and memory the caller still owns. On the first
shape (1 x 1) the view is even contiguous, so what catches it is that it is the input's memory;
on larger shapes it is a strided view, which the contract (contiguous) rules out as well.

Expected verdict: failed
Expected message: memory of input x
"""


def transpose(x):
    return x.t()
