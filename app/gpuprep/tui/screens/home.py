"""Home: what is due today, the streak, coverage by topic, and the session to do next."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from gpuprep.sessions.plans import PlanToday, plan_session_filter, plan_today
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.stats import Progress, progress
from gpuprep.tui.messages import StartPractice

STYLES = Path(__file__).parent.parent / "styles"


class HomeScreen(Screen[None]):
    """The first screen: today at a glance."""

    CSS_PATH = STYLES / "home.tcss"
    BINDINGS = [
        Binding("s", "start_suggested", "Start suggested"),
        Binding("d", "review_due", "Review due"),
        Binding("t", "practise_topic", "Practise topic"),
        Binding("p", "plan_today", "Today's plan"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="summary")
        yield Static(id="suggestion")
        table: DataTable[str] = DataTable(id="coverage", cursor_type="row", zebra_stripes=True)
        table.add_columns("Due", "Seen", "Accuracy", "Topic")
        yield table
        yield Static(id="plans")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_progress()
        self.query_one("#coverage", DataTable).focus()

    def on_screen_resume(self) -> None:
        self.refresh_progress()

    @property
    def figures(self) -> Progress:
        return self._figures

    def refresh_progress(self) -> None:
        """Recompute the figures from the store and redraw."""
        app = self.app
        self._figures = figures = progress(
            app.bank, app.store.cards(), app.store.attempts(), app.clock()
        )  # type: ignore[attr-defined]
        streak = f"{figures.streak_days} day{'s' if figures.streak_days != 1 else ''}"
        self.query_one("#summary", Static).update(
            f"[b]Due today[/b] {figures.due_today}   [b]New[/b] {figures.new}   [b]Streak[/b] {streak}   "
            f"[b]Questions[/b] {len(app.bank.questions)}"  # type: ignore[attr-defined]
        )
        suggestion = figures.suggestion
        self.query_one("#suggestion", Static).update(
            f"Suggested next: [b]{suggestion.filter.describe()}[/b] ({suggestion.reason}). Press s to start, or Enter on a topic below."
            if suggestion
            else "You have seen every question and nothing is due. Browse (F3) to revisit one."
        )
        table = self.query_one("#coverage", DataTable)
        cursor = table.cursor_row
        table.clear()
        for topic in figures.topics:
            accuracy = f"{topic.accuracy:.0%}" if topic.accuracy is not None else "-"
            # The title goes last: at 80 columns it is the one that gets cut.
            table.add_row(
                str(topic.due),
                f"{topic.seen}/{topic.questions}",
                accuracy,
                topic.title,
                key=topic.topic,
            )
        if figures.topics:
            table.move_cursor(row=min(cursor, len(figures.topics) - 1))
        lines = []
        if weakest := figures.weakest():
            lines.append("Weakest: " + ", ".join(f"{t.title} ({t.accuracy:.0%})" for t in weakest))
        self._plan_today = self.plan_today()
        if self._plan_today is not None:
            today = self._plan_today
            if today.day is None:
                lines.append(
                    f"Plan: {today.describe()}. Start another from the command palette (ctrl+p)."
                )
            else:
                items = ", ".join(
                    item.topic or item.question or item.drill or "" for item in today.day.items
                )
                lines.append(f"Today: {today.describe()} ({items}). Press p to start.")
        elif plans := app.bank.plans:  # type: ignore[attr-defined]
            lines.append(
                "Prep plans (start one from ctrl+p): "
                + ", ".join(f"{plan.title} ({len(plan.days)} days)" for plan in plans.values())
            )
        self.query_one("#plans", Static).update("\n".join(lines))

    def plan_today(self) -> PlanToday | None:
        """The most recently started plan that is in the bank, and where the user is in it."""
        app = self.app
        for plan_id, started_at in app.store.plan_runs().items():  # type: ignore[attr-defined]
            plan = app.bank.plans.get(plan_id)  # type: ignore[attr-defined]
            if plan is not None:
                return plan_today(plan, started_at, app.clock())  # type: ignore[attr-defined]
        return None

    def action_plan_today(self) -> None:
        app = self.app
        today = self._plan_today
        if today is None:
            self.notify("No plan started: pick one in the command palette (ctrl+p, 'Start plan').")
            return
        practice = plan_session_filter(app.bank, today, app.store.cards(), app.clock())  # type: ignore[attr-defined]
        if practice is None:
            self.notify(f"{today.plan.title} is finished.")
            return
        self.post_message(StartPractice(practice))

    def action_start_suggested(self) -> None:
        if self._figures.suggestion is not None:
            self.post_message(StartPractice(self._figures.suggestion.filter))

    def action_review_due(self) -> None:
        self.post_message(StartPractice(PracticeFilter(due_only=True)))

    def action_practise_topic(self) -> None:
        table = self.query_one("#coverage", DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            self.post_message(StartPractice(PracticeFilter(topic=key)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.post_message(StartPractice(PracticeFilter(topic=event.row_key.value)))
