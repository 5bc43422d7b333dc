"""Known wrong: rank 1 raises before sending, leaving the others waiting on it. Verdict:
crashed, naming rank 1, at once (not after the timeout).
"""

import torch
import torch.distributed as dist


def all_reduce(x: torch.Tensor, group) -> None:
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    if rank == 1:
        raise RuntimeError("chunk index out of range")
    incoming = torch.empty_like(x)
    dist.recv(incoming, src=(rank - 1) % world, group=group)
