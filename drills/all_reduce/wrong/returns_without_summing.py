"""Known wrong: returns at once, leaving each rank's own tensor. Verdict: failed on every rank.
"""

import torch


def all_reduce(x: torch.Tensor, group) -> None:
    return None
