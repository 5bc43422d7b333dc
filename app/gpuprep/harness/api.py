"""`submit`, `bench` and `calibrate`: build the judge's instructions, run it, return typed reports.

App side. The caller (a `DrillSession`, a benchmark script, a test) resolves the drill from
the bank and says how to find the ceilings of whatever GPU the judge reports; nothing here
prints. Each report is built once, here, from the judge's events (the contract between the
two processes) into the records of `harness.report`. The source lint runs here and only
warns: a refusal needs run-time evidence, which only the judge has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from gpuprep.harness import sanitized, sanitizer
from gpuprep.harness.figures import (
    copy_figures,
    figures,
    headline_row,
    pct_of_peak,
    placement,
    run_failure,
    shape_lines,
    speed_of_light_flag,
    summarise_kernel,
    timing_of,
    with_flag,
)
from gpuprep.harness.report import (
    JSON,
    Achieved,
    BenchReport,
    CaseCheck,
    Ceilings,
    Device,
    KernelLine,
    Mode,
    Status,
    SubmitReport,
)
from gpuprep.harness.runner import PER_KERNEL_ALLOWANCE_S, WorkerRun, run_judge
from gpuprep.harness.source_scan import language_of, read_source, scan

if TYPE_CHECKING:
    from gpuprep.bank.drill import Drill

CeilingsFor = Callable[[Device], Ceilings]
"""From the judge's description of its device to the figures the kernels are compared with."""
OnEvent = Callable[[JSON], None]
"""Called with each of the judge's events as it arrives (progress bars, a TUI's status line)."""

CPU_NOTE = "timing needs a CUDA GPU: on a CPU the harness checks correctness only, through Triton's interpreter"
#: Seconds each rung of the ladder (and the vendor op) may take, apart from the submission's own.
LADDER_TIMEOUT_S = 300.0
TRACK_NAMES = {"triton": "Triton", "cuda": "CUDA"}


#: How long each ladder rung and the vendor op are timed per shape during a submit: enough runs for
#: a median to about 1% (the submission itself keeps the full budget).
SUBMIT_LADDER_TIMING: JSON = {"budget_s": 0.5, "min_runs": 10, "settle": 0.005}


def no_ceilings(device: Device) -> Ceilings:
    """No hardware table: percentages of this run's copy only."""
    return Ceilings()


def _light_for(ceilings_for: CeilingsFor) -> Callable[[Device], JSON]:
    """What the judge needs for its speed-of-light verdict: the memory's bytes per second and
    the tensor cores' FLOPs per second per dtype, each the datasheet's, else 1.15x measured."""

    def light(device: Device) -> JSON:
        ceilings = ceilings_for(device)
        found: JSON = {}
        if ceilings.datasheet_bandwidth:
            found["bandwidth"] = ceilings.datasheet_bandwidth
        elif ceilings.calibrated_bandwidth:
            found["bandwidth"] = ceilings.calibrated_bandwidth * 1.15
        measured = {dtype: rate * 1.15 for dtype, rate in ceilings.calibrated_tensor_flops.items()}
        flops = {**measured, **ceilings.datasheet_tensor_flops}
        if flops:
            found["flops"] = flops
        return found

    return light


def _backstop(timeout_s: float, kernels: list[JSON]) -> float:
    """The whole run's limit: the judge enforces each kernel's budget; this only catches a stuck judge."""
    rungs = sum(1 for k in kernels if k["role"] != "submission")
    return timeout_s + rungs * LADDER_TIMEOUT_S + len(kernels) * PER_KERNEL_ALLOWANCE_S


def ladder_kernels(drill: Drill, kernels_dir: Path) -> list[JSON]:
    """The ladder's rungs as worker kernels, loaded by file path exactly like submissions."""
    return [
        {
            "name": rung.name,
            "path": str((kernels_dir / f"{rung.name}.py").resolve()),
            "role": "rung",
            "language": rung.language,
            "requires": list(rung.requires),
        }
        for rung in drill.ladder
    ]


def _vendor_kernel(drill: Drill) -> JSON:
    return {"name": drill.vendor or "vendor", "path": "", "role": "vendor", "language": "torch"}


def track_placement(
    drill: Drill, language: str, median_ms: float | None, ladder: list[KernelLine]
) -> str:
    """Placement on the track of the submission's language: a CUDA kernel is compared with the
    CUDA rungs, a Triton one with the Triton rungs; a drill without that track uses the other."""
    summaries = {rung.name: rung.summary for rung in drill.ladder}
    own = {rung.name for rung in drill.track(language)}
    lines = [line for line in ladder if line.name in own]
    prefix = f"on the {TRACK_NAMES.get(language, language)} track: "
    if not any(line.median_ms for line in lines):
        lines = ladder
        prefix = (
            f"no {TRACK_NAMES.get(language, language)} track in this drill; on the whole ladder: "
        )
    where = placement(median_ms, lines, summaries)
    return prefix + where if where else ""


