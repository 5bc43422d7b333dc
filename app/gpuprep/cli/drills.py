"""`gpuprep submit` and `gpuprep bench`: kernel drills from the command line.

Thin: a `DrillSession` on the bank (with the user's `--bank` folders) resolves the drill and
calls the harness; this module prints its typed report as a table or JSON. The harness runs
every kernel in a judge process, so nothing a submission does can take this one down.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gpuprep.cli.common import (
    USAGE_ERROR,
    BankOption,
    JsonOption,
    emit_json,
    extra_banks,
    fail,
)
from gpuprep.harness.report import (
    JSON,
    BenchReport,
    CaseCheck,
    KernelLine,
    Mode,
    PeakShare,
    ShapeLine,
    Status,
    SubmitReport,
)

if TYPE_CHECKING:
    from rich.table import Column, Table

    from gpuprep.bank.loader import Bank
    from gpuprep.bank.problems import Problem
    from gpuprep.harness.api import OnEvent
    from gpuprep.sessions.drill import DrillSession
    from gpuprep.store.database import Store

DrillArgument = Annotated[str, typer.Argument(metavar="DRILL", help="Drill id, e.g. reduction.")]
CpuOption = Annotated[
    bool,
    typer.Option(
        "--cpu", help="Correctness only, through Triton's interpreter (the default without a GPU)."
    ),
]


def _load_bank(banks: list[Path] | None) -> tuple[Bank, list[Problem]]:
    """The bank with the user's folders, and its problems (which do not block a drill)."""
    # The bank's models (pydantic, the units) load only for the commands that use them.
    from gpuprep.bank.loader import load_bank

    return load_bank(extra_banks(banks))


def _session_or_exit(
    drill_id: str, bank: Bank, problems: list[Problem], as_json: bool
) -> DrillSession:
    """A drill session on the loaded bank; problems elsewhere in the bank do not block a
    drill, but a drill that did not load says why."""
    from gpuprep.sessions.drill import DrillSession, UnknownDrill

    session = DrillSession(bank, _store_or_none())
    try:
        session.drill(drill_id)
    except UnknownDrill as error:
        mine = [str(p) for p in problems if f"drills/{drill_id}/" in str(p.path).replace("\\", "/")]
        fail(
            str(error) + ("; its drill.yaml has problems:\n" + "\n".join(mine) if mine else ""),
            code=1 if mine else USAGE_ERROR,
            as_json=as_json,
        )
    return session


def _store_or_none() -> Store | None:
    """The progress store, where submissions are saved for `gpuprep history`; a store that
    cannot be opened is said on stderr and does not stop the submission."""
    from gpuprep.store.database import Store, StoreError

    try:
        return Store.open()
    except StoreError as error:
        typer.echo(f"warning: this submission will not be saved to your history: {error}", err=True)
        return None


def _progress(
    total: int, label: str, enabled: bool
) -> tuple[AbstractContextManager[object], OnEvent | None]:
    """A progress bar on stderr advanced by the judge's events; a no-op for --json."""
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

    def on_event(event: JSON) -> None:
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


def _pct(share: PeakShare | None, ceiling: str) -> str:
    """One of a line's percentages ('datasheet', 'copy_this_run', 'calibrated') as text."""
    return _fmt(getattr(share, ceiling) if share else None, "{:.0f}%")


def _dims(dims: dict[str, int] | None) -> str:
    """'n=4096' or 'rows=256, cols=262144'."""
    return ", ".join(f"{k}={v}" for k, v in (dims or {}).items())


def _name_column(title: str, names: list[str]) -> Column:
    """A column that never truncates kernel names: the figures' columns shrink instead."""
    from rich.table import Column

    return Column(title, no_wrap=True, min_width=max([len(title), *map(len, names)]))


def _worst_error(checks: list[CaseCheck]) -> str:
    """'worst relative error 3.1e-06'; a failed case without a figure (NaN, a wrong shape) is
    said, not left out: a 0 from the passing cases would hide it."""
    if any(not check.ok and check.rel_err is None for check in checks):
        return "worst relative error: not measurable (a failed case has NaN, inf or a wrong shape)"
    worst = max((check.rel_err for check in checks if check.rel_err is not None), default=None)
    return f"worst relative error {_fmt(worst, '{:.2e}')}"


