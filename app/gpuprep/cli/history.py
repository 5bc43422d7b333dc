"""`gpuprep history [--drill D] [--json]`: kernel-drill submissions over time, best per drill.

Every submission from `gpuprep submit` and from the app's coding pane is saved through
`DrillSession.record`; this command reads them back (`sessions.drill_history`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from gpuprep.cli.common import USAGE_ERROR, BankOption, JsonOption, emit_json, fail
from gpuprep.wording import counted


def register(app: typer.Typer) -> None:
    """Add `gpuprep history` to the app."""

    @app.command("history")
    def history(
        drill: Annotated[
            str | None, typer.Option("--drill", "-d", help="Only one drill, e.g. softmax.")
        ] = None,
        banks: BankOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Your kernel-drill submissions: when, verdict, time, the rung reached; best per drill."""
        from gpuprep.bank.loader import load_bank
        from gpuprep.cli.common import extra_banks
        from gpuprep.sessions.drill_history import best_per_drill, format_ms
        from gpuprep.sessions.drill_history import history as read_history
        from gpuprep.store.database import Store, StoreError

        # Drills whose YAML has problems elsewhere in the bank still show their history.
        bank, _problems = load_bank(extra_banks(banks))
        # Collective drills (all_reduce) are saved like the others: `submit` takes both kinds.
        known = sorted({*bank.drills, *bank.collective_dirs})
        if drill is not None and drill not in known:
            fail(
                f"unknown drill {drill!r} (known: {', '.join(known)})",
                code=USAGE_ERROR,
                as_json=as_json,
            )
        try:
            store = Store.open()
        except StoreError as error:
            fail(str(error), as_json=as_json)
        entries = read_history(store.drill_results(drill), bank)
        store.close()
        bests = best_per_drill(entries)
        if as_json:
            emit_json(
                {
                    "best": [best.to_json() for best in bests],
                    "submissions": [item.to_json() for item in entries],
                }
            )
            return
        if not entries:
            scope = f"drill {drill}" if drill else "any drill"
            typer.echo(
                f"No submissions to {scope} yet: `gpuprep submit DRILL FILE` saves each one."
            )
            return
        from rich import box
        from rich.console import Console
        from rich.table import Column, Table

        console = Console(highlight=False)

        def fixed(title: str) -> Column:
            return Column(title, no_wrap=True)

        best_table = Table(
            fixed("drill"),
            "tries",
            "passed",
            fixed("best ms"),
            fixed("rung reached"),
            "last",
            title="Best per drill",
            box=box.SIMPLE_HEAD,
        )
        for best in bests:
            best_table.add_row(*best.cells())
        console.print(best_table)
        table = Table(
            fixed("when (UTC)"),
            fixed("drill"),
            fixed("run"),
            fixed("status"),
            fixed("ms"),
            fixed("rung reached"),
            title="Submissions, oldest first",
            box=box.SIMPLE_HEAD,
        )
        for item in entries:
            table.add_row(
                item.submitted_at.strftime("%Y-%m-%d %H:%M"),
                item.drill_id,
                f"{item.language} {item.mode or '?'}",
                item.status,
                format_ms(item.median_ms),
                item.rung or ("-" if item.median_ms is None else "below the first rung"),
            )
        console.print(table)
        console.print(
            f"{counted(len(entries), 'submission')}; times are medians on the drill's headline shape "
            "(GPU runs only: CPU runs check correctness); a rung is reached when the time is level "
            "with it (within 3%) or faster.",
            style="dim",
        )
