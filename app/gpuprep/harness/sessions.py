"""`submit` and `bench`: build the judge's instructions from a drill, run it, and report.

App side. The caller (the CLI, the TUI, a test) resolves the drill from the bank and says how
to find the ceilings of whatever GPU the judge reports; nothing here prints. The source lint
runs here and only warns: a refusal needs run-time evidence, which only the judge has.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gpuprep.harness.report import (
    Ceilings,
    copy_figures,
    figures,
    headline_row,
    pct_of_peak,
    placement,
    run_failure,
    shape_lines,
    speed_of_light_flag,
    summarise_kernel,
)
from gpuprep.harness.runner import PER_KERNEL_ALLOWANCE_S, WorkerRun, run_judge
from gpuprep.harness.source_scan import language_of, read_source, scan

if TYPE_CHECKING:
    from gpuprep.bank.drill import Drill

CeilingsFor = Callable[[dict], Ceilings]
CPU_NOTE = "timing needs a CUDA GPU: on a CPU the harness checks correctness only, through Triton's interpreter"
#: Seconds each rung of the ladder (and the vendor op) may take, apart from the submission's own.
LADDER_TIMEOUT_S = 300.0


def _bandwidth_for(ceilings_for: CeilingsFor) -> Callable[[dict], dict]:
    """What the judge needs for its speed-of-light verdict: the memory's bytes per second."""

    def bandwidth(device: dict) -> dict:
        ceilings = ceilings_for(device)
        if ceilings.datasheet_bandwidth:
            return {"bandwidth": ceilings.datasheet_bandwidth}
        if ceilings.calibrated_bandwidth:
            return {"bandwidth": ceilings.calibrated_bandwidth * 1.15}
        return {}

    return bandwidth


def _backstop(timeout_s: float, kernels: list[dict]) -> float:
    """The whole run's limit: the judge enforces each kernel's budget; this only catches a stuck judge."""
    rungs = sum(1 for k in kernels if k["role"] != "submission")
    return timeout_s + rungs * LADDER_TIMEOUT_S + len(kernels) * PER_KERNEL_ALLOWANCE_S


def _mode(cpu: bool) -> str:
    return "cpu" if cpu else "auto"


def ladder_kernels(drill: Drill, kernels_dir: Path) -> list[dict]:
    """The ladder's rungs as worker kernels, loaded by file path exactly like submissions."""
    return [
        {
            "name": rung.name,
            "path": str((kernels_dir / f"{rung.name}.py").resolve()),
            "role": "rung",
            "language": rung.language,
        }
        for rung in drill.ladder
    ]


TRACK_NAMES = {"triton": "Triton", "cuda": "CUDA"}


def track_placement(
    drill: Drill, language: str, median_ms: float | None, ladder: list[dict]
) -> str:
    """Placement on the track of the submission's language: a CUDA kernel is compared with the
    CUDA rungs, a Triton one with the Triton rungs; a drill without that track uses the other."""
    summaries = {rung.name: rung.summary for rung in drill.ladder}
    own = {rung.name for rung in drill.track(language)}
    lines = [line for line in ladder if line["name"] in own]
    prefix = f"on the {TRACK_NAMES.get(language, language)} track: "
    if not any(line.get("median_ms") for line in lines):
        lines = ladder
        prefix = (
            f"no {TRACK_NAMES.get(language, language)} track in this drill; on the whole ladder: "
        )
    where = placement(median_ms, lines, summaries)
    return prefix + where if where else ""


def _running(run: WorkerRun, kernels: list[dict]) -> str:
    done = len(run.results)
    if not run.device:
        return "the worker's start-up"
    return kernels[done]["name"] if done < len(kernels) else "the copy ceiling"


def _device_mode(run: WorkerRun) -> str:
    return "gpu" if run.device.get("kind") == "cuda" else "cpu"