STATUS_STYLE = {Status.PASSED: "green", Status.SKIPPED: "yellow", Status.NOT_RUN: "yellow"}


def _print_submit(report: SubmitReport, notes: list[str] | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    style = STATUS_STYLE.get(report.status, "red")
    console.print(
        f"[bold]{report.drill}[/bold] · {Path(report.file).name} · [{style}]{report.status.value.upper()}[/{style}]"
        f" · {report.device.get('name', 'no device')}"
    )
    if report.message:
        console.print(report.message, markup=False)
    if report.traceback:
        console.print(report.traceback, markup=False, style="dim")
    if report.checks:
        passed = sum(1 for check in report.checks if check.ok)
        console.print(
            f"checks: {passed}/{len(report.checks)} cases passed; {_worst_error(report.checks)}"
        )
    timing, achieved, pct = report.timing, report.achieved, report.pct_of_peak
    if timing and achieved and pct:
        console.print(
            f"time: {timing.median_ms:.4f} ms median (p10 {timing.p10_ms:.4f}, p90 {timing.p90_ms:.4f}, "
            f"cv {100 * timing.cv:.1f}%, {timing.runs} runs) at {_dims(achieved.shape)}"
        )
        console.print(
            f"achieved: {_fmt(achieved.gbps, '{:.0f}')} GB/s = {_fmt(pct.datasheet, '{:.0f}%')} of the datasheet "
            f"({report.gpu or 'no table'}), {_fmt(pct.copy_this_run, '{:.0f}%')} of this run's copy"
            + (f", {pct.calibrated:.0f}% of the calibrated copy" if pct.calibrated else "")
        )
        vendor_shapes = report.vendor.shapes if report.vendor else []
        for index, shape in enumerate(report.shapes[1:], start=1):
            there = vendor_shapes[index] if index < len(vendor_shapes) else None
            beside = (
                f"; {report.vendor.name} {there.median_ms:.4f} ms"
                if report.vendor and there and there.median_ms
                else ""
            )
            console.print(
                f"  also {shape.label or 'shape'} ({_dims(shape.dims)}): "
                + (
                    f"{shape.median_ms:.4f} ms, {_fmt(shape.gbps, '{:.0f}')} GB/s"
                    f" ({_pct(shape.pct_of_peak, 'copy_this_run')} of copy){beside}"
                    if shape.median_ms
                    else f"{shape.status.value}: {shape.message or 'not timed'}"
                ),
                markup=False,
            )
    if report.ladder:
        lines = [*report.ladder, *(extra for extra in (report.vendor, report.copy) if extra)]
        table = Table(
            _name_column("kernel", [line.name for line in lines]),
            "lang",
            "status",
            "median ms",
            "GB/s",
            "% copy",
        )
        for line in lines:
            table.add_row(
                line.name,
                line.language or "torch",
                line.status.value,
                _fmt(line.median_ms, "{:.4f}"),
                _fmt(line.gbps, "{:.0f}"),
                _pct(line.pct_of_peak, "copy_this_run"),
            )
        console.print(table)
    if report.placement:
        console.print(f"placement: {report.placement}", markup=False)
    for flag in report.flags:
        console.print(f"[yellow]flag:[/yellow] {flag}")
    for warning in report.warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}")
    for note in report.notes if notes is None else notes:  # None: every note
        console.print(f"note: {note}", style="dim", markup=False)


#: A bench table's columns after the kernel's name: (header, cell from the kernel's line and
#: the figures shown, which are the same line on the headline table and a shape's line after).
Cell = Callable[[KernelLine, KernelLine | ShapeLine], str]
GPU_COLUMNS: list[tuple[str, Cell]] = [
    ("status", lambda kernel, shown: shown.status.value),
    ("ms", lambda kernel, shown: _fmt(shown.median_ms, "{:.4f}")),
    ("GB/s", lambda kernel, shown: _fmt(shown.gbps, "{:.0f}")),
    ("%sheet", lambda kernel, shown: _pct(shown.pct_of_peak, "datasheet")),
    ("%copy", lambda kernel, shown: _pct(shown.pct_of_peak, "copy_this_run")),
    ("vs prev", lambda kernel, shown: _fmt(shown.speedup_vs_previous, "{:.2f}x")),
]
LANG_COLUMN: tuple[str, Cell] = ("lang", lambda kernel, shown: kernel.language or "torch")


