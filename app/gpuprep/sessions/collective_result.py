"""A collective drill's report (gpuprep.collective) as a saved drill result reads it.

The collective judge reports per size (`collective.protocol.Report`), not in the single-GPU
`SubmitReport`'s shape, so the figures a history follows are read here: where it ran, and the
time of the headline size. The headline is the largest timed size (the first of equal ones, so
fp32 1 GiB before bf16 1 GiB): the size where bandwidth, not latency, decides, and the same one
in every GPU run of a spec. A CPU run (gloo) checks correctness and is not timed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuprep.collective.protocol import Report

#: What a collective submission is written in (DrillResult.language): torch.distributed calls.
LANGUAGE = "torch"
#: The stored detail's marker: this result is a collective judge's report.
KIND = "collective"


def headline(report: Report) -> str:
    """The status, why, and the backend it ran on: what a list of past submissions shows (the
    judge's message already says how many ranks)."""
    text = f"{report['status']}: {report['message']}" if report["message"] else report["status"]
    return f"{text} ({report['backend']})"


def detail(drill_id: str, report: Report) -> dict[str, Any]:
    """The report as the store keeps it: whole, plus the drill's id and the marker."""
    return {**report, "drill": drill_id, "kind": KIND}


def is_collective(detail: Mapping[str, Any]) -> bool:
    """Whether a stored detail is a collective judge's report."""
    return detail.get("kind") == KIND


def mode(detail: Mapping[str, Any]) -> str | None:
    """'gpu' for NCCL ranks, 'cpu' for gloo ranks (None when the report never said)."""
    return {"nccl": "gpu", "gloo": "cpu"}.get(str(detail.get("backend")))


def headline_case(detail: Mapping[str, Any]) -> dict[str, Any] | None:
    """The largest timed size of the run (the first of equal sizes), or None if none was timed."""
    timed = [
        case
        for case in detail.get("cases") or []
        if isinstance(case, dict) and case.get("median_ms")
    ]
    return max(timed, key=lambda case: int(case.get("bytes") or 0), default=None)