def submit(
    drill: Drill,
    kernels_dir: Path,
    file: Path,
    *,
    cpu: bool = False,
    timeout_s: float = 300.0,
    with_ladder: bool = True,
    ceilings_for: CeilingsFor = lambda device: Ceilings(),
    on_event: Callable[[dict], None] | None = None,
    timing: dict | None = None,
    shapes: list[int] | None = None,
) -> dict:
    """Check (and on a GPU, time) one submission; returns the JSON report.

    `timing` overrides the timer's options (budget_s, min_runs, max_runs, settle, warmup);
    `shapes` picks benchmark shapes by index (default: all).
    """
    report: dict = {
        "drill": drill.id,
        "file": str(file),
        "status": "",
        "message": "",
        "mode": None,
        "device": {},
        "checks": [],
        "timing": None,
        "achieved": None,
        "pct_of_peak": None,
        "ladder": [],
        "vendor": None,
        "copy": None,
        "placement": "",
        "flags": [],
        "notes": [],
        "warnings": [],
    }
    source, problem = read_source(file)
    if source is None:
        report.update(status="failed", message=problem)
        return report
    report["warnings"] = scan(source)
    language = language_of(source)
    kernels = [
        {"name": file.stem, "path": str(file.resolve()), "role": "submission", "language": language}
    ]
    if with_ladder and not cpu:
        kernels += ladder_kernels(drill, kernels_dir)
        kernels.append(
            {"name": drill.vendor or "vendor", "path": "", "role": "vendor", "language": "torch"}
        )
    config = {
        "spec": drill.to_worker_spec(),
        "kernels": kernels,
        # A submission that imports a rung from here is refused: it would be timing the answer.
        "protected_dirs": [str(kernels_dir.resolve())],
        "check_only": cpu,
        "stop_on_failure": True,
        "copy": True,
        "cpu_skip_ladder": True,
        "trials": 1 if cpu else 2,
        "timeout_s": timeout_s,
        "ladder_timeout_s": LADDER_TIMEOUT_S,
    }
    if timing:
        config["timing"] = timing
    if shapes is not None:
        config["bench_shapes"] = shapes
    run = run_judge(
        config,
        mode=_mode(cpu),
        timeout_s=_backstop(timeout_s, kernels),
        on_event=on_event,
        ceilings_for=_bandwidth_for(ceilings_for),
    )
    report["device"] = run.device
    report["mode"] = _device_mode(run) if run.device else ("cpu" if cpu else None)
    mine = next((r for r in run.results if r["role"] == "submission"), None)
    if mine is not None:
        report.update(
            status=mine["status"], message=mine.get("message", ""), checks=mine.get("checks", [])
        )
        if mine.get("traceback"):
            report["traceback"] = mine["traceback"]
    failure = run_failure(run, _backstop(timeout_s, kernels), _running(run, kernels))
    if run.tampered or mine is None:
        report.update(status=failure[0], message=failure[1]) if failure else report.update(
            status="crashed", message="the worker reported nothing"
        )
    if report["status"] == "skipped":
        report["message"] = mine["message"]
    if report["mode"] == "cpu":
        report["notes"].append(CPU_NOTE)
    if (
        mine is None
        or mine["status"] != "passed"
        or report["status"] != "passed"
        or report["mode"] != "gpu"
    ):
        return report
    ceilings = ceilings_for(run.device)
    copy_gbps = copy_figures(run)
    row = headline_row(mine)
    numbers = figures(row)
    report["timing"] = (
        {k: row["timing"][k] for k in ("median_ms", "p10_ms", "p90_ms", "cv", "runs")}
        if row
        else None
    )
    report["achieved"] = {
        "gbps": numbers["gbps"],
        "tflops": numbers["tflops"],
        "bytes": row["bytes"] if row else None,
        "shape": row["dims"] if row else None,
    }
    report["pct_of_peak"] = pct_of_peak(numbers["gbps"], ceilings, copy_gbps)
    report["pct_of_peak"]["gpu"] = ceilings.gpu_id
    report["shapes"] = shape_lines(mine, ceilings, copy_gbps)
    if ceilings.gpu_id is None:
        report["notes"].append(
            f"no hardware table matches {run.device.get('name')!r}: percentages use this run's copy only"
        )
    report["flags"] = list(row.get("flags", [])) if row else []
    sol = speed_of_light_flag(numbers["gbps"], ceilings, copy_gbps)
    if sol:
        report["flags"].append(sol)
    others = [r for r in run.results if r["role"] == "rung"]
    report["ladder"] = [summarise_kernel(r, ceilings, copy_gbps) for r in others]
    vendor = next((r for r in run.results if r["role"] == "vendor"), None)
    report["vendor"] = summarise_kernel(vendor, ceilings, copy_gbps) if vendor else None
    copy = next((r for r in run.results if r["role"] == "copy"), None)
    report["copy"] = summarise_kernel(copy, ceilings, copy_gbps) if copy else None
    report["placement"] = track_placement(drill, language, numbers["median_ms"], report["ladder"])
    if failure is not None:
        report["notes"].append(f"the ladder did not finish: {failure[1]}")
    return report