def _print_bench(result: BenchReport, notes: list[str] | None = None) -> None:
    from rich.console import Console
    from rich.table import Column, Table

    console = Console(highlight=False)
    shape = _dims(result.shape)
    console.print(
        f"[bold]{result.drill}[/bold] on {result.device.get('name', 'no device')}"
        + (f" · {shape}" if shape else "")
    )
    rows = [*result.rungs, *(r for r in (result.vendor, result.copy) if r)]
    two_tracks = any(row.language == "cuda" for row in rows)
    columns = [LANG_COLUMN, *GPU_COLUMNS] if two_tracks else GPU_COLUMNS
    if result.mode is Mode.CPU:
        table = Table(
            _name_column("rung", [r.name for r in rows]), "lang", "status", "cases checked"
        )
        for row in rows:
            table.add_row(
                row.name,
                row.language or "torch",
                row.status.value,
                "-" if row.cases is None else str(row.cases),
            )
    else:
        table = Table(
            _name_column("rung", [r.name for r in rows]),
            *(Column(header, no_wrap=True, justify="right") for header, _ in columns),
        )
        for row in rows:
            table.add_row(row.name, *(cell(row, row) for _, cell in columns))
    console.print(table)
    if result.mode is Mode.GPU:
        for shape_table in _other_shape_tables(rows, columns):
            console.print(shape_table)
        legend_tracks = "; vs prev: over the previous rung of the same lang" if two_tracks else ""
        console.print(
            f"ms: median per call (fresh inputs, L2 flushed); %sheet: of {result.gpu or 'no table'}'s "
            "datasheet bandwidth; %copy: of a device copy timed in this run" + legend_tracks,
            style="dim",
        )
    for row in rows:
        if row.status is not Status.PASSED and row.message:
            console.print(f"{row.name}: {row.message}", markup=False)
        for flag in row.flags:
            console.print(f"[yellow]flag[/yellow] {row.name}: {flag}")
    if result.problem:
        console.print(f"[red]{result.problem}[/red]", markup=False)
    for note in result.notes if notes is None else notes:  # None: every note
        console.print(f"note: {note}", style="dim", markup=False)


def _print_drill_notes(drill_id: str, notes: list[str]) -> None:
    """The drill's own notes (drill.yaml): where its top rung stands against the vendor op, shape
    by shape, on the GPU it was measured on, and why."""
    if not notes:
        return
    from rich.console import Console

    console = Console(highlight=False)
    console.print(f"[bold]Notes on the {drill_id} ladder[/bold] (from its drill.yaml)")
    for note in notes:
        console.print(f"- {note}", markup=False)


def _other_shape_tables(rows: list[KernelLine], columns: list[tuple[str, Cell]]) -> list[Table]:
    """One more table per benchmark shape after the headline, same columns, when any was timed."""
    from rich.table import Column, Table

    from gpuprep.harness.figures import further_shapes

    tables = []
    for label, dims, pairs in further_shapes(rows):
        table = Table(
            _name_column("rung", [kernel.name for kernel, _ in pairs]),
            *(Column(header, no_wrap=True, justify="right") for header, _ in columns),
            title=f"{label} · {dims}",
            title_justify="left",
        )
        for kernel, shown in pairs:
            table.add_row(kernel.name, *(cell(kernel, shown) for _, cell in columns))
        tables.append(table)
    return tables


