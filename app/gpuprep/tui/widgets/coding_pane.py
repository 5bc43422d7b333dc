"""The coding part of a practice item: the drill, its starter in a workspace, `$EDITOR`, the harness.

The harness runs through `gpuprep submit --json` in a subprocess started from a Textual worker:
the app never imports torch nor runs a kernel in its own process, and the JSON report is the
contract between the two.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from textual import work
from textual.app import ComposeResult, SuspendNotSupported
from textual.containers import Vertical
from textual.widgets import DataTable, Markdown, Static

from gpuprep.sessions.drill_report import DrillOutcome, read_report
from gpuprep.settings import gpuprep_home
from gpuprep.store.records import DrillResult

#: Starter files in the order offered: Triton first, because it also runs on a CPU (interpreter).
STARTER_ORDER = ("starter_triton.py", "starter_cuda.py")


def workspace_for(drill_id: str) -> Path:
    """Where the user's copy of a drill's starter lives: <gpuprep home>/workspace/<drill>/."""
    return gpuprep_home() / "workspace" / drill_id


def starters(drill_dir: Path) -> list[Path]:
    """The drill's starter files, Triton first."""
    found = [p for p in drill_dir.glob("starter*") if p.is_file()]
    return sorted(
        found,
        key=lambda p: (STARTER_ORDER.index(p.name) if p.name in STARTER_ORDER else 99, p.name),
    )


def write_starter(drill_dir: Path, workspace: Path) -> list[Path]:
    """Copy the drill's starter files into the workspace, never over the user's own edits."""
    workspace.mkdir(parents=True, exist_ok=True)
    written = []
    for starter in starters(drill_dir):
        target = workspace / starter.name
        if not target.exists():
            shutil.copyfile(starter, target)
        written.append(target)
    return written


def language_of(path: Path) -> str:
    return "cuda" if "cuda" in path.stem else "triton"


