"""Figures from the judge's results: GB/s, shares of each ceiling, flags and ladder placement.

App side, standard library only: the ceilings arrive as plain numbers (the GPU's datasheet
bandwidth from its hardware table, a calibrated copy if one was measured), so this module
knows nothing of the bank models. The judge's results are its events' dicts, the contract
between the two processes; what comes out is the typed lines of `harness.report`.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from dataclasses import dataclass

from gpuprep.harness.report import (
    JSON,
    Ceilings,
    KernelLine,
    PeakShare,
    ShapeLine,
    Status,
    Timing,
)
from gpuprep.harness.runner import WorkerRun

#: Two medians closer than this are level: the harness's own run-to-run spread is about 1-2%.
LEVEL = 0.03
#: A time this much under the speed-of-light bound is flagged (clock and table slack).
SOL_SLACK = 1.05


@dataclass(frozen=True)
class Figures:
    """median_ms, GB/s and TFLOP/s of one timed row (all None when it was not timed)."""

    median_ms: float | None = None
    gbps: float | None = None
    tflops: float | None = None


def headline_row(result: JSON | None) -> JSON | None:
    """The first benchmark shape's row of a kernel's result, if it was timed."""
    if not result or not result.get("bench"):
        return None
    row: JSON = result["bench"][0]
    return row if row.get("status") == "passed" and row.get("timing") else None


def figures(row: JSON | None) -> Figures:
    """The figures of one timed row of the judge's results."""
    if row is None:
        return Figures()
    seconds = row["timing"]["median_ms"] / 1e3
    gbps = row["bytes"] / seconds / 1e9 if row.get("bytes") and seconds > 0 else None
    tflops = row["flops"] / seconds / 1e12 if row.get("flops") and seconds > 0 else None
    return Figures(row["timing"]["median_ms"], gbps, tflops)


def _percent(value: float | None, ceiling: float | None) -> float | None:
    return None if value is None or not ceiling else 100.0 * value / ceiling


def pct_of_peak(gbps: float | None, ceilings: Ceilings, copy_gbps: float | None) -> PeakShare:
    """Achieved bandwidth as a percentage of the datasheet, this run's copy, and the calibrated copy."""
    return PeakShare(
        datasheet=_percent(
            gbps, ceilings.datasheet_bandwidth / 1e9 if ceilings.datasheet_bandwidth else None
        ),
        copy_this_run=_percent(gbps, copy_gbps),
        calibrated=_percent(
            gbps, ceilings.calibrated_bandwidth / 1e9 if ceilings.calibrated_bandwidth else None
        ),
    )


def speed_of_light_flag(gbps: float | None, ceilings: Ceilings, copy_gbps: float | None) -> str:
    """A message when a kernel moved its bytes faster than the memory can, else ''."""
    if gbps is None:
        return ""
    bound = (
        ceilings.datasheet_bandwidth / 1e9
        if ceilings.datasheet_bandwidth
        else (copy_gbps * 1.15 if copy_gbps else None)
    )
    if bound and gbps > SOL_SLACK * bound:
        return (
            f"{gbps:.0f} GB/s is faster than the memory can deliver ({bound:.0f} GB/s): the kernel "
            "cannot have moved the drill's bytes; suspect skipped work or a timing escape"
        )
    return ""


def placement(
    median_ms: float | None, ladder: Sequence[KernelLine], summaries: dict[str, str]
) -> str:
    """Where a time sits on the ladder and which rung is the next step."""
    timed = [(rung.name, rung.median_ms) for rung in ladder if rung.median_ms]
    if median_ms is None or not timed:
        return ""
    for index, (name, ms) in enumerate(timed):
        if abs(median_ms - ms) <= LEVEL * ms:
            if index + 1 < len(timed):
                following = timed[index + 1][0]
                return f"level with {name}; next: {following}: {summaries.get(following, '')}"
            return f"level with the top rung {name}"
        if ms < median_ms:
            if index == 0:
                return f"slower than {name}, the first rung; start there: {summaries.get(name, '')}"
            return (
                f"between {timed[index - 1][0]} and {name}; next: {name}: {summaries.get(name, '')}"
            )
    return f"faster than the top rung {timed[-1][0]}"