def _positive_seconds(value: float) -> float:
    """A timeout of 0 or less would stop every run before it starts: refuse it (exit 2)."""
    if not value > 0:
        raise typer.BadParameter(f"must be more than 0 seconds, not {value:g}")
    return value


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
        typer.Option(
            "--timeout",
            help="Seconds the run may take once the worker has started.",
            callback=_positive_seconds,
        ),
    ] = 300.0,
    no_ladder: Annotated[
        bool,
        typer.Option("--no-ladder", help="Skip timing the reference ladder and the vendor op."),
    ] = False,
    banks: BankOption = None,
    ranks: Annotated[
        int | None,
        typer.Option(
            "--ranks",
            help="Collective drills: how many ranks (default: the GPUs present, or 4 on the CPU).",
        ),
    ] = None,
    sanitize: Annotated[
        bool,
        typer.Option(
            "--sanitize",
            help="Checks only, under NVIDIA compute-sanitizer (memcheck, then racecheck): "
            "the first out-of-bounds access or shared-memory race, with its kernel and line.",
        ),
    ] = False,
) -> None:
    """Check a kernel (and on a GPU, time it against the roofline and the reference ladder)."""
    from gpuprep.cli.collective_submit import submit_collective
    from gpuprep.harness.sanitizer import SanitizerUnavailable, preflight

    if sanitize:
        try:
            preflight(cpu)  # before the bank loads: the no-GPU answer comes at once
        except SanitizerUnavailable as error:
            fail(str(error), code=USAGE_ERROR if cpu else 1, as_json=as_json)
    # One load serves both kinds of drill: the bank lists the collective drills' folders too.
    bank, problems = _load_bank(banks)
    folder = bank.collective_dirs.get(drill_id)
    if folder is not None:  # N ranks at once: its own judge (gpuprep.collective)
        if sanitize:
            fail("--sanitize runs single-GPU drills only", code=USAGE_ERROR, as_json=as_json)
        from gpuprep.sessions.drill import DrillSession

        submit_collective(
            drill_id,
            folder,
            file,
            ranks=ranks,
            cpu=cpu,
            timeout_s=timeout,
            as_json=as_json,
            session=DrillSession(bank, _store_or_none()),
        )
        return
    session = _session_or_exit(drill_id, bank, problems, as_json)
    problem = session.problem_with(drill_id, file)
    if problem:
        fail(problem, code=USAGE_ERROR, as_json=as_json)
    drill = session.drill(drill_id)
    total = 2 if sanitize else 1 if cpu or no_ladder else len(drill.ladder) + 3
    label = f"submit {drill.id}" + (" under compute-sanitizer" if sanitize else "")
    progress, on_event = _progress(total, label, enabled=not as_json)
    with progress:
        report = session.submit(
            drill_id,
            file,
            cpu=cpu,
            timeout_s=timeout,
            with_ladder=not no_ladder,
            on_event=on_event,
            sanitize=sanitize,
        )
    session.record(report)
    if as_json:
        emit_json(report.to_json())
    else:
        from gpuprep.sessions.drill_report import notes_to_show

        _print_submit(report, notes_to_show(report.notes, bench=False, cpu_asked=cpu))
        if report.ladder:  # the ladder's numbers were printed: its caveats belong beside them
            _print_drill_notes(drill.id, drill.notes)
    if not report.passed:
        raise typer.Exit(1)


def bench(
    drill_id: DrillArgument,
    cpu: CpuOption = False,
    as_json: JsonOption = False,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            help="Seconds the whole run may take once the worker has started.",
            callback=_positive_seconds,
        ),
    ] = 900.0,
    banks: BankOption = None,
) -> None:
    """Run every rung of a drill's ladder and the vendor op side by side."""
    session = _session_or_exit(drill_id, *_load_bank(banks), as_json)
    drill = session.drill(drill_id)
    progress, on_event = _progress(
        len(drill.ladder) + (0 if cpu else 2), f"bench {drill.id}", enabled=not as_json
    )
    with progress:
        result = session.bench(drill_id, cpu=cpu, timeout_s=timeout, on_event=on_event)
    if as_json:
        emit_json(result.to_json())
    else:
        from gpuprep.sessions.drill_report import notes_to_show

        _print_bench(result, notes_to_show(result.notes, bench=True, cpu_asked=cpu))
        _print_drill_notes(drill.id, drill.notes)
    if result.failed or result.problem:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add `submit` and `bench` to the app."""
    app.command("submit")(submit)
    app.command("bench")(bench)
