"""`gpuprep mock`: a mock interview composed the way real loops run. For now only its plan
(`--dry-run`): the timed interview itself runs in the TUI, which is not built yet."""

from __future__ import annotations

from typing import Annotated

import typer

from gpuprep.cli.common import (
    USAGE_ERROR,
    BankOption,
    JsonOption,
    emit_json,
    fail,
    load_bank_or_exit,
)
from gpuprep.cli.rubrics import LEVELS, check_choice

#: The same values as gpuprep.sessions.mock_plan's, kept here so that `--help` imports no session.
MOCK_MINUTES = (45, 60, 90)
TRACKS = ("kernel", "inference", "training", "general")


def _show(plan) -> None:  # noqa: ANN001
    level = f" {plan.level}" if plan.level else ""
    typer.echo(
        f"A {plan.minutes}-minute{level} {plan.track} mock, seed {plan.seed}"
        f" ({plan.total_minutes} min of questions):"
    )
    for number, section in enumerate(plan.sections, 1):
        typer.echo(
            f"  {number}. {section.title}, {section.minutes} min: {', '.join(section.question_ids)}"
        )
    if plan.weak_topics:
        typer.echo(f"Your weak topics were drawn more often: {', '.join(plan.weak_topics)}.")
    for note in plan.notes:
        typer.echo(f"Note: {note}.")
    typer.echo("Dry run: nothing started.")


def register(app: typer.Typer) -> None:
    """Add `gpuprep mock` to the app."""

    @app.command("mock")
    def mock(
        minutes: Annotated[
            int, typer.Option("--minutes", "-m", help="Length: 45, 60 or 90 minutes.")
        ] = 45,
        track: Annotated[
            str, typer.Option("--track", help=f"Which loop: {', '.join(TRACKS)}.")
        ] = "general",
        level: Annotated[
            str | None,
            typer.Option(
                "--level", "-l", help=f"Questions at this level or easier: {', '.join(LEVELS)}."
            ),
        ] = None,
        seed: Annotated[
            int | None,
            typer.Option(
                "--seed",
                help="The same seed gives the same interview (your history is then left out).",
                show_default=False,
            ),
        ] = None,
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help="Show the interview it would run; start nothing.")
        ] = False,
        banks: BankOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """A mock interview the way real loops run (warm-up concepts, an estimation, a debugging
        scenario, a kernel drill, a design question) fitted to the minutes given. Only --dry-run
        works yet: the timed interview, in the app, is not built."""
        if minutes not in MOCK_MINUTES:
            fail(
                f"--minutes {minutes}: a mock lasts {', '.join(map(str, MOCK_MINUTES))} minutes",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        check_choice("track", track, TRACKS, as_json)
        check_choice("level", level, LEVELS, as_json)
        if not dry_run:
            fail(
                "the timed mock interview (in the TUI) is not built yet; "
                "`gpuprep mock --dry-run` shows the interview it would run",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        from gpuprep.sessions.checked_bank import load_checked_bank
        from gpuprep.sessions.clock import system_clock
        from gpuprep.sessions.mock_plan import MockError, choose_mock

        bank = load_bank_or_exit(banks, as_json=as_json, loader=load_checked_bank)
        history = None
        if seed is None:
            from gpuprep.store.database import Store, StoreError

            try:
                store = Store.open()
            except StoreError as error:
                fail(str(error), as_json=as_json)
            try:
                history = (store.cards(), store.attempts())
            finally:
                store.close()
            if store.recovery_message:
                typer.echo(store.recovery_message, err=True)
        try:
            plan = choose_mock(
                bank,
                minutes=minutes,
                track=track,
                level=level,
                seed=seed,
                history=history,
                now=system_clock(),
            )
        except MockError as error:
            fail(str(error), code=USAGE_ERROR, as_json=as_json)
        if as_json:
            emit_json(plan.to_json())
        else:
            _show(plan)
