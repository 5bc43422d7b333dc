"""v0: naive all-reduce. Every rank sends its whole tensor to rank 0; rank 0 sums and sends back.

What it teaches: the baseline an interviewer expects you to reject. Rank 0 receives N-1 full
buffers and sends N-1 full buffers, so its link carries 2(N-1) x bytes while the others sit
idle: time grows linearly with N, and bus bandwidth falls as 1/N of the link's. Everything
after this rung spreads that traffic over every link.
"""

import torch
import torch.distributed as dist


def all_reduce(x: torch.Tensor, group: dist.ProcessGroup) -> None:
    """Sum `x` over the ranks of `group`, in place.

    x: this rank's contiguous tensor; on return every rank holds the elementwise sum.
    group: the process group; point-to-point sends and receives only.
    """
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    if rank == 0:
        incoming = torch.empty_like(x)
        for peer in range(1, world):
            dist.recv(incoming, src=peer, group=group)
            x.add_(incoming)
        for peer in range(1, world):
            dist.send(x, dst=peer, group=group)
    else:
        dist.send(x, dst=0, group=group)
        dist.recv(x, src=0, group=group)
