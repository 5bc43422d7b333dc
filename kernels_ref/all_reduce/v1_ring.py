"""v1: ring all-reduce = reduce-scatter then all-gather, N-1 steps each.

What changed from v0: the tensor is cut into N chunks and every rank talks only to its ring
neighbours. In the reduce-scatter, at step s rank r sends chunk (r - s) mod N to the right and
adds the chunk it receives from the left into chunk (r - s - 1) mod N; after N-1 steps rank r
owns the full sum of chunk (r + 1) mod N. The all-gather passes those finished chunks round
the ring in N-1 more steps. Each link carries 2(N-1)/N x bytes, whatever N: this is why
busbw = algbw x 2(N-1)/N is the figure to compare with the link (nccl-tests' convention), and
why a ring is bandwidth-optimal. What an interviewer wants to hear: 2(N-1) latency terms (the
ring loses to a tree on small messages), and that sizes not divisible by N (and fewer elements
than ranks) give uneven or empty chunks, which `tensor_split` handles.
"""

import torch
import torch.distributed as dist


def _exchange(send: torch.Tensor, recv: torch.Tensor, right: int, left: int, group) -> None:
    """Send to the right and receive from the left at once: every rank posts both, no deadlock."""
    ops = [
        dist.P2POp(dist.isend, send, right, group),
        dist.P2POp(dist.irecv, recv, left, group),
    ]
    for request in dist.batch_isend_irecv(ops):
        request.wait()


def all_reduce(x: torch.Tensor, group: dist.ProcessGroup) -> None:
    """Sum `x` over the ranks of `group`, in place, by a ring.

    x: this rank's contiguous tensor; on return every rank holds the elementwise sum.
    group: the process group; point-to-point sends and receives only.
    """
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    if world == 1:
        return
    right, left = (rank + 1) % world, (rank - 1) % world
    chunks = list(torch.tensor_split(x, world))
    incoming = torch.empty_like(chunks[0])
    for step in range(world - 1):  # reduce-scatter
        out, into = (rank - step) % world, (rank - step - 1) % world
        buffer = incoming[: chunks[into].numel()]
        _exchange(chunks[out], buffer, right, left, group)
        chunks[into].add_(buffer)
    for step in range(world - 1):  # all-gather: pass the finished chunks on
        out, into = (rank + 1 - step) % world, (rank - step) % world
        _exchange(chunks[out], chunks[into], right, left, group)
