"""Known wrong: every rank receives before it sends, so every rank waits on its left neighbour
forever. Verdict: timeout, naming every rank.
"""

import torch
import torch.distributed as dist


def all_reduce(x: torch.Tensor, group) -> None:
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    right, left = (rank + 1) % world, (rank - 1) % world
    incoming = torch.empty_like(x)
    for _ in range(world - 1):
        dist.recv(incoming, src=left, group=group)  # blocking, and nobody has sent yet
        dist.send(x, dst=right, group=group)
        x.add_(incoming)
