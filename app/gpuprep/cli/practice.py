"""`gpuprep drill` and `gpuprep` alone: open the TUI, on a practice session or on the home screen."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gpuprep.cli.common import USAGE_ERROR, BankOption, fail, load_bank_or_exit

KINDS = ("concept", "estimation", "debugging", "design", "coding")
LEVELS = ("junior", "mid", "senior")


def _load_bank(banks: list[Path] | None):  # noqa: ANN202
    """The checked bank (the check is skipped while no file changed), or exit 1 listing its problems."""
    from gpuprep.sessions.checked_bank import load_checked_bank

    return load_bank_or_exit(banks, loader=load_checked_bank)


def _run_app(bank, practice=None) -> None:  # noqa: ANN001
    from gpuprep.store.database import Store, StoreError

    try:
        store = Store.open()
    except StoreError as error:
        fail(str(error))
    from gpuprep.tui.app import make_app

    app = make_app(bank=bank, store=store, practice=practice)
    try:
        app.run()
    finally:
        store.close()
    if store.recovery_message:
        typer.echo(store.recovery_message, err=True)


def open_app(banks: list[Path] | None) -> None:
    """Open the TUI on the home screen."""
    _run_app(_load_bank(banks))


def register(app: typer.Typer) -> None:
    """Add `gpuprep drill` to the app."""

    @app.command("drill")
    def drill(
        topic: Annotated[
            str | None, typer.Option("--topic", "-t", help="Practise one topic, e.g. roofline.")
        ] = None,
        kind: Annotated[
            str | None, typer.Option("--kind", "-k", help=f"Only one kind: {', '.join(KINDS)}.")
        ] = None,
        level: Annotated[
            str | None, typer.Option("--level", "-l", help=f"Only one level: {', '.join(LEVELS)}.")
        ] = None,
        banks: BankOption = None,
    ) -> None:
        """Open a practice session; with no filter, review the cards that are due."""
        if kind is not None and kind not in KINDS:
            fail(f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}", code=USAGE_ERROR)
        if level is not None and level not in LEVELS:
            fail(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}", code=USAGE_ERROR)
        from gpuprep.sessions.practice import PracticeFilter

        practice = PracticeFilter(
            topic=topic, kind=kind, level=level, due_only=not (topic or kind or level)
        )
        bank = _load_bank(banks)
        if topic is not None and topic not in bank.topics:
            fail(
                f"unknown topic {topic!r}; known: {', '.join(sorted(bank.topics))}",
                code=USAGE_ERROR,
            )
        _run_app(bank, practice)
