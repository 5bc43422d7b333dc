"""Never returns: the worker is killed at the time limit and the app carries on.

In the judge and sandbox design this reaches nothing the judge trusts: the verdict follows from what the call did.
Expected verdict: timeout
Expected message: took over
"""


def transpose(x):
    while True:
        pass
