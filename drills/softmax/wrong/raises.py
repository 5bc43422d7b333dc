"""Raises on some shapes: the verdict carries the traceback's tail.

Expected verdict: failed
Expected message: ValueError
"""


def softmax(x):
    rows, cols = x.shape
    raise ValueError(f"cannot handle {rows} x {cols} yet")
