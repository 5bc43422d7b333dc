"""CLI commands of this group (being built; see the open issues)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""


def open_app(banks: list | None) -> None:
    """Open the TUI (issue 6)."""
    typer.echo("The TUI is not built yet; try `gpuprep bank stats` or `gpuprep hw list`.")
