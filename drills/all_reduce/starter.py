"""Starter for the all_reduce drill: correct on any number of ranks, and slow.

A chain: rank 0 sends its tensor to rank 1, which adds its own and passes the running sum to
rank 2, and so on; the last rank holds the sum and sends it back down the chain. Every byte
crosses N-1 links one after the other, twice, and only one link is busy at a time. Use only
send/recv/isend/irecv (or batch_isend_irecv) of `group`: dist.all_reduce, reduce_scatter,
all_gather, broadcast and the other collectives are refused. Ideas: a ring (reduce-scatter,
then all-gather) keeps every link busy; then cut each chunk into slices and pipeline them.
"""

import torch
import torch.distributed as dist


def all_reduce(x: torch.Tensor, group: dist.ProcessGroup) -> None:
    """Sum `x` (contiguous, fp32 or bf16) over the ranks of `group`, in place."""
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    if rank > 0:  # add the running sum from the rank below
        incoming = torch.empty_like(x)
        dist.recv(incoming, src=rank - 1, group=group)
        x.add_(incoming)
    if rank < world - 1:  # pass it up, then wait for the total to come back down
        dist.send(x, dst=rank + 1, group=group)
        dist.recv(x, src=rank + 1, group=group)
    if rank > 0:
        dist.send(x, dst=rank - 1, group=group)
