"""Never returns: the worker is killed at the time limit and the app carries on.

Expected verdict: timeout
Expected message: no answer
"""


def transpose(x):
    while True:
        pass
