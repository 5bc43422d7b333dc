"""Stats: attempts over time, accuracy and time per topic, the weakest topics and the slips the
estimates fell into, drawn as plots."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from gpuprep.sessions.slips import slips
from gpuprep.sessions.stats import progress
from gpuprep.tui.widgets.drill_history import DrillHistoryPane

STYLES = Path(__file__).parent.parent / "styles"


class StatsScreen(Screen[None]):
    """How practice has gone so far."""

    CSS_PATH = STYLES / "stats.tcss"

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent():
            with TabPane("Questions", id="questions-tab"):
                with Horizontal(id="plots"):
                    yield PlotextPlot(id="per-day")
                    yield PlotextPlot(id="accuracy")
                yield Static(id="weakest")
                table: DataTable[str] = DataTable(
                    id="topics-table", cursor_type="row", zebra_stripes=True
                )
                table.add_columns("Attempts", "Accuracy", "Mean time", "Topic")
                yield table
            with TabPane("Drills", id="drills-tab"):
                yield DrillHistoryPane()
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_progress()

    def on_screen_resume(self) -> None:
        self.refresh_progress()

    def refresh_progress(self) -> None:
        app = self.app
        attempts = app.store.attempts()  # type: ignore[attr-defined]
        figures = progress(app.bank, app.store.cards(), attempts, app.clock(), days=14)  # type: ignore[attr-defined]
        per_day = self.query_one("#per-day", PlotextPlot)
        plt = per_day.plt
        plt.clear_data()
        plt.clear_figure()
        labels = [day.strftime("%m-%d") for day, _count in figures.attempts_per_day]
        counts = [count for _day, count in figures.attempts_per_day]
        positions = list(range(1, len(counts) + 1))
        plt.bar(positions, counts)
        # Explicit ticks: left to itself plotext picks date labels differently from run to run.
        plt.xticks(positions[::3], labels[::3])
        plt.ylim(0, max(1, *counts))
        plt.title("Attempts per day (last 14 days)")
        per_day.refresh()
        accuracy = self.query_one("#accuracy", PlotextPlot)
        plt = accuracy.plt
        plt.clear_data()
        plt.clear_figure()
        tried = [t for t in figures.topics if t.attempts]
        if tried:
            positions = list(range(1, len(tried) + 1))
            plt.bar(positions, [round(100 * (t.accuracy or 0)) for t in tried])
            plt.xticks(positions, [t.topic for t in tried])
            plt.ylim(0, 100)
        plt.title("Accuracy per topic (%)" if tried else "Accuracy per topic: no attempts yet")
        accuracy.refresh()
        weakest = figures.weakest()
        said = (
            "Weakest: "
            + ", ".join(f"{t.title} ({t.accuracy:.0%} of {t.attempts})" for t in weakest)
            if weakest
            else "Weakest topics appear after two attempts in a topic."
        )
        # The slips the estimates fell into, a line each, under the weakest topics.
        said = "\n".join([said, *slips(attempts).sentences()])
        self.query_one("#weakest", Static).update(said)
        table = self.query_one("#topics-table", DataTable)
        table.clear()
        for topic in figures.topics:
            table.add_row(
                str(topic.attempts),
                f"{topic.accuracy:.0%}" if topic.accuracy is not None else "-",
                f"{topic.mean_seconds:.0f} s" if topic.mean_seconds is not None else "-",
                topic.title,
                key=topic.topic,
            )
