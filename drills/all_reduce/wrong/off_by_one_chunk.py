"""Known wrong: a ring whose all-gather starts one chunk early.

After the reduce-scatter rank r owns the finished chunk (r + 1) mod N, but this all-gather sends
chunk r first: a partial sum goes round the ring and overwrites finished chunks. Verdict: failed.
"""

import torch
import torch.distributed as dist


def _exchange(send, recv, right, left, group):
    ops = [dist.P2POp(dist.isend, send, right, group), dist.P2POp(dist.irecv, recv, left, group)]
    for request in dist.batch_isend_irecv(ops):
        request.wait()


def all_reduce(x: torch.Tensor, group) -> None:
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    right, left = (rank + 1) % world, (rank - 1) % world
    chunks = list(torch.tensor_split(x, world))
    incoming = torch.empty_like(chunks[0])
    for step in range(world - 1):
        out, into = (rank - step) % world, (rank - step - 1) % world
        buffer = incoming[: chunks[into].numel()]
        _exchange(chunks[out], buffer, right, left, group)
        chunks[into].add_(buffer)
    for step in range(world - 1):
        out, into = (rank - step) % world, (rank - step - 1) % world  # should be rank + 1 - step
        _exchange(chunks[out], chunks[into], right, left, group)
