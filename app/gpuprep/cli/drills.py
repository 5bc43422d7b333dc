"""`gpuprep submit`, `gpuprep bench` and `gpuprep hw calibrate`: kernel drills from the command line.

Thin: resolve the drill from the bank, call the harness, print a table or JSON. The harness
runs every kernel in a worker process, so nothing a submission does can take this one down.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gpuprep.cli.common import (
    USAGE_ERROR,
    BankOption,
    JsonOption,
    emit_json,
    extra_banks,
    fail,
)
from gpuprep.cli.hw import hw_app

DrillArgument = Annotated[str, typer.Argument(metavar="DRILL", help="Drill id, e.g. reduction.")]
CpuOption = Annotated[
    bool,
    typer.Option(
        "--cpu", help="Correctness only, through Triton's interpreter (the default without a GPU)."
    ),
]


def _drill_or_exit(drill_id: str, banks: list[Path] | None, as_json: bool):  # noqa: ANN202
    """The drill and its ladder folder; problems elsewhere in the bank do not block a drill."""
    from gpuprep.bank.loader import load_bank

    bank, problems = load_bank(extra_banks(banks))
    drill = bank.drills.get(drill_id)
    if drill is None:
        mine = [str(p) for p in problems if f"drills/{drill_id}/" in str(p.path).replace("\\", "/")]
        known = ", ".join(sorted(bank.drills)) or "none"
        fail(
            f"unknown drill {drill_id!r} (known: {known})"
            + ("; its drill.yaml has problems:\n" + "\n".join(mine) if mine else ""),
            code=1 if mine else USAGE_ERROR,
            as_json=as_json,
        )
    return bank, drill, bank.kernels_ref_dir(drill_id)


def _ceilings_for(bank):  # noqa: ANN001, ANN202
    """A function from the worker's device description to the figures it is compared with."""
    from gpuprep.bank.hardware import find_by_device_name
    from gpuprep.harness.calibration import load_calibrations
    from gpuprep.harness.report import Ceilings

    def ceilings(device: dict) -> Ceilings:
        name = device.get("name", "")
        gpu = find_by_device_name(bank.hardware.values(), name) if name else None
        calibrated = load_calibrations().get(name, {})
        bandwidth = gpu.get("hbm_bandwidth") if gpu else None
        fp32 = gpu.get("fp32") if gpu else None
        return Ceilings(
            gpu_id=gpu.id if gpu else None,
            datasheet_bandwidth=bandwidth.to("B/s") if bandwidth else None,
            datasheet_flops=fp32.to("FLOP/s") if fp32 else None,
            calibrated_bandwidth=calibrated["copy_gbps"] * 1e9
            if calibrated.get("copy_gbps")
            else None,
        )

    return ceilings


def _progress(total: int, label: str, enabled: bool):  # noqa: ANN202
    """A progress bar on stderr advanced by the worker's events; a no-op for --json."""
    from contextlib import nullcontext

    if not enabled:
        return nullcontext(None), None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = progress.add_task(label, total=total)

    def on_event(event: dict) -> None:
        if event["event"] == "ready":
            progress.update(task, description=f"{label} on {event['device'].get('name', '?')}")
        elif event["event"] == "phase":
            progress.update(task, description=f"{label}: {event['kernel']}: {event['phase']}")
        elif event["event"] == "kernel":
            result = event["result"]
            progress.update(
                task, advance=1, description=f"{label}: {result['name']} {result['status']}"
            )

    return progress, on_event


def _fmt(value: float | None, pattern: str = "{:.3f}") -> str:
    return "-" if value is None else pattern.format(value)


def _pct(line: dict | None, key: str) -> str:
    if not line or not line.get("pct_of_peak"):
        return "-"
    return _fmt(line["pct_of_peak"].get(key), "{:.0f}%")


def _name_column(title: str, names: list[str]):  # noqa: ANN202
    """A column that never truncates kernel names: the figures' columns shrink instead."""
    from rich.table import Column

    return Column(title, no_wrap=True, min_width=max([len(title), *map(len, names)]))


