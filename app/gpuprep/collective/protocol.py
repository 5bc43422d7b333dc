"""What the app sends the collective judge and what comes back: plain JSON, no pydantic.

The judge runs where the GPUs are and imports torch and the stdlib only, so the request and
the report are TypedDicts that travel as JSON (stdin and stdout of `python -m
gpuprep.collective.judge`). Ranks and judge speak JSON too: the judge never unpickles what a
rank sends.
"""

from __future__ import annotations

from typing import Literal, TypedDict

#: A case's dtype, as torch names it.
DTypeName = Literal["float32", "bfloat16"]
Status = Literal["passed", "failed", "rejected", "timeout", "crashed"]


class CaseSpec(TypedDict):
    """One size the submission is run on."""

    label: str
    """What the size is for ('one element', 'not divisible by N', '1 GiB')."""
    numel: int
    """Elements in each rank's tensor."""
    dtype: DTypeName
    """The tensor's dtype."""
    check: bool
    """Compare every rank's result with the judge's float64 sum (False: timing only)."""
    timed: bool
    """Time the submission and dist.all_reduce on this size."""


class Request(TypedDict):
    """One judge run: one file on N ranks over every case."""

    file: str
    """The submission (or rung) to load in every rank."""
    entry: str
    """The function each rank calls as entry(x, group)."""
    ranks: int
    """How many rank processes (world size)."""
    device: Literal["cpu", "cuda"]
    """cpu: gloo on shared memory; cuda: NCCL, rank r on GPU r."""
    cases: list[CaseSpec]
    """The sizes, in order; correctness cases first."""
    tolerance: dict[str, float]
    """Per dtype: allowed error per rank, relative to the sum of |x| over ranks at that element."""
    forbidden: list[str]
    """torch.distributed functions a submission may not call (the guard records them)."""
    case_timeout_s: float
    """Seconds one case may take on every rank before the judge names the ranks and ends all."""
    startup_timeout_s: float
    """Seconds for the ranks to start, join the group and load the file."""
    warmup: int
    """Untimed calls before timing a case."""
    iters: int
    """Timed calls per case (the median is reported)."""
    vendor: bool
    """Also time dist.all_reduce on the timed cases, in the same ranks."""


class CaseResult(TypedDict, total=False):
    """The verdict and figures of one case."""

    label: str
    numel: int
    dtype: str
    bytes: int
    """Bytes in one rank's tensor."""
    ok: bool
    """Every rank's result within tolerance (True for a timing-only case that ran)."""
    checked: bool
    """Whether the values were compared (False for timing-only sizes)."""
    max_rel_err: float | None
    """Worst |result - sum| / (sum of |x|) over ranks and elements."""
    bad_ranks: list[int]
    """Ranks with at least one element out of tolerance."""
    message: str
    """What was wrong, naming the rank and the first bad element."""
    median_ms: float | None
    """Median over timed calls of the slowest rank's time."""
    algbw_gbps: float | None
    """bytes / time."""
    busbw_gbps: float | None
    """algbw x 2(N-1)/N, the nccl-tests convention."""
    vendor_ms: float | None
    """dist.all_reduce on the same size, in the same run."""
    vendor_busbw_gbps: float | None
    share_of_vendor: float | None
    """busbw / vendor busbw."""


class Report(TypedDict):
    """The judge's verdict on one run."""

    status: Status
    """passed | failed (a wrong value) | rejected (a forbidden call) | timeout | crashed."""
    message: str
    """One line a user reads first; names the rank where one rank was at fault."""
    file: str
    ranks: int
    device: str
    """'cpu (gloo)' or the GPU's name (NCCL)."""
    backend: str
    cases: list[CaseResult]
    forbidden_calls: dict[str, list[str]]
    """Rank (as text) -> the forbidden functions it called."""
    traceback: str
    """The failing rank's traceback, when one raised."""
    elapsed_s: float


def bus_bandwidth_gbps(numel_bytes: int, ranks: int, ms: float) -> tuple[float, float]:
    """(algbw, busbw) in GB/s for an all-reduce of `numel_bytes` per rank taking `ms`.

    busbw = algbw x 2(N-1)/N: a ring moves 2(N-1)/N of the buffer over each link, so busbw is
    comparable with the link's bandwidth whatever N is (nccl-tests' PERFORMANCE.md)."""
    algbw = numel_bytes / (ms * 1e-3) / 1e9
    return algbw, algbw * 2 * (ranks - 1) / ranks
