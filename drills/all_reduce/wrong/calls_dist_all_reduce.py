"""Known wrong: right values, but through the library's own collective. Verdict: rejected,
naming torch.distributed.all_reduce (the guard in the rank records the call).
"""

import torch
import torch.distributed as dist


def all_reduce(x: torch.Tensor, group) -> None:
    dist.all_reduce(x, group=group)