def _signal_name(returncode: int | None) -> str:
    if returncode is None or returncode >= 0:
        return f"exit code {returncode}"
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def run_failure(run: WorkerRun, timeout_s: float, running: str) -> tuple[Status, str] | None:
    """(status, message) when the worker itself did not finish cleanly, else None."""
    if run.tampered:
        return Status.REJECTED, f"{run.tampered}: results can only come from the harness"
    if run.timed_out:
        return (
            Status.TIMEOUT,
            f"no answer within {timeout_s:g} s while running {running}; the worker was killed",
        )
    if run.fatal:
        return Status.CRASHED, f"the worker failed: {run.fatal}"
    if not run.finished:
        tail = "\n".join(line for line in run.log_tail.strip().splitlines()[-8:])
        how = (
            "segmentation fault"
            if run.returncode == -signal.SIGSEGV
            else _signal_name(run.returncode)
        )
        return Status.CRASHED, f"the worker died ({how}) while running {running}" + (
            f"; its last output:\n{tail}" if tail else ""
        )
    return None


def timing_of(row: JSON | None) -> Timing | None:
    """The summary fields of a timed row's timing."""
    return Timing.from_json(row["timing"]) if row is not None else None


def with_flag(flags: list[str], flag: str) -> list[str]:
    """The flags with one more, unless it is ''."""
    return [*flags, flag] if flag else list(flags)


def summarise_kernel(result: JSON, ceilings: Ceilings, copy_gbps: float | None) -> KernelLine:
    """One ladder, vendor or copy line from the judge's result for that kernel."""
    row = headline_row(result)
    numbers = figures(row)
    return KernelLine(
        name=result["name"],
        status=Status(result["status"]),
        role=result.get("role"),
        language=result.get("language"),
        message=result.get("message", ""),
        median_ms=numbers.median_ms,
        gbps=numbers.gbps,
        tflops=numbers.tflops,
        cases=len(result["checks"]) if result.get("checks") else None,
        pct_of_peak=pct_of_peak(numbers.gbps, ceilings, copy_gbps),
        # The kernel's own flags (a rung without the method it teaches), then the headline's.
        flags=with_flag(
            list(result.get("flags") or []) + (list(row.get("flags", [])) if row else []),
            speed_of_light_flag(numbers.gbps, ceilings, copy_gbps),
        ),
        timing=timing_of(row),
        shapes=shape_lines(result, ceilings, copy_gbps),
    )


def shape_lines(result: JSON, ceilings: Ceilings, copy_gbps: float | None) -> list[ShapeLine]:
    """Each benchmark shape's figures for one kernel (the headline first), as timed in this run.

    The headline alone hides what a rung is for: softmax's narrow- and wide-row shapes are
    where a row-tuned kernel earns its place.
    """
    lines = []
    for row in result.get("bench") or []:
        timed = row if row.get("status") == "passed" and row.get("timing") else None
        numbers = figures(timed)
        lines.append(
            ShapeLine(
                label=row.get("label", ""),
                dims=row.get("dims"),
                params=dict(row.get("params") or {}),
                status=Status(row.get("status", "failed")),
                message=row.get("message", ""),
                median_ms=numbers.median_ms,
                gbps=numbers.gbps,
                tflops=numbers.tflops,
                pct_of_peak=pct_of_peak(numbers.gbps, ceilings, copy_gbps),
                flags=with_flag(
                    list(row.get("flags", [])),
                    speed_of_light_flag(numbers.gbps, ceilings, copy_gbps),
                ),
            )
        )
    return lines


def copy_figures(run: WorkerRun) -> float | None:
    """This run's device-to-device copy bandwidth in GB/s, if it was timed."""
    copy = next((r for r in run.results if r.get("role") == "copy"), None)
    return figures(headline_row(copy)).gbps if copy else None


def further_shapes(
    kernels: Sequence[KernelLine],
) -> list[tuple[str, str, list[tuple[KernelLine, ShapeLine]]]]:
    """The benchmark shapes after the headline: each shape's label, its dims as text, and
    (kernel line, that shape's line) for every kernel timed there."""
    sections = []
    for index in range(1, max((len(k.shapes) for k in kernels), default=0)):
        pairs = [(k, k.shapes[index]) for k in kernels if len(k.shapes) > index]
        first = pairs[0][1]
        dims = ", ".join(f"{k}={v}" for k, v in {**(first.dims or {}), **first.params}.items())
        sections.append((first.label or "shape", dims, pairs))
    return sections
