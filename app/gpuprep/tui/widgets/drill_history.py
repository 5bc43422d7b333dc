"""The Stats screen's Drills tab: best time per kernel drill, the rung reached, and time over
time, read from the submissions saved through `DrillSession.record` (CLI and app alike)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static
from textual_plotext import PlotextPlot

from gpuprep.sessions.drill_history import best_per_drill, history
from gpuprep.wording import counted


class DrillHistoryPane(Vertical):
    """Kernel-drill submissions over time; refreshed each time it is shown."""

    DEFAULT_CSS = """
    DrillHistoryPane { height: 1fr; }
    DrillHistoryPane #drill-summary { height: auto; padding: 0 1; }
    DrillHistoryPane #drill-best { height: auto; max-height: 10; }
    DrillHistoryPane #drill-times { height: 1fr; min-height: 8; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="drill-summary")
        table: DataTable[str] = DataTable(id="drill-best", cursor_type="row", zebra_stripes=True)
        table.add_columns("Drill", "Tries", "Passed", "Best ms", "Rung reached", "Last")
        yield table
        yield PlotextPlot(id="drill-times")

    def on_mount(self) -> None:
        self.refresh_history()

    def on_show(self) -> None:
        self.refresh_history()

    def refresh_history(self) -> None:
        app = self.app
        entries = history(app.store.drill_results(), app.bank)  # type: ignore[attr-defined]
        bests = best_per_drill(entries)
        timed = [e for e in entries if e.passed and e.median_ms is not None]
        summary = self.query_one("#drill-summary", Static)
        if not entries:
            summary.update(
                "No drill submissions yet: submit one from a coding question (Browse, kind:coding) "
                "or with `gpuprep submit DRILL FILE`."
            )
        else:
            summary.update(
                f"{counted(len(entries), 'submission')} to {counted(len(bests), 'drill')}; "
                f"{counted(len(timed), 'timed run')} (GPU runs: CPU runs check correctness only). "
                "A rung is reached when the time is level with it (within 3%) or faster."
            )
        table = self.query_one("#drill-best", DataTable)
        table.clear()
        for best in bests:
            table.add_row(*best.cells(), key=best.drill_id)
        plot = self.query_one("#drill-times", PlotextPlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        for drill_id in sorted({e.drill_id for e in timed}):
            runs = [e for e in timed if e.drill_id == drill_id]
            positions = list(range(1, len(runs) + 1))
            plt.plot(positions, [e.median_ms or 0.0 for e in runs], label=drill_id, marker="dot")
        plt.title(
            "Median ms of each passed GPU run, in order (lower is better)"
            if timed
            else "Time over time: no timed (GPU) runs yet"
        )
        plot.refresh()