class CodingPane(Vertical):
    """Shows a drill and runs the user's submission through the harness (keys on the practice screen)."""

    DEFAULT_CSS = """
    CodingPane { height: auto; }
    CodingPane #coding-status { height: auto; }
    CodingPane DataTable { height: auto; max-height: 12; }
    CodingPane PlotextPlot { height: 12; }
    """
    """Kept short: the pane only stacks its parts."""

    drill: Any = None
    drill_dir: Path | None = None
    _ready = False
    _pending: Any = None

    def on_mount(self) -> None:
        self._ready = True
        if self._pending is not None:
            self.show_drill(self._pending)

    def compose(self) -> ComposeResult:
        yield Markdown(id="coding-drill")
        yield Static(id="coding-status")
        yield DataTable(id="coding-results", show_cursor=False)

    def show_drill(self, question: Any) -> None:
        """Show the question's drill: contract, ladder, and the keys to work on it."""
        if not self._ready:  # just mounted: show it once the parts exist
            self._pending = question
            return
        bank = self.app.bank  # type: ignore[attr-defined]
        self.drill = bank.drills.get(question.drill)
        self.drill_dir = bank.drill_dirs.get(question.drill)
        self.query_one("#coding-results", DataTable).clear(columns=True)
        for plot in self.query("#coding-roofline"):
            plot.remove()
        if self.drill is None:
            self.query_one("#coding-drill", Markdown).update(
                f"Drill `{question.drill}` is not in the bank."
            )
            return
        tracks = [
            (language, self.drill.track(language))
            for language in ("triton", "cuda")
            if self.drill.track(language)
        ]
        ladder = "\n\n".join(
            f"*{'Triton' if language == 'triton' else 'CUDA (CuPy)'} track*\n\n"
            + "\n".join(f"{i}. `{rung.name}`: {rung.summary}" for i, rung in enumerate(rungs))
            for language, rungs in tracks
        )
        self.query_one("#coding-drill", Markdown).update(
            f"### Drill: {self.drill.title}\n\nWrite `{self.drill.entry}`: {self.drill.contract}\n\n"
            f"**Reference ladder**\n\n{ladder or '(none yet)'}"
        )
        self.query_one("#coding-status", Static).update(
            f"Workspace: {workspace_for(self.drill.id)}\ne: write the starter and open $EDITOR  ·  x: run the harness"
        )

    def edit_starter(self) -> None:
        """Write the starter into the workspace and open it in $VISUAL / $EDITOR."""
        if self.drill is None or self.drill_dir is None:
            return
        files = write_starter(self.drill_dir, workspace_for(self.drill.id))
        if not files:
            self.notify(f"Drill {self.drill.id} has no starter files.", severity="warning")
            return
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor:
            self.notify(f"Set $EDITOR to edit from here; the starter is at {files[0]}", timeout=10)
            return
        command = [*shlex.split(editor), str(files[0])]
        try:
            with self.app.suspend():
                subprocess.run(command, check=False)
        except SuspendNotSupported:  # headless (tests) or a terminal Textual cannot hand over
            subprocess.run(command, check=False, stdin=subprocess.DEVNULL)
        self.query_one("#coding-status", Static).update(
            f"Edited {files[0]}. Press x to run the harness."
        )

    def run_submission(self) -> None:
        """Run the harness on the workspace's Triton (else CUDA) file."""
        if self.drill is None:
            return
        files = [
            p
            for p in (workspace_for(self.drill.id) / name for name in STARTER_ORDER)
            if p.is_file()
        ]
        if not files:
            self.notify("Write the starter first (e).", severity="warning")
            return
        self.started = time.monotonic()
        self.ticker = self.set_interval(1.0, self._tick)
        self._tick()
        self.run_harness(self.drill.id, files[0])

    def _tick(self) -> None:
        elapsed = time.monotonic() - self.started
        self.query_one("#coding-status", Static).update(
            f"Running the harness … {elapsed:.0f} s (correctness, then timing on a GPU)"
        )

    @work(thread=True, exclusive=True, group="harness")
    def run_harness(self, drill_id: str, path: Path) -> None:
        command = [sys.executable, "-m", "gpuprep", "submit", drill_id, str(path), "--json"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
        except subprocess.TimeoutExpired:
            self.app.call_from_thread(
                self.show_result, None, "the harness took over 15 minutes; stopped", path
            )
            return
        try:
            report = json.loads(done.stdout)
        except json.JSONDecodeError:
            lines = done.stderr.strip().splitlines() or ["no output"]
            reason = (
                "`gpuprep submit` is not available (the harness, issue 5)"
                if "No such command" in done.stderr
                else lines[-1]
            )
            self.app.call_from_thread(self.show_result, None, reason, path)
            return
        self.app.call_from_thread(self.show_result, report, "", path)

    def show_result(self, report: dict[str, Any] | None, problem: str, path: Path) -> None:
        """Show the report: status, correctness, kernel table with the ladder, and the roofline plot."""
        self.ticker.stop()
        status = self.query_one("#coding-status", Static)
        table = self.query_one("#coding-results", DataTable)
        table.clear(columns=True)
        if report is None:
            status.update(f"Could not run the harness: {problem}")
            return
        outcome = read_report(report)
        app = self.app
        app.store.record_drill_result(  # type: ignore[attr-defined]
            DrillResult(
                drill_id=self.drill.id,
                language=language_of(path),
                submitted_at=app.clock(),  # type: ignore[attr-defined]
                passed=outcome.passed,
                summary=outcome.headline,
                detail=report,
            )
        )
        lines = [outcome.headline]
        if outcome.checks_total:
            # A file refused or failing to load ran no case: "0/0 passed" would read as a result.
            lines.append(
                f"Correctness: {outcome.checks_passed}/{outcome.checks_total} cases passed"
            )
        lines += [f"  ✗ {failure}" for failure in outcome.failures[:5]]
        if outcome.placement:
            lines.append(f"Ladder: {outcome.placement}")
        lines += outcome.notes
        status.update("\n".join(lines))
        if outcome.kernels:
            self.show_kernels(outcome, table)

    def show_kernels(self, outcome: DrillOutcome, table: DataTable) -> None:
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
        from textual_plotext import PlotextPlot  # only when there is something to draw

        plot = PlotextPlot(id="coding-roofline")
        self.mount(plot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        positions = list(range(1, len(timed) + 1))
        plt.bar(positions, [line.gbps for line in timed])
        plt.xticks(positions, [line.name for line in timed])
        if outcome.datasheet_gbps:
            plt.hline(outcome.datasheet_gbps)
            plt.title(f"Achieved GB/s against the HBM roof ({outcome.datasheet_gbps:.0f} GB/s)")
        else:
            plt.title("Achieved GB/s")
        plot.refresh()