def bench(
    drill: Drill,
    kernels_dir: Path,
    *,
    cpu: bool = False,
    timeout_s: float = 600.0,
    ceilings_for: CeilingsFor = lambda device: Ceilings(),
    on_event: Callable[[dict], None] | None = None,
    extra_kernels: list[dict] | None = None,
    timing: dict | None = None,
    shapes: list[int] | None = None,
) -> dict:
    """Every rung and the vendor op side by side (correctness only with `cpu`).

    `shapes` picks benchmark shapes by index (default: all); `timing` overrides the timer's options.
    """
    kernels = ladder_kernels(drill, kernels_dir) + list(extra_kernels or [])
    if not cpu:
        kernels.append(
            {"name": drill.vendor or "vendor", "path": "", "role": "vendor", "language": "torch"}
        )
    config = {
        "spec": drill.to_worker_spec(),
        "kernels": kernels,
        "check_only": cpu,
        "copy": True,
        "trials": 1 if cpu else 2,
        "timeout_s": LADDER_TIMEOUT_S,
        "ladder_timeout_s": LADDER_TIMEOUT_S,
    }
    if timing:
        config["timing"] = timing
    if shapes is not None:
        config["bench_shapes"] = shapes
    run = run_judge(
        config,
        mode=_mode(cpu),
        timeout_s=timeout_s,
        on_event=on_event,
        ceilings_for=_bandwidth_for(ceilings_for),
    )
    mode = _device_mode(run) if run.device else ("cpu" if cpu else None)
    ceilings = ceilings_for(run.device) if mode == "gpu" else Ceilings()
    copy_gbps = copy_figures(run)
    rows = []
    previous: dict[str, dict] = {}  # the last timed rung of each track
    by_name = {r["name"]: r for r in run.results}
    for kernel in kernels:
        result = by_name.get(kernel["name"])
        if result is None:
            rows.append(
                {
                    "name": kernel["name"],
                    "role": kernel["role"],
                    "status": "not run",
                    "median_ms": None,
                    "gbps": None,
                    "tflops": None,
                    "message": "the worker stopped before this kernel",
                }
            )
            continue
        line = summarise_kernel(result, ceilings, copy_gbps)
        line["role"] = kernel["role"]
        line["language"] = kernel["language"]
        if kernel["role"] == "rung":
            # Speed-ups compare rungs of one track: a CUDA rung follows the CUDA rung before it.
            before = previous.get(kernel["language"])
            if before and line["median_ms"]:
                line["speedup_vs_previous"] = before["median_ms"] / line["median_ms"]
            if before:
                for here, there in zip(line["shapes"], before["shapes"], strict=False):
                    if here["median_ms"] and there["median_ms"]:
                        here["speedup_vs_previous"] = there["median_ms"] / here["median_ms"]
            if line["median_ms"]:
                previous[kernel["language"]] = line
        rows.append(line)
    failure = run_failure(run, timeout_s, _running(run, kernels))
    copy = next((r for r in run.results if r["role"] == "copy"), None)
    return {
        "drill": drill.id,
        "mode": mode,
        "device": run.device,
        "gpu": ceilings.gpu_id,
        "shape": (headline_row(run.results[0]) or {}).get("dims") if run.results else None,
        "rungs": [r for r in rows if r["role"] != "vendor"],
        "vendor": next((r for r in rows if r["role"] == "vendor"), None),
        "copy": summarise_kernel(copy, ceilings, copy_gbps) if copy else None,
        "problem": failure[1] if failure else "",
        "notes": [CPU_NOTE] if mode == "cpu" else [],
    }
