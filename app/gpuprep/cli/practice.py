"""`gpuprep drill` and `gpuprep` alone: open the TUI, on a practice session or on the home screen."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gpuprep.cli.common import (
    KINDS,
    LEVELS,
    USAGE_ERROR,
    BankOption,
    KindOption,
    LevelOption,
    fail,
    load_bank_or_exit,
)

if TYPE_CHECKING:
    from gpuprep.bank.loader import Bank
    from gpuprep.sessions.checked_bank import SkippedBank
    from gpuprep.sessions.practice import PracticeFilter


def _load_bank(banks: list[Path] | None) -> tuple[Bank, str]:
    """The checked bank (the check is skipped while no file changed), or exit 1 listing its problems.

    A broken extra bank from the settings is left out, not fatal: the app opens without it and
    says so (F5 edits the list); one given with --bank is the user's request and still fails."""
    from gpuprep.sessions.checked_bank import load_bank_skipping_broken
    from gpuprep.settings import SettingsError, load_settings

    required = list(banks or [])
    try:
        saved = [f for f in load_settings().extra_banks if f not in required]
    except SettingsError as error:
        fail(str(error))
    skipped: list[SkippedBank] = []

    def loader(_: list[Path]) -> Bank:
        bank, left_out = load_bank_skipping_broken(required, saved)
        skipped.extend(left_out)
        return bank

    bank = load_bank_or_exit(banks, loader=loader)
    return bank, skipped_notice(skipped)


def skipped_notice(skipped: list[SkippedBank]) -> str:
    """The banner for extra banks left out, or "" when none was."""
    if not skipped:
        return ""
    from gpuprep.wording import counted

    listed = "; ".join(str(s) for s in skipped)
    return f"{counted(len(skipped), 'extra bank')} skipped: {listed}. F5 (Settings) edits the list."


def _run_app(loaded: tuple[Bank, str], practice: PracticeFilter | None = None) -> None:
    from gpuprep.store.database import Store, StoreError

    bank, notice = loaded
    try:
        store = Store.open()
    except StoreError as error:
        fail(str(error))
    from gpuprep.tui.app import make_app

    app = make_app(bank=bank, store=store, practice=practice, notice=notice)
    try:
        app.run()
    finally:
        store.close()
    if store.recovery_message:
        typer.echo(store.recovery_message, err=True)
    if notice:
        typer.echo(notice, err=True)


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
        kind: KindOption = None,
        level: LevelOption = None,
        banks: BankOption = None,
    ) -> None:
        """Open a practice session; with no filter, review the cards that are due."""
        from gpuprep.wording import match_name, unknown_name

        if kind is not None:
            kind = match_name(kind, KINDS) or fail(
                unknown_name("kind", kind, KINDS), code=USAGE_ERROR
            )
        if level is not None:
            level = match_name(level, LEVELS) or fail(
                unknown_name("level", level, LEVELS), code=USAGE_ERROR
            )
        from gpuprep.sessions.practice import PracticeFilter

        loaded = _load_bank(banks)
        bank = loaded[0]
        if topic is not None:
            topic = match_name(topic, bank.topics) or fail(
                unknown_name("topic", topic, bank.topics), code=USAGE_ERROR
            )
        practice = PracticeFilter(
            topic=topic, kind=kind, level=level, due_only=not (topic or kind or level)
        )
        _run_app(loaded, practice)
