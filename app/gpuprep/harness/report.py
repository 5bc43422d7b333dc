"""Turn a worker's events into the verdict a candidate reads: status, checks, figures, placement.

App side, standard library only: the figures arrive as plain numbers (the GPU's datasheet
bandwidth and rate from its hardware table, a calibrated ceiling if one was measured), so
this module knows nothing of the bank models.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass

from gpuprep.harness.runner import WorkerRun

#: Two medians closer than this are level: the harness's own run-to-run spread is about 1-2%.
LEVEL = 0.03
#: A time this much under the speed-of-light bound is flagged (clock and table slack).
SOL_SLACK = 1.05


@dataclass(frozen=True)
class Ceilings:
    """What the achieved figures are compared with, in bytes/s and FLOP/s."""

    gpu_id: str | None = None
    datasheet_bandwidth: float | None = None
    datasheet_flops: float | None = None
    calibrated_bandwidth: float | None = None


def headline_row(result: dict | None) -> dict | None:
    """The first benchmark shape's row of a kernel's result, if it was timed."""
    if not result or not result.get("bench"):
        return None
    row = result["bench"][0]
    return row if row.get("status") == "passed" and row.get("timing") else None


def figures(row: dict | None) -> dict:
    """median_ms, GB/s and TFLOP/s of one timed row."""
    if row is None:
        return {"median_ms": None, "gbps": None, "tflops": None}
    seconds = row["timing"]["median_ms"] / 1e3
    gbps = row["bytes"] / seconds / 1e9 if row.get("bytes") and seconds > 0 else None
    tflops = row["flops"] / seconds / 1e12 if row.get("flops") and seconds > 0 else None
    return {"median_ms": row["timing"]["median_ms"], "gbps": gbps, "tflops": tflops}


def _percent(value: float | None, ceiling: float | None) -> float | None:
    return None if value is None or not ceiling else 100.0 * value / ceiling


def pct_of_peak(gbps: float | None, ceilings: Ceilings, copy_gbps: float | None) -> dict:
    """Achieved bandwidth as a percentage of the datasheet, this run's copy, and the calibrated copy."""
    return {
        "datasheet": _percent(
            gbps, ceilings.datasheet_bandwidth / 1e9 if ceilings.datasheet_bandwidth else None
        ),
        "copy_this_run": _percent(gbps, copy_gbps),
        "calibrated": _percent(
            gbps, ceilings.calibrated_bandwidth / 1e9 if ceilings.calibrated_bandwidth else None
        ),
    }


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


def placement(median_ms: float | None, ladder: list[dict], summaries: dict[str, str]) -> str:
    """Where a time sits on the ladder and which rung is the next step."""
    timed = [rung for rung in ladder if rung.get("median_ms")]
    if median_ms is None or not timed:
        return ""
    for index, rung in enumerate(timed):
        if abs(median_ms - rung["median_ms"]) <= LEVEL * rung["median_ms"]:
            if index + 1 < len(timed):
                following = timed[index + 1]
                return f"level with {rung['name']}; next: {following['name']}: {summaries.get(following['name'], '')}"
            return f"level with the top rung {rung['name']}"
        if rung["median_ms"] < median_ms:
            if index == 0:
                return f"slower than {rung['name']}, the first rung; start there: {summaries.get(rung['name'], '')}"
            return f"between {timed[index - 1]['name']} and {rung['name']}; next: {rung['name']}: {summaries.get(rung['name'], '')}"
    return f"faster than the top rung {timed[-1]['name']}"


def _signal_name(returncode: int | None) -> str:
    if returncode is None or returncode >= 0:
        return f"exit code {returncode}"
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def run_failure(run: WorkerRun, timeout_s: float, running: str) -> tuple[str, str] | None:
    """(status, message) when the worker itself did not finish cleanly, else None."""
    if run.tampered:
        return "rejected", f"{run.tampered}: results can only come from the harness"
    if run.timed_out:
        return (
            "timeout",
            f"no answer within {timeout_s:g} s while running {running}; the worker was killed",
        )
    if run.fatal:
        return "crashed", f"the worker failed: {run.fatal}"
    if not run.finished:
        tail = "\n".join(line for line in run.log_tail.strip().splitlines()[-8:])
        how = (
            "segmentation fault"
            if run.returncode == -signal.SIGSEGV
            else _signal_name(run.returncode)
        )
        return "crashed", f"the worker died ({how}) while running {running}" + (
            f"; its last output:\n{tail}" if tail else ""
        )
    return None


def summarise_kernel(result: dict, ceilings: Ceilings, copy_gbps: float | None) -> dict:
    """One ladder or vendor line: name, status, figures, percentages, flags."""
    row = headline_row(result)
    numbers = figures(row)
    line = {
        "name": result["name"],
        "language": result.get("language"),
        "status": result["status"],
        "message": result.get("message", ""),
        **numbers,
    }
    if result.get("checks"):
        line["cases"] = len(result["checks"])
    line["pct_of_peak"] = pct_of_peak(numbers["gbps"], ceilings, copy_gbps)
    flags = list(row.get("flags", [])) if row else []
    sol = speed_of_light_flag(numbers["gbps"], ceilings, copy_gbps)
    if sol:
        flags.append(sol)
    line["flags"] = flags
    if row is not None:
        line["timing"] = {
            k: row["timing"][k] for k in ("median_ms", "p10_ms", "p90_ms", "cv", "runs")
        }
    line["shapes"] = shape_lines(result, ceilings, copy_gbps)
    return line


def further_shapes(kernels: list[dict]) -> list[tuple[str, str, list[tuple[dict, dict]]]]:
    """The benchmark shapes after the headline, from kernel lines carrying `shapes`: each
    shape's label, its dims as text, and (kernel line, that shape's line) for every kernel
    timed there."""
    sections = []
    for index in range(1, max((len(k.get("shapes") or []) for k in kernels), default=0)):
        pairs = [(k, k["shapes"][index]) for k in kernels if len(k.get("shapes") or []) > index]
        first = pairs[0][1]
        dims = ", ".join(f"{k}={v}" for k, v in (first.get("dims") or {}).items())
        sections.append((first.get("label") or "shape", dims, pairs))
    return sections


def shape_lines(result: dict, ceilings: Ceilings, copy_gbps: float | None) -> list[dict]:
    """Each benchmark shape's figures for one kernel (the headline first), as timed in this run.

    The headline alone hides what a rung is for: softmax's narrow- and wide-row shapes are
    where a row-tuned kernel earns its place.
    """
    lines = []
    for row in result.get("bench") or []:
        timed = row if row.get("status") == "passed" and row.get("timing") else None
        numbers = figures(timed)
        flags = list(row.get("flags", []))
        sol = speed_of_light_flag(numbers["gbps"], ceilings, copy_gbps)
        if sol:
            flags.append(sol)
        lines.append(
            {
                "label": row.get("label", ""),
                "dims": row.get("dims"),
                "status": row.get("status", "failed"),
                "message": row.get("message", ""),
                **numbers,
                "pct_of_peak": pct_of_peak(numbers["gbps"], ceilings, copy_gbps),
                "flags": flags,
            }
        )
    return lines


def copy_figures(run: WorkerRun) -> float | None:
    copy = next((r for r in run.results if r.get("role") == "copy"), None)
    return figures(headline_row(copy))["gbps"] if copy else None
