"""The coding part of a practice item: the drill, its starter in a workspace, `$EDITOR`, the harness.

Everything about the drill goes through the app's `DrillSession`: the drill comes from the
app's bank (extra `--bank` folders included), the starters and the workspace are the
session's, and a submission runs through the harness from a Textual worker thread. The judge
runs every kernel in its own process, so the app never imports torch nor runs a kernel; the
typed `SubmitReport` comes back to the event loop, which saves it and shows it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import work
from textual.app import ComposeResult, SuspendNotSupported
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import DataTable, Markdown, Static

from gpuprep.harness.report import JSON, SubmitReport
from gpuprep.sessions.coding import question_language
from gpuprep.sessions.drill import DrillSession, UnknownDrill
from gpuprep.sessions.drill_report import DrillOutcome, notes_to_show, summarise

if TYPE_CHECKING:
    from gpuprep.bank.drill import Drill
    from gpuprep.bank.question import Question
    from gpuprep.tui.app import GpuprepApp

TRACK_TITLES = {"triton": "Triton", "cuda": "CUDA (CuPy)"}


def rung_number(name: str) -> int:
    """A rung's number as its name gives it: 0 for v0_naive, 1 for v1_cuda_smem_tree (a track
    may start at v1: the CUDA track has no v0 of its own)."""
    return int(name[1:].partition("_")[0])


#: Tried in order when neither $VISUAL nor $EDITOR is set, as git falls back to an editor
#: (Debian's `editor` alternative and sensible-editor first, then the two that are everywhere).
FALLBACK_EDITORS = ("sensible-editor", "editor", "nano", "vi")


def choose_editor(environ: Mapping[str, str]) -> list[str]:
    """The editor command: $VISUAL, else $EDITOR, else the first fallback installed; [] if none."""
    chosen = environ.get("VISUAL") or environ.get("EDITOR")
    if chosen and chosen.strip():
        return shlex.split(chosen)
    for name in FALLBACK_EDITORS:
        found = shutil.which(name)
        if found:
            return [found]
    return []


class CodingPane(Vertical):
    """Shows a drill and runs the user's submission through the harness (keys on the practice screen)."""

    DEFAULT_CSS = """
    CodingPane { height: auto; }
    CodingPane #coding-status { height: auto; }
    CodingPane DataTable { height: auto; max-height: 12; }
    CodingPane PlotextPlot { height: 12; }
    """
    """Kept short: the pane only stacks its parts."""

    EDIT_KEY = "e"
    """The key that writes the starter and opens the editor, as the pane names it."""
    RUN_KEY = "x"
    """The key that runs the harness, as the pane names it."""

    drill: Drill | None = None
    language = "triton"
    """The starter the question asks for ('cuda' for a CUDA-only one): edited and submitted first."""
    _ready = False
    _pending: Question | None = None
    _started = 0.0
    _phase = ""
    """The judge's latest step ('checking n=1000, float32 ...'), set from the worker thread."""
    _ticker: Timer | None = None

    @property
    def session(self) -> DrillSession:
        """The app's drill session: its bank, its store, its clock."""
        return cast("GpuprepApp", self.app).drill_session

    def on_mount(self) -> None:
        self._ready = True
        if self._pending is not None:
            self.show_drill(self._pending)

    def compose(self) -> ComposeResult:
        yield Markdown(id="coding-drill")
        yield Static(id="coding-status")
        yield DataTable(id="coding-results", show_cursor=False)

    def show_drill(self, question: Question) -> None:
        """Show the question's drill: contract, ladder, notes, and the keys to work on it."""
        if not self._ready:  # just mounted: show it once the parts exist
            self._pending = question
            return
        self.language = question_language(question)
        self.query_one("#coding-results", DataTable).clear(columns=True)
        for plot in self.query("#coding-roofline"):
            plot.remove()
        try:
            self.drill = self.session.drill(question.drill or "")
        except UnknownDrill:
            self.drill = None
            self.query_one("#coding-drill", Markdown).update(
                f"Drill `{question.drill}` is not in the bank."
            )
            return
        drill = self.drill
        tracks = [
            (language, drill.track(language)) for language in TRACK_TITLES if drill.track(language)
        ]
        ladder = "\n\n".join(
            f"*{TRACK_TITLES[language]} track*\n\n"
            + "\n".join(
                f"{rung_number(rung.name)}. `{rung.name}`: {rung.summary}" for rung in rungs
            )
            for language, rungs in tracks
        )
        notes = "\n".join(f"- {note}" for note in drill.notes)
        self.query_one("#coding-drill", Markdown).update(
            f"### Drill: {drill.title}\n\nWrite `{drill.entry}`: {drill.contract}\n\n"
            f"**Reference ladder**\n\n{ladder or '(none yet)'}"
            + (f"\n\n**Notes**\n\n{notes}" if notes else "")
        )
        self.query_one("#coding-status", Static).update(
            f"Workspace: {self.session.workspace(drill.id)}\n"
            f"{self.EDIT_KEY}: write the starter and open $EDITOR  ·  "
            f"{self.RUN_KEY}: run the harness"
        )

    def edit_starter(self) -> None:
        """Write the starter into the workspace and open it in $VISUAL / $EDITOR."""
        if self.drill is None:
            return
        files = self.session.write_starters(self.drill.id, self.language)
        if not files:
            self.notify(f"Drill {self.drill.id} has no starter files.", severity="warning")
            return
        editor = choose_editor(os.environ)
        if not editor:
            self.notify(
                f"No editor found: set $EDITOR to edit from here; the starter is at {files[0]}",
                timeout=10,
            )
            return
        command = [*editor, str(files[0])]
        try:
            with self.app.suspend():
                subprocess.run(command, check=False)
        except SuspendNotSupported:  # headless (tests) or a terminal Textual cannot hand over
            subprocess.run(command, check=False, stdin=subprocess.DEVNULL)
        self.query_one("#coding-status", Static).update(
            f"Edited {files[0]}. Press {self.RUN_KEY} to run the harness."
        )

    def run_submission(self) -> None:
        """Run the harness on the workspace's file in the question's language (else the other)."""
        if self.drill is None:
            return
        path = self.session.submission(self.drill.id, self.language)
        if path is None:
            self.notify(f"Write the starter first ({self.EDIT_KEY}).", severity="warning")
            return
        self._started = time.monotonic()
        self._phase = f"{path.name} ({TRACK_TITLES.get(self.session.language(path), '?')})"
        if self._ticker is not None:
            self._ticker.stop()
        self._ticker = self.set_interval(1.0, self._tick)
        self._tick()
        self.run_harness(self.session, self.drill.id, path)

    def _tick(self) -> None:
        elapsed = time.monotonic() - self._started
        self.query_one("#coding-status", Static).update(
            f"Running the harness … {elapsed:.0f} s: {self._phase}\n"
            "(correctness, then timing on a GPU)"
        )

    def _on_event(self, event: JSON) -> None:
        """The judge's progress, from the worker thread: kept for the next tick to show."""
        if event.get("event") == "phase":
            self._phase = f"{event.get('kernel')}: {event.get('phase')}"
        elif event.get("event") == "ready":
            self._phase = f"on {event.get('device', {}).get('name', '?')}"

    @work(thread=True, exclusive=True, group="harness")
    def run_harness(self, session: DrillSession, drill_id: str, path: Path) -> None:
        """Submit through the drill session (blocking, hence a thread); show the report after."""
        try:
            report = session.submit(drill_id, path, on_event=self._on_event)
        except Exception as error:  # whatever went wrong (the judge would not start), say it here
            self.app.call_from_thread(self.show_problem, f"{type(error).__name__}: {error}")
            return
        self.app.call_from_thread(self.show_result, report)

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def show_problem(self, problem: str) -> None:
        """The harness could not be run at all (no report)."""
        self._stop_ticker()
        self.query_one("#coding-results", DataTable).clear(columns=True)
        self.query_one("#coding-status", Static).update(f"Could not run the harness: {problem}")

    def show_result(self, report: SubmitReport) -> None:
        """Save the report, then show it: status, correctness, the ladder's table and the plot."""
        self._stop_ticker()
        self.session.record(report)
        table = self.query_one("#coding-results", DataTable)
        table.clear(columns=True)
        outcome = summarise(report)
        lines = [outcome.headline]
        if outcome.checks_total:
            # A file refused or failing to load ran no case: "0/0 passed" would read as a result.
            lines.append(
                f"Correctness: {outcome.checks_passed}/{outcome.checks_total} cases passed"
            )
        lines += [f"  ✗ {failure}" for failure in outcome.failures[:5]]
        if outcome.placement:
            lines.append(f"Ladder: {outcome.placement}")
        # The app never asks for a CPU run: the timing note is for a machine with a GPU.
        lines += notes_to_show(outcome.notes, bench=False, cpu_asked=False)
        self.query_one("#coding-status", Static).update("\n".join(lines))
        if outcome.kernels:
            self.show_kernels(outcome, table)
        if not any(line.gbps for line in outcome.kernels):
            for plot in self.query("#coding-roofline"):
                plot.remove()

    def show_kernels(self, outcome: DrillOutcome, table: DataTable[str]) -> None:
        table.add_columns("kernel", "role", "median ms", "GB/s", "% of datasheet")
        for line in outcome.kernels:
            table.add_row(
                line.name,
                line.role,
                f"{line.median_ms:.4g}" if line.median_ms else "-",
                f"{line.gbps:.0f}" if line.gbps else "-",
                f"{line.pct_of_datasheet:.0f}%" if line.pct_of_datasheet else "-",
            )
        timed = [line for line in outcome.kernels if line.gbps]
        if not timed:
            return
        # Imported here: the plotting library is needed only once there is something to draw.
        from textual_plotext import PlotextPlot

        found = self.query(PlotextPlot)
        plot = found.first() if found else PlotextPlot(id="coding-roofline")
        if not found:
            self.mount(plot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        positions = [float(index) for index in range(1, len(timed) + 1)]
        plt.bar(positions, [line.gbps for line in timed])
        plt.xticks(positions, [line.name for line in timed])
        if outcome.datasheet_gbps:
            plt.hline(outcome.datasheet_gbps)
            plt.title(f"Achieved GB/s against the HBM roof ({outcome.datasheet_gbps:.0f} GB/s)")
        else:
            plt.title("Achieved GB/s")
        plot.refresh()
