"""Home: what is due today, the streak, coverage by topic, and the session to do next."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path

from rich.cells import cell_len
from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Header, Static

from gpuprep.sessions.plans import PlanOnHome, plan_lengths, plan_on_home
from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.queues import new_cards_left
from gpuprep.sessions.stats import Progress, Suggestion, progress
from gpuprep.tui.messages import StartPractice
from gpuprep.tui.screens.base import GpuprepScreen

STYLES = Path(__file__).parent.parent / "styles"

#: Narrower than this, the topic titles are not cut further: the table scrolls sideways instead.
MIN_TITLE_WIDTH = 16


class HomeScreen(GpuprepScreen[None]):
    """The first screen: today at a glance."""

    CSS_PATH = STYLES / "home.tcss"
    # Short words, so that the footer fits 80 columns; F1 shows the tooltips, and the keys
    # left out of the footer (i, F3, F4) still work.
    BINDINGS = [
        Binding("s", "start_suggested", "Start", tooltip="Start the suggested session"),
        Binding("d", "review_due", "Review", tooltip="Review what is due today (learn + review)"),
        Binding("t", "practise_topic", "Topic", tooltip="Practise the highlighted topic"),
        Binding("p", "plan_today", "Plan", tooltip="Practise what is left of today's plan"),
        Binding("c", "choose_plan", "Plans", tooltip="Choose a prep plan, or stop one"),
        Binding("i", "interviewer", "Interviewer", show=False),
        Binding("f3", "app.switch_mode('browse')", "Browse", show=False),
        Binding("f4", "app.switch_mode('stats')", "Stats", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="summary")
        yield Static(id="suggestion")
        yield DataTable(id="coverage", cursor_type="row", zebra_stripes=True)
        yield Static(id="plans")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_progress()
        self.query_one("#coverage", DataTable).focus()

    def on_resize(self) -> None:
        # The titles are cut to the table's new width once it is laid out.
        self.call_after_refresh(self.show_coverage)

    def on_screen_resume(self) -> None:
        self.refresh_progress()

    @property
    def figures(self) -> Progress:
        return self._figures

    def refresh_progress(self) -> None:
        """Recompute the figures from the store and redraw."""
        app = self.app
        now = app.clock()
        # The same lists a session asks from (`queues`): d opens Learn + Review, s adds New.
        new_left = new_cards_left(app.store, now, app.new_per_day)
        self._figures = figures = progress(
            app.bank,
            app.store.cards(),
            app.store.attempts(),
            now,
            new_left=new_left,
        )
        streak = f"{figures.streak_days} day{'s' if figures.streak_days != 1 else ''}"
        self.query_one("#summary", Static).update(
            f"[b]Due today[/b] learn {figures.learn} · review {figures.review}   "
            f"[b]New[/b] {figures.new}   [b]Streak[/b] {streak}   "
            f"[b]Questions[/b] {len(app.bank.questions)}"
        )
        self._plan = self.plan_on_home()
        suggestion = figures.suggestion
        if self._plan is not None and self._plan.suggestion is not None:
            suggestion = Suggestion(self._plan.suggestion, "today's plan")
        self._suggestion = suggestion
        self.query_one("#suggestion", Static).update(
            f"Suggested next: [b]{escape(suggestion.filter.describe())}[/b] ({escape(suggestion.reason)}). Press s to start, or Enter on a topic below."
            if suggestion
            else "You have seen every question and nothing is due. Browse (F3) to revisit one."
        )
        self.show_coverage()
        lines = []
        if weakest := figures.weakest():
            lines.append("Weakest: " + ", ".join(f"{t.title} ({t.accuracy:.0%})" for t in weakest))
        lines += self._plan_lines()
        self.query_one("#plans", Static).update("\n".join(lines))

    def show_coverage(self) -> None:
        """One row per topic. The title goes last and takes the width the table has left: one
        longer than that ends in '…' (cut bare at the edge, "Kernel coding drills II" read as
        a whole "Kernel coding drills")."""
        table = self.query_one("#coverage", DataTable)
        cursor = table.cursor_row
        rows = [
            (
                str(topic.due),
                f"{topic.seen}/{topic.questions}",
                f"{topic.accuracy:.0%}" if topic.accuracy is not None else "-",
            )
            for topic in self.figures.topics
        ]
        labels = ("Due", "Seen", "Accuracy")
        widths = [max(map(cell_len, column)) for column in zip(labels, *rows, strict=True)]
        # Before the first layout the table is as wide as the screen; room is kept for the
        # vertical scrollbar, which a long list of topics brings.
        room = (table.size.width or self.size.width) - table.styles.scrollbar_size_vertical
        padding = 2 * table.cell_padding
        title_width = max(room - sum(widths) - padding * (len(widths) + 1), MIN_TITLE_WIDTH)
        table.clear(columns=True)
        for label, width in zip(labels, widths, strict=True):
            table.add_column(label, width=width)
        table.add_column("Topic", width=title_width)
        for topic, cells in zip(self.figures.topics, rows, strict=True):
            title = Text(topic.title, overflow="ellipsis", no_wrap=True)
            table.add_row(*cells, title, key=topic.topic)
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))

    def _plan_lines(self) -> list[str]:
        plan = self._plan
        if plan is None:
            lengths = plan_lengths(self.app.bank)
            if not lengths:
                return []
            span = (
                f"{lengths[0]} to {lengths[-1]} days" if len(lengths) > 1 else f"{lengths[0]} days"
            )
            return [f"No prep plan running: press c to choose one ({span})."]
        today = plan.today
        if today.day is None:
            return [f"Plan: {escape(today.describe())}. Press c to choose another."]
        done = sum(1 for item in plan.items if item.finished)
        marks = " · ".join(
            f"{'✓' if item.finished else '○'} {escape(item.label)} {item.done}/{item.target}"
            for item in plan.items
        )
        next_step = "press p to practise what is left" if plan.suggestion else "today is done"
        return [
            f"[b]Today[/b]: {escape(today.describe())}: {done}/{len(plan.items)} done, {next_step}.",
            marks,
        ]

    def plan_on_home(self) -> PlanOnHome | None:
        """The running plan with today's items ticked from today's attempts and submissions."""
        app = self.app
        now = app.clock()
        midnight = datetime.combine(now.date(), time.min, UTC)
        return plan_on_home(
            app.bank,
            app.store.plan_runs(),
            app.store.cards(),
            app.store.attempts(since=midnight),
            app.store.drill_results(),
            now,
        )

    def action_plan_today(self) -> None:
        plan = self._plan
        if plan is None:
            self.notify("No plan running: press c to choose one.")
        elif plan.today.day is None:
            self.notify(f"{plan.today.plan.title} is finished. Press c to choose another.")
        elif plan.suggestion is None:
            self.notify("Everything on today's plan is done. Tomorrow brings the next day.")
        else:
            self.post_message(StartPractice(plan.suggestion))

    def action_choose_plan(self) -> None:
        from gpuprep.tui.screens.interviewer_dialogs import ChoicePrompt

        plans = self.app.bank.plans
        if not plans:
            self.notify("The bank has no prep plans.")
            return
        choices = [
            (
                plan.id,
                f"{plan.title} ({len(plan.days)} days){': ' + plan.summary if plan.summary else ''}",
            )
            for plan in sorted(plans.values(), key=lambda p: max(d.day for d in p.days))
        ]
        if self._plan is not None:
            choices.append(("", f"Stop {self._plan.today.plan.title}"))
        self.app.push_screen(
            ChoicePrompt("Choose a prep plan: day 1 is today", choices), self._chose_plan
        )

    def _chose_plan(self, plan_id: str | None) -> None:
        if plan_id is None:
            return
        if plan_id == "" and self._plan is not None:
            self.app.store.stop_plan(self._plan.today.plan.id)
            self.notify(f"Stopped {self._plan.today.plan.title}.")
            self.refresh_progress()
            return
        self.app.start_plan(plan_id)

    def action_interviewer(self) -> None:
        self.app.switch_mode("interviewer")

    def action_start_suggested(self) -> None:
        if self._suggestion is not None:
            self.post_message(StartPractice(self._suggestion.filter))

    def action_review_due(self) -> None:
        self.post_message(StartPractice(PracticeFilter(due_only=True)))

    def action_practise_topic(self) -> None:
        table = self.query_one("#coverage", DataTable)
        if table.row_count:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            self.post_message(StartPractice(PracticeFilter(topic=key)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.post_message(StartPractice(PracticeFilter(topic=event.row_key.value)))