def _running(run: WorkerRun, kernels: list[JSON]) -> str:
    done = len(run.results)
    if not run.device:
        return "the worker's start-up"
    return kernels[done]["name"] if done < len(kernels) else "the copy ceiling"


def _mode(run: WorkerRun, cpu: bool) -> Mode | None:
    """Where the judge ran; before it said so, what was asked for (None: it was free to choose)."""
    if run.device:
        return Mode.GPU if run.device.get("kind") == "cuda" else Mode.CPU
    return Mode.CPU if cpu else None


def _run(
    config: JSON, cpu: bool, timeout_s: float, ceilings_for: CeilingsFor, on_event: OnEvent | None
) -> WorkerRun:
    return run_judge(
        config,
        mode="cpu" if cpu else "auto",
        timeout_s=timeout_s,
        on_event=on_event,
        ceilings_for=_light_for(ceilings_for),
    )


def submit(
    drill: Drill,
    kernels_dir: Path,
    file: Path,
    *,
    cpu: bool = False,
    timeout_s: float = 300.0,
    with_ladder: bool = True,
    ceilings_for: CeilingsFor = no_ceilings,
    on_event: OnEvent | None = None,
    timing: JSON | None = None,
    shapes: list[int] | None = None,
    sanitize: bool = False,
) -> SubmitReport:
    """Check (and on a GPU, time) one submission beside the ladder of its language's track.

    `timing` overrides the timer's options (budget_s, min_runs, max_runs, settle, warmup);
    `shapes` picks benchmark shapes by index (default: all). `sanitize` runs the checks only,
    under compute-sanitizer (`harness.sanitized`); it raises SanitizerUnavailable without a
    GPU or the tool.
    """
    binary = sanitizer.preflight(cpu) if sanitize else ""
    source, problem = read_source(file)
    if source is None:
        return SubmitReport(drill=drill.id, file=str(file), status=Status.FAILED, message=problem)
    language = language_of(source)
    kernels = [
        {"name": file.stem, "path": str(file.resolve()), "role": "submission", "language": language}
    ]
    if with_ladder and not cpu and not sanitize:
        kernels += [*ladder_kernels(drill, kernels_dir), _vendor_kernel(drill)]
    config: JSON = {
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
        # The ladder is context for this submission: `gpuprep bench` checks it on every case.
        "check_ladder": False,
        "ladder_timing": SUBMIT_LADDER_TIMING,
    }
    if timing:
        config["timing"] = timing
    if shapes is not None:
        config["bench_shapes"] = shapes
    backstop = _backstop(timeout_s, kernels)
    if sanitize:
        checked = sanitized.run_checks(
            config, binary=binary, submission=file, source=source, mode="auto", timeout_s=backstop,
            on_event=on_event, ceilings_for=_light_for(ceilings_for),
        )  # fmt: skip
        run = checked.run
    else:
        run = _run(config, cpu, backstop, ceilings_for, on_event)
    mine = next((r for r in run.results if r["role"] == "submission"), None)
    failure = run_failure(run, backstop, _running(run, kernels))
    mode = _mode(run, cpu)
    verdict = SubmitReport(
        drill=drill.id,
        file=str(file),
        status=Status(mine["status"]) if mine else Status.CRASHED,
        message=mine.get("message", "") if mine else "the worker reported nothing",
        language=language,
        mode=mode,
        device=run.device,
        checks=[CaseCheck.from_json(case) for case in (mine or {}).get("checks", [])],
        traceback=(mine or {}).get("traceback", ""),
        notes=([CPU_NOTE] if mode is Mode.CPU else []) + method_notes(mine),
        warnings=scan(source),
    )
    if (run.tampered or mine is None) and failure:
        verdict = replace(verdict, status=failure[0], message=failure[1])
    if sanitize:
        return sanitized.judged(verdict, checked, file, source)
    if mine is None or not verdict.passed or mode is not Mode.GPU:
        return verdict
    return _timed(verdict, drill, mine, run, ceilings_for(run.device), failure)


def method_notes(result: JSON | None) -> list[str]:
    """What the judge found of the drill's required methods, one line each ('tensor cores:
    120 wgmma in matmul_kernel'); a missing method is the verdict's message, not a note."""
    return [
        str(check.get("detail", ""))
        for check in (result or {}).get("methods") or []
        if check.get("status") != "missing"
    ]


