"""`gpuprep plan --days N`: a prep plan on the calendar, with today's items merged with the
reviews that are due."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Annotated

import typer

from gpuprep.cli.common import (
    USAGE_ERROR,
    BankOption,
    JsonOption,
    emit_json,
    fail,
    load_bank_or_exit,
)
from gpuprep.sessions.clock import system_clock
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.sessions.plans import PlanSchedule

#: What `--days` takes (the built-in plans' lengths).
PLAN_DAYS = (3, 7, 14, 28, 56)


def _start(text: str | None, as_json: bool) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        fail(
            f"--start {text!r}: write a date as YYYY-MM-DD, e.g. 2026-12-01",
            code=USAGE_ERROR,
            as_json=as_json,
        )


def _show(schedule: PlanSchedule, started: bool) -> None:
    plan = schedule.plan
    typer.echo(f"{plan.title} ({plan.id}), from {schedule.start:%a %Y-%m-%d}")
    if plan.summary:
        typer.echo(plan.summary)
    typer.echo(f"{counted(len(schedule.due_today), 'card')} due for review today.")
    for day in schedule.days:
        marker = "   <- today" if day.is_today else ""
        typer.echo(f"\nDay {day.day} · {day.date:%a %Y-%m-%d} · {day.title}{marker}")
        for item in day.items:
            if item.kind == "review":
                head = f"review {len(item.question_ids)}" if item.question_ids else "review"
            elif item.kind == "topic":
                head = f"{item.target} x{item.count}"
            else:
                head = f"{item.kind} {item.target}"
            note = f": {item.note}" if item.note else ""
            typer.echo(f"  - {head}{note}")
            if day.is_today and item.question_ids:
                typer.echo(f"      {', '.join(item.question_ids)}")
    if started:
        typer.echo("\nIn the app (`gpuprep`), p on Home opens today's questions.")
    else:
        typer.echo(
            "\nStart the plan in the app (`gpuprep`, ctrl+p, Start plan) and Home follows it."
        )


def register(app: typer.Typer) -> None:
    """Add `gpuprep plan` to the app."""

    @app.command("plan")
    def plan(
        days: Annotated[
            int,
            typer.Option(
                "--days",
                "-d",
                help=f"The plan's length in days: {', '.join(map(str, PLAN_DAYS))}.",
                show_default=False,
            ),
        ],
        start: Annotated[
            str | None,
            typer.Option(
                "--start",
                help="The date of day 1 (YYYY-MM-DD); default: the day you started the plan, else today.",
                show_default=False,
            ),
        ] = None,
        banks: BankOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Show a prep plan day by day with its dates; today's items come with the reviews due."""
        if days not in PLAN_DAYS:
            fail(
                f"--days {days}: plans last {', '.join(map(str, PLAN_DAYS))} days",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        first_day = _start(start, as_json)
        from gpuprep.sessions.checked_bank import load_checked_bank
        from gpuprep.sessions.plans import plan_lengths, plan_start, plans_of_length, schedule
        from gpuprep.store.database import Store, StoreError

        bank = load_bank_or_exit(banks, as_json=as_json, loader=load_checked_bank)
        plans = plans_of_length(bank, days)
        if not plans:
            offered = ", ".join(map(str, plan_lengths(bank))) or "none"
            fail(
                f"no {days}-day plan in the bank (plan lengths: {offered})",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        chosen = plans[0]
        now = system_clock()
        try:
            store = Store.open()
        except StoreError as error:
            fail(str(error), as_json=as_json)
        try:
            cards = store.cards()
            runs = store.plan_runs()
        finally:
            store.close()
        if store.recovery_message:
            typer.echo(store.recovery_message, err=True)
        laid_out = schedule(bank, chosen, first_day or plan_start(chosen, runs, now), cards, now)
        if as_json:
            emit_json(laid_out.to_json())
        else:
            _show(laid_out, started=chosen.id in runs)
