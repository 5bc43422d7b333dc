"""`gpuprep hw list | show | calibrate`: the hardware tables, every figure with its unit and
source, and the ceilings measured on this machine's GPU."""

from __future__ import annotations

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
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.bank.hardware import Hardware

hw_app = typer.Typer(
    help="GPU hardware tables: datasheet figures with sources, derived figures.",
    no_args_is_help=True,
)


def _load_hardware(banks: list[Path] | None, *, as_json: bool) -> dict[str, Hardware]:
    """The GPU tables of the bank; exit 1 only if a hardware file itself has a problem.

    A broken question elsewhere in the bank must not hide the datasheet figures, so problems
    outside `hardware/` folders are left to `gpuprep bank check`.
    """
    from gpuprep.bank.loader import load_bank

    bank, problems = load_bank(extra_banks(banks))
    broken = sorted(p for p in problems if p.path.parent.name == "hardware" or p.where == "(bank)")
    if broken:
        if as_json:
            emit_json(
                {
                    "error": "the hardware tables have problems",
                    "problems": [p.to_json() for p in broken],
                }
            )
        else:
            for problem in broken:
                typer.echo(str(problem), err=True)
        from gpuprep.cli.common import fix_hint

        fail(
            f"{counted(len(broken), 'problem')} in the hardware tables; {fix_hint(banks)}.",
            as_json=False,
        )
    return bank.hardware


@hw_app.command("list")
def list_gpus(banks: BankOption = None, as_json: JsonOption = False) -> None:
    """List the GPUs with their headline figures."""
    from gpuprep.bank.hardware_view import headline

    hardware = _load_hardware(banks, as_json=as_json)
    rows = [headline(gpu) for gpu in hardware.values()]
    if as_json:
        emit_json(rows)
        return
    from rich.console import Console
    from rich.table import Table

    from gpuprep.bank.hardware_view import HEADLINE_COLUMNS, headline_text

    table = Table("id", "name", *(f"{label}\n{unit}" for _, label, unit in HEADLINE_COLUMNS))
    table.columns[0].no_wrap = True  # every other command takes the id: never cut it
    for column in table.columns[2:]:
        column.justify = "right"
    for row in rows:
        table.add_row(
            row["id"], row["name"], *(headline_text(row[name]) for name, _, _ in HEADLINE_COLUMNS)
        )
    Console().print(table)


@hw_app.command("show")
def show(
    gpu_id: Annotated[str, typer.Argument(metavar="ID", help="GPU id, e.g. h100_sxm.")],
    banks: BankOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one GPU: value, unit and source of every figure, then the derived figures."""
    from gpuprep.bank.hardware_view import describe
    from gpuprep.units.quantity import format_number

    hardware = _load_hardware(banks, as_json=as_json)
    from gpuprep.wording import match_name, unknown_name

    gpu = hardware.get(match_name(gpu_id, hardware) or gpu_id)
    if gpu is None:
        fail(unknown_name("GPU", gpu_id, hardware), code=USAGE_ERROR, as_json=as_json)
    description = describe(gpu)
    if as_json:
        emit_json(description)
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"[bold]{gpu.name}[/bold] ({gpu.id}) — {gpu.architecture}, CC {gpu.compute_capability or 'n/a'}"
    )
    table = Table("field", "value", "unit", "sparse", "source", "note")
    for name, row in description["specs"].items():
        sparse = format_number(row["sparse"], 4) if row["sparse"] is not None else ""
        # A count's unit is "1" in the tables; a bare "1" in the unit column reads as a value.
        unit = "" if row["unit"] == "1" else row["unit"]
        table.add_row(name, row["value_text"], unit, sparse, row["source"], row["note"])
    console.print(table)
    derived = Table("derived", "value", "unit", "formula")
    for name, row in description["derived"].items():
        derived.add_row(name, row["value_text"], row["unit"], row["formula"])
    console.print(derived)
    if description["features"]:
        capabilities = Table(f"capability (memory: {gpu.memory or 'n/a'})", "", "source", "note")
        for name, row in description["features"].items():
            capabilities.add_row(
                name, "yes" if row["supported"] else "no", row["source"], row["note"]
            )
        console.print(capabilities)
    sources = Table("source", "document", "kind")
    for source_id, source in gpu.sources.items():
        sources.add_row(source_id, f"{source.title} {source.url}".strip(), source.kind)
    console.print(sources)
    for note in gpu.notes:
        console.print(f"note: {note}")


@hw_app.command("calibrate")
def calibrate(as_json: JsonOption = False) -> None:
    """Measure this GPU's copy bandwidth and bf16 matrix rate and store them beside the datasheet."""
    from gpuprep.harness.api import CalibrationFailed
    from gpuprep.harness.api import calibrate as measure
    from gpuprep.harness.calibration import save_calibration

    try:
        calibration = measure()
    except CalibrationFailed as error:
        fail(str(error), as_json=as_json)
    device, measured = calibration.device, calibration.measured
    path = save_calibration(dict(device), measured)
    if as_json:
        emit_json({"device": device, "measured": measured, "saved": str(path)})
        return
    typer.echo(
        f"{device.get('name')}: copy {measured['copy_gbps']:.0f} GB/s (read + write), "
        f"bf16 matrix {measured['bf16_tflops']:.0f} TFLOP/s; saved to {path}"
    )


def register(app: typer.Typer) -> None:
    app.add_typer(hw_app, name="hw")
