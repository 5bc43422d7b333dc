"""The coding part of a practice item: the drill, its starter in a workspace, `$EDITOR`, the harness.

The harness runs through the `gpuprep submit` command in a subprocess, started from a Textual
worker: the app never imports torch or runs a kernel in its own process, and the JSON the
command prints is the contract between the two.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Markdown, Static

from gpuprep.settings import gpuprep_home


def workspace_for(drill_id: str) -> Path:
    """Where the user's copy of a drill's starter lives: <gpuprep home>/workspace/<drill>/."""
    return gpuprep_home() / "workspace" / drill_id


def write_starter(drill_dir: Path, workspace: Path) -> list[Path]:
    """Copy the drill's starter files into the workspace, never over the user's own edits."""
    workspace.mkdir(parents=True, exist_ok=True)
    written = []
    for starter in sorted(drill_dir.glob("starter*")):
        if starter.is_file():
            target = workspace / starter.name
            if not target.exists():
                shutil.copyfile(starter, target)
            written.append(target)
    return written


class CodingPane(Vertical):
    """Shows a drill and runs the user's submission through the harness."""

    DEFAULT_CSS = """
    CodingPane { height: auto; }
    CodingPane #coding-status { height: auto; }
    CodingPane DataTable { height: auto; max-height: 12; }
    """
    """Kept short: the pane only stacks its parts."""

    BINDINGS = [
        Binding("e", "edit", "Edit starter"),
        Binding("x", "run", "Run harness"),
    ]

    can_focus = True
    drill: Any = None
    drill_dir: Path | None = None

    def compose(self) -> ComposeResult:
        yield Markdown(id="coding-drill")
        yield Static(id="coding-status")
        yield DataTable(id="coding-results", show_cursor=False)

    def show_drill(self, question: Any) -> None:
        """Show the question's drill: contract, ladder, and the keys to work on it."""
        bank = self.app.bank  # type: ignore[attr-defined]
        self.drill = bank.drills.get(question.drill)
        self.drill_dir = bank.drill_dirs.get(question.drill)
        self.query_one("#coding-results", DataTable).clear(columns=True)
        if self.drill is None:
            self.query_one("#coding-drill", Markdown).update(f"Drill `{question.drill}` is not in the bank.")
            return
        ladder = "\n".join(f"{i}. `{rung.name}`: {rung.summary}" for i, rung in enumerate(self.drill.ladder))
        self.query_one("#coding-drill", Markdown).update(
            f"### Drill: {self.drill.title}\n\nWrite `{self.drill.entry}`: {self.drill.contract}\n\n"
            f"**Reference ladder**\n\n{ladder or '(none yet)'}"
        )
        self.query_one("#coding-status", Static).update(
            f"Workspace: {workspace_for(self.drill.id)}  ·  e: write the starter and open $EDITOR  ·  x: run the harness"
        )

    def action_edit(self) -> None:
        if self.drill is None or self.drill_dir is None:
            return
        files = write_starter(self.drill_dir, workspace_for(self.drill.id))
        if not files:
            self.notify(f"Drill {self.drill.id} has no starter files.", severity="warning")
            return
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor:
            self.notify(f"Set $EDITOR to edit here; the starter is at {files[0]}", timeout=10)
            return
        with self.app.suspend():
            subprocess.run([*shlex.split(editor), str(files[0])], check=False)
        self.query_one("#coding-status", Static).update(f"Edited {files[0]}. Press x to run the harness.")

    def action_run(self) -> None:
        if self.drill is None:
            return
        files = sorted(p for p in workspace_for(self.drill.id).glob("starter*") if p.is_file())
        if not files:
            self.notify("Write the starter first (e).", severity="warning")
            return
        self.query_one("#coding-status", Static).update(f"Running the harness on {files[0].name} …")
        self.run_harness(self.drill.id, files[0])

    @work(thread=True, exclusive=True, group="harness")
    def run_harness(self, drill_id: str, path: Path) -> None:
        command = [sys.executable, "-m", "gpuprep", "submit", drill_id, str(path), "--json"]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
        except subprocess.TimeoutExpired:
            self.app.call_from_thread(self.show_result, None, "the harness took over 15 minutes; stopped")
            return
        try:
            report = json.loads(done.stdout)
        except json.JSONDecodeError:
            reason = (done.stderr.strip().splitlines() or ["no output"])[-1]
            if "No such command" in done.stderr:
                reason = "`gpuprep submit` is not available yet (the harness, issue 5)"
            self.app.call_from_thread(self.show_result, None, reason)
            return
        self.app.call_from_thread(self.show_result, report, "")

    def show_result(self, report: dict[str, Any] | None, problem: str) -> None:
        """Show the harness report as a table of its top-level figures."""
        status = self.query_one("#coding-status", Static)
        table = self.query_one("#coding-results", DataTable)
        table.clear(columns=True)
        if report is None:
            status.update(f"Could not run the harness: {problem}")
            return
        status.update(str(report.get("verdict") or report.get("summary") or "Harness finished."))
        table.add_columns("figure", "value")
        for key, value in report.items():
            if isinstance(value, str | int | float | bool):
                table.add_row(key, str(value))
