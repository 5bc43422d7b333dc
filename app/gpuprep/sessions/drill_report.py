"""Reading the harness's JSON report (`gpuprep submit --json`) into what the practice screen shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class KernelLine:
    """One timed kernel: the submission, a ladder rung, the vendor op or the copy baseline."""

    name: str
    role: str
    status: str
    median_ms: float | None
    gbps: float | None
    pct_of_datasheet: float | None


@dataclass(frozen=True)
class DrillOutcome:
    """A submission's result in the words and figures a candidate reads."""

    status: str
    headline: str
    checks_passed: int
    checks_total: int
    failures: list[str] = field(default_factory=list)
    kernels: list[KernelLine] = field(default_factory=list)
    placement: str = ""
    notes: list[str] = field(default_factory=list)
    datasheet_gbps: float | None = None
    """The bandwidth roof implied by the report (achieved / percent of datasheet), for the plot."""

    @property
    def passed(self) -> bool:
        return self.status == "passed"


def _line(entry: dict[str, Any], role: str) -> KernelLine:
    pct = (entry.get("pct_of_peak") or {}).get("datasheet")
    return KernelLine(
        entry.get("name", role),
        role,
        entry.get("status", ""),
        entry.get("median_ms"),
        entry.get("gbps"),
        pct,
    )


def read_report(report: dict[str, Any]) -> DrillOutcome:
    """Summarise a harness report; tolerant of the parts a CPU run leaves empty."""
    checks = report.get("checks") or []
    failures = [
        f"{check.get('dims')} {check.get('dtype')} {check.get('distribution')}: {check.get('problem') or 'mismatch'}"
        for check in checks
        if not check.get("ok")
    ]
    kernels = []
    achieved = report.get("achieved") or {}
    timing = report.get("timing") or {}
    pct = (report.get("pct_of_peak") or {}).get("datasheet")
    if timing:
        kernels.append(
            KernelLine(
                "your kernel",
                "submission",
                report.get("status", ""),
                timing.get("median_ms"),
                achieved.get("gbps"),
                pct,
            )
        )
    kernels += [_line(entry, "rung") for entry in report.get("ladder") or []]
    for role in ("vendor", "copy"):
        if report.get(role):
            kernels.append(_line(report[role], role))
    roof = None
    if achieved.get("gbps") and pct:
        roof = achieved["gbps"] * 100.0 / pct
    status = report.get("status") or "unknown"
    message = report.get("message") or ""
    headline = f"{status}: {message}" if message else status
    if report.get("mode"):
        headline += f" ({report['mode']} mode)"
    return DrillOutcome(
        status=status,
        headline=headline,
        checks_passed=sum(1 for check in checks if check.get("ok")),
        checks_total=len(checks),
        failures=failures,
        kernels=kernels,
        placement=report.get("placement") or "",
        notes=[*report.get("flags", []), *report.get("notes", [])],
        datasheet_gbps=roof,
    )
