"""Hands the work to torch.sum through a method call: the guard sees aten::sum whatever the spelling.

Expected verdict: rejected
Expected message: aten::sum
"""


def reduce_sum(x):
    return x.sum()
