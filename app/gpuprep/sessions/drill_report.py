"""A submission's report in the words and figures the practice screen shows beside the drill."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field

from gpuprep.harness.api import CPU_NOTE
from gpuprep.harness.report import KernelLine, Status, SubmitReport


@dataclass(frozen=True)
class KernelRow:
    """One timed kernel of the table: the submission, a ladder rung, the vendor op or the copy."""

    name: str
    role: str
    status: str
    median_ms: float | None
    gbps: float | None
    pct_of_datasheet: float | None


@dataclass(frozen=True)
class DrillOutcome:
    """A submission's result in the words and figures a candidate reads."""

    status: Status
    headline: str
    """'passed (gpu mode)', or the status and why: 'failed: wrong output for n=1000 ...'."""
    checks_passed: int
    checks_total: int
    failures: list[str] = field(default_factory=list)
    """One line per failed correctness case."""
    kernels: list[KernelRow] = field(default_factory=list)
    placement: str = ""
    notes: list[str] = field(default_factory=list)
    """The report's flags, the source lint's warnings, then the notes."""
    datasheet_gbps: float | None = None
    """The bandwidth roof implied by the report (achieved / percent of datasheet), for the plot."""

    @property
    def passed(self) -> bool:
        return self.status is Status.PASSED


def _row(line: KernelLine, role: str) -> KernelRow:
    return KernelRow(
        line.name,
        role,
        line.status.value,
        line.median_ms,
        line.gbps,
        line.pct_of_peak.datasheet,
    )


def headline(report: SubmitReport) -> str:
    """The status, why, and where it ran: what a list of past submissions shows."""
    text = f"{report.status.value}: {report.message}" if report.message else report.status.value
    return f"{text} ({report.mode.value} mode)" if report.mode else text


def summarise(report: SubmitReport) -> DrillOutcome:
    """What the practice screen shows of a report; a CPU run has no table and no roof."""
    failures = [
        f"{', '.join(f'{k}={v}' for k, v in {**check.dims, **check.params}.items())} {check.dtype} "
        f"{check.distribution}: {check.problem or 'mismatch'}"
        for check in report.checks
        if not check.ok
    ]
    datasheet_pct = report.pct_of_peak.datasheet if report.pct_of_peak else None
    achieved_gbps = report.achieved.gbps if report.achieved else None
    kernels = []
    if report.timing:
        kernels.append(
            KernelRow(
                "your kernel",
                "submission",
                report.status.value,
                report.timing.median_ms,
                achieved_gbps,
                datasheet_pct,
            )
        )
    kernels += [_row(line, "rung") for line in report.ladder]
    kernels += [
        _row(line, role)
        for role, line in (("vendor", report.vendor), ("copy", report.copy))
        if line
    ]
    return DrillOutcome(
        status=report.status,
        headline=headline(report),
        checks_passed=sum(1 for check in report.checks if check.ok),
        checks_total=len(report.checks),
        failures=failures,
        kernels=kernels,
        placement=report.placement,
        notes=[
            *report.flags,
            *(f"warning: {warning}" for warning in report.warnings),
            *report.notes,
        ],
        datasheet_gbps=achieved_gbps * 100.0 / datasheet_pct
        if achieved_gbps and datasheet_pct
        else None,
    )


def nvidia_gpu_listed() -> bool:
    """Whether `nvidia-smi -L` lists a GPU: the machine has one, whatever this torch can see."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return False
    try:
        done = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return any(line.startswith("GPU ") for line in done.stdout.splitlines())


def notes_to_show(
    notes: list[str],
    *,
    bench: bool,
    cpu_asked: bool,
    gpu_listed: Callable[[], bool] | None = None,
) -> list[str]:
    """A report's notes as a reader wants them: 'timing needs a CUDA GPU' only where timing was
    expected, that is on `bench` (timing is its point) or with a GPU in the machine and no
    --cpu asked (then torch or the driver is what stopped it). A CPU run on a machine without
    a GPU, or one asked for with --cpu, already says 'CPU' in its first line.

    `gpu_listed` is asked only when it decides (default: :func:`nvidia_gpu_listed`)."""
    if CPU_NOTE not in notes or bench:
        return list(notes)
    if not cpu_asked and (gpu_listed or nvidia_gpu_listed)():
        return list(notes)
    return [note for note in notes if note != CPU_NOTE]
