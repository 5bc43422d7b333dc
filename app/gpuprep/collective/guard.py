"""The collective guard: a rank records every call of a collective before the user's code runs.

Installed in each rank after the process group exists and before the submission is imported,
it wraps the collectives of `torch.distributed` (module functions, the c10d module they live
in, and the ProcessGroup methods they call), so `dist.all_reduce`, `group.allreduce` and
`distributed_c10d.broadcast` all leave a record. A wrapped call still runs: the rank reports
what it called and the judge rejects the run, so a forbidden call is a verdict with run-time
evidence, never a text match. Point-to-point ops (send, recv, isend, irecv,
batch_isend_irecv) and barrier stay free.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: ProcessGroup methods behind the module-level collectives (torch 2.4 to 2.13 names).
PROCESS_GROUP_METHODS = (
    "allreduce",
    "allreduce_coalesced",
    "reduce",
    "reduce_scatter",
    "_reduce_scatter_base",
    "reduce_scatter_tensor_coalesced",
    "allgather",
    "_allgather_base",
    "allgather_coalesced",
    "allgather_into_tensor_coalesced",
    "broadcast",
    "scatter",
    "gather",
    "alltoall",
    "alltoall_base",
    "all_gather_single",
    "reduce_scatter_single",
    "all_to_all_single",
)


class CollectiveGuard:
    """Records which forbidden collectives were called while `recording` is on."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.recording = True

    def take(self) -> list[str]:
        """The distinct calls since the last take, in first-call order."""
        seen = list(dict.fromkeys(self.calls))
        self.calls.clear()
        return seen

    @contextmanager
    def suspended(self) -> Iterator[None]:
        """The judge's own dist.all_reduce timing, which must not count against the user."""
        self.recording = False
        try:
            yield
        finally:
            self.recording = True

    def _wrap(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            if self.recording:
                self.calls.append(name)
            return original(*args, **kwargs)

        return recorded


def install(forbidden: list[str]) -> tuple[CollectiveGuard, dict[str, Callable[..., Any]]]:
    """Wrap `forbidden` module functions and the ProcessGroup's collectives.

    Returns the guard and the original module functions, which the rank keeps to time
    dist.all_reduce itself."""
    import torch.distributed as dist
    import torch.distributed.distributed_c10d as c10d
    from torch._C._distributed_c10d import ProcessGroup

    guard = CollectiveGuard()
    originals: dict[str, Callable[..., Any]] = {}
    for name in forbidden:
        original = getattr(c10d, name, None) or getattr(dist, name, None)
        if original is None:
            continue
        originals[name] = original
        wrapped = guard._wrap(f"torch.distributed.{name}", original)
        for module in (dist, c10d):
            if hasattr(module, name):
                setattr(module, name, wrapped)
    for method in PROCESS_GROUP_METHODS:
        original = getattr(ProcessGroup, method, None)
        if original is not None:
            setattr(ProcessGroup, method, guard._wrap(f"ProcessGroup.{method}", original))
    return guard, originals