def _print_submit(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    device = report.get("device") or {}
    style = {
        "passed": "green",
        "failed": "red",
        "rejected": "red",
        "crashed": "red",
        "timeout": "red",
    }.get(report["status"], "yellow")
    console.print(
        f"[bold]{report['drill']}[/bold] · {Path(report['file']).name} · [{style}]{report['status'].upper()}[/{style}]"
        f" · {device.get('name', 'no device')}"
    )
    if report["message"]:
        console.print(report["message"], markup=False)
    if report.get("traceback"):
        console.print(report["traceback"], markup=False, style="dim")
    checks = report.get("checks") or []
    if checks:
        passed = sum(1 for c in checks if c["ok"])
        worst = max((c["rel_err"] for c in checks if c["rel_err"] is not None), default=None)
        console.print(
            f"checks: {passed}/{len(checks)} cases passed; worst relative error {_fmt(worst, '{:.2e}')}"
        )
    timing = report.get("timing")
    if timing:
        achieved = report["achieved"]
        shape = ", ".join(f"{k}={v}" for k, v in (achieved.get("shape") or {}).items())
        console.print(
            f"time: {timing['median_ms']:.4f} ms median (p10 {timing['p10_ms']:.4f}, p90 {timing['p90_ms']:.4f}, "
            f"cv {100 * timing['cv']:.1f}%, {timing['runs']} runs) at {shape}"
        )
        pct = report["pct_of_peak"]
        console.print(
            f"achieved: {_fmt(achieved['gbps'], '{:.0f}')} GB/s = {_fmt(pct['datasheet'], '{:.0f}%')} of the datasheet "
            f"({pct.get('gpu') or 'no table'}), {_fmt(pct['copy_this_run'], '{:.0f}%')} of this run's copy"
            + (
                f", {pct['calibrated']:.0f}% of the calibrated copy"
                if pct.get("calibrated")
                else ""
            )
        )
        vendor = report.get("vendor") or {}
        for index, shape in enumerate((report.get("shapes") or [])[1:], start=1):
            dims = ", ".join(f"{k}={v}" for k, v in (shape.get("dims") or {}).items())
            there = (vendor.get("shapes") or [])[index : index + 1]
            beside = (
                f"; {vendor['name']} {there[0]['median_ms']:.4f} ms"
                if there and there[0].get("median_ms")
                else ""
            )
            console.print(
                f"  also {shape.get('label') or 'shape'} ({dims}): "
                + (
                    f"{shape['median_ms']:.4f} ms, {_fmt(shape['gbps'], '{:.0f}')} GB/s"
                    f" ({_pct(shape, 'copy_this_run')} of copy){beside}"
                    if shape.get("median_ms")
                    else f"{shape['status']}: {shape.get('message') or 'not timed'}"
                ),
                markup=False,
            )
    if report.get("ladder"):
        names = [line["name"] for line in report["ladder"]] + ["copy"]
        table = Table(
            _name_column("kernel", names), "lang", "status", "median ms", "GB/s", "% copy"
        )
        for line in [
            *report["ladder"],
            *(extra for extra in (report.get("vendor"), report.get("copy")) if extra),
        ]:
            table.add_row(
                line["name"],
                line.get("language") or "torch",
                line["status"],
                _fmt(line["median_ms"], "{:.4f}"),
                _fmt(line["gbps"], "{:.0f}"),
                _pct(line, "copy_this_run"),
            )
        console.print(table)
    if report.get("placement"):
        console.print(f"placement: {report['placement']}", markup=False)
    for flag in report.get("flags", []):
        console.print(f"[yellow]flag:[/yellow] {flag}")
    for note in report.get("notes", []):
        console.print(f"note: {note}", style="dim")


def _print_bench(result: dict) -> None:
    from rich.console import Console
    from rich.table import Column, Table

    console = Console(highlight=False)
    device = result.get("device") or {}
    shape = ", ".join(f"{k}={v}" for k, v in (result.get("shape") or {}).items())
    console.print(
        f"[bold]{result['drill']}[/bold] on {device.get('name', 'no device')}"
        + (f" · {shape}" if shape else "")
    )
    rows = [*result["rungs"], *(r for r in (result.get("vendor"), result.get("copy")) if r)]
    if result.get("mode") == "cpu":
        table = Table(
            _name_column("rung", [r["name"] for r in rows]), "lang", "status", "cases checked"
        )
        for row in rows:
            table.add_row(
                row["name"],
                row.get("language") or "torch",
                row["status"],
                str(row.get("cases", "-")),
            )
    else:
        columns = [
            ("status", lambda row: row["status"]),
            ("ms", lambda row: _fmt(row.get("median_ms"), "{:.4f}")),
            ("GB/s", lambda row: _fmt(row.get("gbps"), "{:.0f}")),
            ("%sheet", lambda row: _pct(row, "datasheet")),
            ("%copy", lambda row: _pct(row, "copy_this_run")),
            ("vs prev", lambda row: _fmt(row.get("speedup_vs_previous"), "{:.2f}x")),
        ]
        if any(row.get("language") == "cuda" for row in rows):
            columns.insert(0, ("lang", lambda row: row.get("language") or "torch"))
        table = Table(
            _name_column("rung", [r["name"] for r in rows]),
            *(Column(header, no_wrap=True, justify="right") for header, _ in columns),
        )
        for row in rows:
            table.add_row(row["name"], *(get(row) for _, get in columns))
    console.print(table)
    if result.get("mode") == "gpu":
        for shape_table in _other_shape_tables(rows, columns):
            console.print(shape_table)
    two_tracks = any(row.get("language") == "cuda" for row in rows)
    legend_tracks = "; vs prev: over the previous rung of the same lang" if two_tracks else ""
    if result.get("mode") == "gpu":
        console.print(
            f"ms: median per call (fresh inputs, L2 flushed); %sheet: of {result.get('gpu') or 'no table'}'s "
            "datasheet bandwidth; %copy: of a device copy timed in this run" + legend_tracks,
            style="dim",
        )
    for row in rows:
        if row["status"] not in ("passed",) and row.get("message"):
            console.print(f"{row['name']}: {row['message']}", markup=False)
        for flag in row.get("flags", []):
            console.print(f"[yellow]flag[/yellow] {row['name']}: {flag}")
    if result.get("problem"):
        console.print(f"[red]{result['problem']}[/red]", markup=False)
    for note in result.get("notes", []):
        console.print(f"note: {note}", style="dim")


def _other_shape_tables(rows: list[dict], columns: list) -> list:
    """One more table per benchmark shape after the headline, same columns, when any was timed."""
    from rich.table import Column, Table

    from gpuprep.harness.report import further_shapes

    tables = []
    for label, dims, pairs in further_shapes(rows):
        table = Table(
            _name_column("rung", [row["name"] for row, _ in pairs]),
            *(Column(header, no_wrap=True, justify="right") for header, _ in columns),
            title=f"{label} · {dims}",
            title_justify="left",
        )
        for row, figures in pairs:
            # The per-shape line lacks the kernel's language; the columns may ask for it.
            merged = {
                **row,
                **figures,
                "speedup_vs_previous": figures.get("speedup_vs_previous"),
            }
            table.add_row(row["name"], *(get(merged) for _, get in columns))
        tables.append(table)
    return tables


def submit(
    drill_id: DrillArgument,
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="Your .py file defining the drill's entry function."),
    ],
    cpu: CpuOption = False,
    as_json: JsonOption = False,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds the run may take once the worker has started."),
    ] = 300.0,
    no_ladder: Annotated[
        bool,
        typer.Option("--no-ladder", help="Skip timing the reference ladder and the vendor op."),
    ] = False,
    banks: BankOption = None,
) -> None:
    """Check a kernel (and on a GPU, time it against the roofline and the reference ladder)."""
    from gpuprep.harness.sessions import submit as run_submit

    bank, drill, kernels_dir = _drill_or_exit(drill_id, banks, as_json)
    if file.is_dir():
        fail(
            f"{file} is a folder; give the .py file that defines {drill.entry}(...)",
            code=USAGE_ERROR,
            as_json=as_json,
        )
    if not file.is_file():
        fail(f"no such file: {file}", code=USAGE_ERROR, as_json=as_json)
    if file.suffix != ".py":
        # The worker imports the file as a module; anything else fails as "cannot load".
        fail(
            f"{file} is not a .py file; write {drill.entry}(...) in a Python file",
            code=USAGE_ERROR,
            as_json=as_json,
        )
    total = 1 if cpu or no_ladder else len(drill.ladder) + 3
    progress, on_event = _progress(total, f"submit {drill.id}", enabled=not as_json)
    with progress:
        report = run_submit(
            drill,
            kernels_dir,
            file,
            cpu=cpu,
            timeout_s=timeout,
            with_ladder=not no_ladder,
            ceilings_for=_ceilings_for(bank),
            on_event=on_event,
        )
    if as_json:
        emit_json(report)
    else:
        _print_submit(report)
    if report["status"] != "passed":
        raise typer.Exit(1)


