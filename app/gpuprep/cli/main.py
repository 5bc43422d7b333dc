"""The `gpuprep` command: a thin layer that parses arguments and calls engines and sessions.

Each group of commands lives in its own module with a `register(app)` function; heavy
libraries are imported inside the commands that use them, so `gpuprep --help` starts fast.
"""

from __future__ import annotations

import importlib

import typer

from gpuprep import __version__

app = typer.Typer(
    name="gpuprep",
    help="Prepare for GPU-performance interviews: questions with rubrics, napkin math checked "
    "against hardware tables, kernel drills scored against reference ladders, mock interviews.",
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

#: Command modules under gpuprep.cli, each with `register(app)`.
COMMAND_MODULES = ("bank", "hw", "estimate", "drills", "practice", "doctor", "rubrics", "plan", "mock", "export", "scorecards", "history")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gpuprep {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def main(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."
    ),
) -> None:
    """With no command, open the app on the built-in bank."""
    if ctx.invoked_subcommand is None:
        from gpuprep.cli.practice import open_app

        open_app(banks=None)


for _name in COMMAND_MODULES:
    importlib.import_module(f"gpuprep.cli.{_name}").register(app)


def run() -> None:
    """Console-script entry point."""
    app()
