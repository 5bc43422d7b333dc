"""Stats: attempts over time, accuracy and time per topic, the weakest topics and the slips the
estimates fell into, drawn as plots."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from gpuprep.sessions.slips import slips
from gpuprep.sessions.stats import progress
from gpuprep.tui.screens.base import GpuprepScreen
from gpuprep.tui.widgets.drill_history import DrillHistoryPane
from gpuprep.wording import counted

STYLES = Path(__file__).parent.parent / "styles"


def count_ticks(most: int, at_most: int = 5) -> tuple[int, list[int]]:
    """(the axis top, its ticks) for counts up to `most`: whole numbers only, at most `at_most`
    ticks from 0, evenly spaced, the top a tick (plotext alone labels 2 attempts 0.0, 0.5 ...)."""
    step = max(1, -(-max(most, 1) // (at_most - 1)))
    top = step * -(-max(most, 1) // step)
    return top, list(range(0, top + 1, step))


def day_ticks(days: list[date], every: int = 3) -> tuple[list[float], list[str]]:
    """(positions, labels) of a day axis: the last day labelled 'today', then every `every`th
    day back from it as month-day, so that today is always named and never crowded out."""
    picked = list(range(len(days) - 1, -1, -every))[::-1]
    labels = [
        "today" if index == len(days) - 1 else days[index].strftime("%m-%d") for index in picked
    ]
    return [float(index + 1) for index in picked], labels


class StatsScreen(GpuprepScreen[None]):
    """How practice has gone so far."""

    CSS_PATH = STYLES / "stats.tcss"

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent():
            with TabPane("Questions", id="questions-tab"):
                with Horizontal(id="plots"):
                    yield PlotextPlot(id="per-day")
                    yield PlotextPlot(id="accuracy")
                yield Static(id="not-charted")
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
        attempts = app.store.attempts()
        figures = progress(app.bank, app.store.cards(), attempts, app.clock(), days=14)
        per_day = self.query_one("#per-day", PlotextPlot)
        plt = per_day.plt
        plt.clear_data()
        plt.clear_figure()
        counts = [count for _day, count in figures.attempts_per_day]
        positions = [float(i) for i in range(1, len(counts) + 1)]
        plt.bar(positions, counts)
        # Explicit ticks: left to itself plotext picks date labels differently from run to run.
        plt.xticks(*day_ticks([day for day, _count in figures.attempts_per_day]))
        top, steps = count_ticks(max(counts, default=0))
        plt.ylim(0, top)
        plt.yticks([float(step) for step in steps], [str(step) for step in steps])
        plt.title(f"Attempts per day (last {len(counts)} days)")
        per_day.refresh()
        # Said under the chart: one who just read a figure from the table would see an empty day.
        left_out = figures.read_from_table
        note = self.query_one("#not-charted", Static)
        note.update(
            f"Not charted: {counted(left_out, 'closed-book estimate')} read from the hardware table."
        )
        note.display = bool(left_out)
        accuracy = self.query_one("#accuracy", PlotextPlot)
        plt = accuracy.plt
        plt.clear_data()
        plt.clear_figure()
        tried = [t for t in figures.topics if t.attempts]
        if tried:
            positions = [float(i) for i in range(1, len(tried) + 1)]
            plt.bar(positions, [round(100 * (t.accuracy or 0)) for t in tried])
            plt.xticks(positions, [t.topic for t in tried])
            plt.ylim(0, 100)
            plt.yticks([0.0, 25.0, 50.0, 75.0, 100.0], ["0", "25", "50", "75", "100"])
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
