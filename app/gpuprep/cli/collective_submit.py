"""`gpuprep submit` for a collective drill (drills/<id>/collective.yaml): N ranks at once.

Reached from `gpuprep submit` when the drill id names a collective drill; prints the judge's
per-size verdicts and, on GPUs, time, algorithm and bus bandwidth beside dist.all_reduce.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from gpuprep.cli.common import USAGE_ERROR, emit_json, fail
from gpuprep.collective.protocol import CaseResult, Report
from gpuprep.collective.run import CollectiveRunError, plan_run, run_judge

if TYPE_CHECKING:
    from gpuprep.sessions.drill import DrillSession

STYLE = {"passed": "green"}


def submit_collective(
    drill_id: str,
    folder: Path,
    file: Path,
    *,
    ranks: int | None,
    cpu: bool,
    timeout_s: float,
    as_json: bool,
    session: DrillSession,
) -> None:
    """Judge `file` on N ranks against the drill in `folder` (the bank's `collective_dirs`, so
    the folders are searched once) and save the verdict through `session` (as `gpuprep submit`
    saves any drill's); exit 1 unless every case passed, 2 for a wrong command line."""
    from gpuprep.collective.spec import SPEC_NAME, CollectiveSpecError, load_collective

    try:
        drill = load_collective(folder / SPEC_NAME)
    except CollectiveSpecError as error:
        fail(str(error), code=1, as_json=as_json)
    if not file.is_file():
        fail(
            f"{file}: no such file; write {drill.entry}(x, group) in a .py file",
            code=USAGE_ERROR,
            as_json=as_json,
        )
    if ranks is not None and ranks < 2:
        fail(f"--ranks must be 2 or more, not {ranks}", code=USAGE_ERROR, as_json=as_json)
    try:
        request = plan_run(drill, file, ranks=ranks, cpu=cpu, timeout_s=timeout_s)
        if not as_json:
            typer.echo(
                f"judging {file.name} on {request['ranks']} {request['device']} ranks "
                f"({len(request['cases'])} sizes)...",
                err=True,
            )
        report = run_judge(request, timeout_s=timeout_s * (len(request["cases"]) + 1) + 120)
    except CollectiveRunError as error:
        fail(str(error), code=USAGE_ERROR if "--cpu" in str(error) else 1, as_json=as_json)
    session.record_collective(drill_id, report)
    if as_json:
        emit_json(dict(report))
    else:
        _print(drill_id, report)
    if report["status"] != "passed":
        raise typer.Exit(1)


def _fmt(value: float | None, pattern: str) -> str:
    return "-" if value is None else pattern.format(value)


def _verdict(case: CaseResult) -> str:
    if not case.get("checked"):
        return "timed"
    return (
        "ok" if case.get("ok") else "WRONG ranks " + ",".join(map(str, case.get("bad_ranks", [])))
    )


def _print(drill_id: str, report: Report) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    style = STYLE.get(report["status"], "red")
    console.print(
        f"[bold]{drill_id}[/bold] · {Path(report['file']).name} · "
        f"[{style}]{report['status'].upper()}[/{style}] · {report['ranks']} ranks · {report['device']}"
    )
    console.print(report["message"], markup=False)
    timed = any(case.get("median_ms") for case in report["cases"])
    columns = ["size", "elements", "dtype", "verdict", "max rel err"]
    if timed:
        columns += ["ms", "algbw GB/s", "busbw GB/s", "NCCL ms", "NCCL busbw", "share"]
    table = Table(*columns)
    for case in report["cases"]:
        row = [
            case["label"],
            str(case["numel"]),
            case["dtype"],
            _verdict(case),
            _fmt(case.get("max_rel_err"), "{:.1e}"),
        ]
        if timed:
            row += [
                _fmt(case.get("median_ms"), "{:.3f}"),
                _fmt(case.get("algbw_gbps"), "{:.1f}"),
                _fmt(case.get("busbw_gbps"), "{:.1f}"),
                _fmt(case.get("vendor_ms"), "{:.3f}"),
                _fmt(case.get("vendor_busbw_gbps"), "{:.1f}"),
                _fmt(case.get("share_of_vendor"), "{:.2f}x"),
            ]
        table.add_row(*row)
    if report["cases"]:
        console.print(table)
    if timed:
        console.print(
            "busbw = bytes / time x 2(N-1)/N (nccl-tests); share: of dist.all_reduce's busbw, "
            "timed in the same ranks",
            style="dim",
        )
    if report["traceback"]:
        console.print(report["traceback"], markup=False, style="dim")