def _timed(
    verdict: SubmitReport,
    drill: Drill,
    mine: JSON,
    run: WorkerRun,
    ceilings: Ceilings,
    failure: tuple[Status, str] | None,
) -> SubmitReport:
    """A passed GPU submission's figures, beside the ladder, the vendor op and the copy."""
    copy_gbps = copy_figures(run)
    row = headline_row(mine)
    numbers = figures(row)
    notes = list(verdict.notes)
    if ceilings.gpu_id is None:
        notes.append(
            f"no hardware table matches {run.device.get('name')!r}: percentages use this run's copy only"
        )
    ladder = [summarise_kernel(r, ceilings, copy_gbps) for r in run.results if r["role"] == "rung"]
    vendor = next((r for r in run.results if r["role"] == "vendor"), None)
    copy = next((r for r in run.results if r["role"] == "copy"), None)
    if failure is not None:
        notes.append(f"the ladder did not finish: {failure[1]}")
    return replace(
        verdict,
        timing=timing_of(row),
        achieved=Achieved(
            gbps=numbers.gbps,
            tflops=numbers.tflops,
            bytes=row["bytes"] if row else None,
            shape=row["dims"] if row else None,
        ),
        pct_of_peak=pct_of_peak(numbers.gbps, ceilings, copy_gbps),
        gpu=ceilings.gpu_id,
        shapes=shape_lines(mine, ceilings, copy_gbps),
        ladder=ladder,
        vendor=summarise_kernel(vendor, ceilings, copy_gbps) if vendor else None,
        copy=summarise_kernel(copy, ceilings, copy_gbps) if copy else None,
        placement=track_placement(drill, verdict.language, numbers.median_ms, ladder),
        flags=with_flag(
            list(row.get("flags", [])) if row else [],
            speed_of_light_flag(numbers.gbps, ceilings, copy_gbps),
        ),
        notes=notes,
    )


def _after(line: KernelLine, before: KernelLine) -> KernelLine:
    """A rung with its speed-ups over the rung before it on its track, per shape too."""
    shapes = [
        replace(here, speedup_vs_previous=there.median_ms / here.median_ms)
        if here.median_ms and there.median_ms
        else here
        for here, there in zip(line.shapes, before.shapes, strict=False)
    ]
    shapes += line.shapes[len(shapes) :]
    speedup = before.median_ms / line.median_ms if before.median_ms and line.median_ms else None
    return replace(line, speedup_vs_previous=speedup, shapes=shapes)


def bench(
    drill: Drill,
    kernels_dir: Path,
    *,
    cpu: bool = False,
    timeout_s: float = 600.0,
    ceilings_for: CeilingsFor = no_ceilings,
    on_event: OnEvent | None = None,
    extra_kernels: list[JSON] | None = None,
    timing: JSON | None = None,
    shapes: list[int] | None = None,
) -> BenchReport:
    """Every rung and the vendor op side by side (correctness only with `cpu`).

    `shapes` picks benchmark shapes by index (default: all); `timing` overrides the timer's options.
    """
    kernels = ladder_kernels(drill, kernels_dir) + list(extra_kernels or [])
    if not cpu:
        kernels.append(_vendor_kernel(drill))
    config: JSON = {
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
    run = _run(config, cpu, timeout_s, ceilings_for, on_event)
    mode = _mode(run, cpu)
    ceilings = ceilings_for(run.device) if mode is Mode.GPU else Ceilings()
    copy_gbps = copy_figures(run)
    rows = []
    previous: dict[str, KernelLine] = {}  # the last timed rung of each track
    by_name = {r["name"]: r for r in run.results}
    for kernel in kernels:
        result = by_name.get(kernel["name"])
        if result is None:
            rows.append(
                KernelLine(
                    name=kernel["name"],
                    status=Status.NOT_RUN,
                    role=kernel["role"],
                    language=kernel["language"],
                    message="the worker stopped before this kernel",
                )
            )
            continue
        line = replace(
            summarise_kernel(result, ceilings, copy_gbps),
            role=kernel["role"],
            language=kernel["language"],
        )
        if kernel["role"] == "rung":
            # Speed-ups compare rungs of one track: a CUDA rung follows the CUDA rung before it.
            before = previous.get(kernel["language"])
            if before:
                line = _after(line, before)
            if line.median_ms:
                previous[kernel["language"]] = line
        rows.append(line)
    failure = run_failure(run, timeout_s, _running(run, kernels))
    copy = next((r for r in run.results if r["role"] == "copy"), None)
    return BenchReport(
        drill=drill.id,
        mode=mode,
        device=run.device,
        gpu=ceilings.gpu_id,
        shape=(headline_row(run.results[0]) or {}).get("dims") if run.results else None,
        rungs=[r for r in rows if r.role != "vendor"],
        vendor=next((r for r in rows if r.role == "vendor"), None),
        copy=summarise_kernel(copy, ceilings, copy_gbps) if copy else None,
        problem=failure[1] if failure else "",
        notes=[CPU_NOTE] if mode is Mode.CPU else [],
    )


class CalibrationFailed(Exception):
    """The judge measured nothing; the message says why."""


@dataclass(frozen=True)
class Calibration:
    """What `calibrate` measured, and on which device."""

    device: Device
    measured: JSON
    """copy_gbps, bf16_tflops and the timer's details, as the judge reported them."""


def calibrate(timeout_s: float = 120.0) -> Calibration:
    """Measure this GPU's copy bandwidth and bf16 matrix rate with the drills' timer."""
    run = run_judge({"task": "calibrate"}, mode="gpu", timeout_s=timeout_s)
    if not run.results:
        raise CalibrationFailed(
            run.fatal.strip() or f"calibration did not finish (exit code {run.returncode})"
        )
    return Calibration(run.device, run.results[0])