def bench(
    drill_id: DrillArgument,
    cpu: CpuOption = False,
    as_json: JsonOption = False,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout", help="Seconds the whole run may take once the worker has started."
        ),
    ] = 900.0,
    banks: BankOption = None,
) -> None:
    """Run every rung of a drill's ladder and the vendor op side by side."""
    from gpuprep.harness.sessions import bench as run_bench

    bank, drill, kernels_dir = _drill_or_exit(drill_id, banks, as_json)
    progress, on_event = _progress(
        len(drill.ladder) + (0 if cpu else 2), f"bench {drill.id}", enabled=not as_json
    )
    with progress:
        result = run_bench(
            drill,
            kernels_dir,
            cpu=cpu,
            timeout_s=timeout,
            ceilings_for=_ceilings_for(bank),
            on_event=on_event,
        )
    if as_json:
        emit_json(result)
    else:
        _print_bench(result)
    bad = [r for r in result["rungs"] if r["status"] not in ("passed", "skipped")]
    if bad or result.get("problem"):
        raise typer.Exit(1)


@hw_app.command("calibrate")
def calibrate(as_json: JsonOption = False) -> None:
    """Measure this GPU's copy bandwidth and bf16 matrix rate and store them beside the datasheet."""
    from gpuprep.harness.calibration import save_calibration
    from gpuprep.harness.runner import run_judge

    run = run_judge({"task": "calibrate"}, mode="gpu", timeout_s=120)
    if not run.results:
        fail(
            run.fatal.strip() or f"calibration did not finish (exit code {run.returncode})",
            as_json=as_json,
        )
    measured = run.results[0]
    path = save_calibration(run.device, measured)
    if as_json:
        emit_json({"device": run.device, "measured": measured, "saved": str(path)})
        return
    typer.echo(
        f"{run.device.get('name')}: copy {measured['copy_gbps']:.0f} GB/s (read + write), "
        f"bf16 matrix {measured['bf16_tflops']:.0f} TFLOP/s; saved to {path}"
    )


def register(app: typer.Typer) -> None:
    """Add `submit` and `bench` (and `hw calibrate`, on the hw group) to the app."""
    app.command("submit")(submit)
    app.command("bench")(bench)
