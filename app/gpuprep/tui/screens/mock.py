"""The timed mock interview: sections on a countdown, then self-scoring, then the report.

Everything about time, answers and scores is the `MockSession` of a `MockRun` (which saves it on
every change); the screen shows it and passes keystrokes on. A timer asks the session every
quarter second whether a section's time is up; when one is, the next section is laid out (what
was typed stays with the session) and the countdown carries on. Once every section is over the
candidate scores each open-ended answer against its rubric (`MockScoring`), and the report is
the same Markdown that `gpuprep mock --report ID --md` writes.

`stage` (running, scoring, report) sets a class on the screen; mock.tcss says what each shows.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, Markdown, Static, TextArea

from gpuprep.sessions.drill_report import summarise
from gpuprep.sessions.mock import SectionClosed
from gpuprep.sessions.mock_markdown import clock_text, report_markdown
from gpuprep.tui.messages import ProgressChanged
from gpuprep.tui.screens.base import QUIT_NOT_SHOWN, GpuprepScreen
from gpuprep.tui.screens.mock_scoring import MockScoring
from gpuprep.tui.widgets.coding_pane import CodingPane
from gpuprep.tui.widgets.question_markdown import artifact_markdown, gpu_line
from gpuprep.wording import counted

if TYPE_CHECKING:
    from gpuprep.harness.report import SubmitReport
    from gpuprep.sessions.mock_run import MockRun
    from gpuprep.tui.app import GpuprepApp

STYLES = Path(__file__).parent.parent / "styles"

Stage = Literal["running", "scoring", "report"]

#: Short section names for the strip under the countdown (80 columns hold all five).
SHORT_TITLES = {
    "concept": "Warm-up",
    "estimation": "Estimate",
    "debugging": "Debug",
    "coding": "Drill",
    "design": "Design",
}


class MockCodingPane(CodingPane):
    """The practice screen's drill pane, telling the mock the judge's verdict as well."""

    # The practice screen's letter keys would type into the answer boxes here.
    EDIT_KEY = "ctrl+o"
    RUN_KEY = "ctrl+r"

    def __init__(self, question_id: str, screen: MockScreen, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.question_id = question_id
        self.mock_screen = screen

    def show_result(self, report: SubmitReport) -> None:
        super().show_result(report)
        self.mock_screen.drill_judged(self.question_id, report)


class MockScreen(GpuprepScreen[None]):
    """A mock interview, from its first section to its report."""

    CSS_PATH = STYLES / "mock.tcss"
    BINDINGS = [
        # Shown first: at 80 columns the footer cuts what comes last. Not a priority binding: the
        # key waits behind the keys typed before it, so the answer box has them all when it acts.
        Binding("ctrl+n", "next_section", "Next section"),
        Binding("ctrl+f", "finish", "Finish: the report", priority=True),
        Binding("ctrl+o", "edit_starter", "Edit", tooltip="Edit the starter", priority=True),
        Binding("ctrl+r", "run_harness", "Run", tooltip="Run the harness", priority=True),
        Binding("escape", "leave", "Pause & leave"),
        QUIT_NOT_SHOWN,
        # The other sections of the app would leave the countdown running out of sight.
        Binding("f2,f3,f4,f5", "elsewhere", show=False),
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False, priority=True),
        Binding("pagedown", "scroll_body(1)", "Scroll down", show=False, priority=True),
    ]

    #: How often the countdown is redrawn and the session asked whether time is up (seconds).
    TICK_SECONDS = 0.25
    #: How often the time used is written to the store while a section runs (seconds): at most
    #: this much of a section's time is lost to a kill.
    SAVE_SECONDS = 1.0

    stage: var[Stage] = var[Stage]("running", init=False, bindings=True)
    section_index: var[int] = var(-2, init=False)
    """The section laid out in the body (-2 before the first layout)."""

    def __init__(self, run: MockRun) -> None:
        super().__init__()
        self.run = run
        self.session = run.session
        self._since_save = 0.0
        self._layout_lock = asyncio.Lock()

    def watch_stage(self, stage: Stage) -> None:
        for name in ("running", "scoring", "report"):
            self.set_class(stage == name, f"-{name}")

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="clock")
        yield Static(id="sections")
        with VerticalScroll(id="body"):
            for index in range(len(self.session.runs)):
                with Vertical(id=f"section-{index}", classes="section hidden"):
                    yield from self._section_parts(index)
        yield Footer(show_command_palette=False)

    async def on_mount(self) -> None:
        if not self.session.started:
            self.session.start()
        self.set_interval(self.TICK_SECONDS, self.tick)
        await self.tick()

    # The countdown

    async def tick(self) -> None:
        """Close what has timed out, lay out the open section if it changed, redraw the clock."""
        # The timer and the next-section key both tick; one layout at a time.
        async with self._layout_lock:
            await self._tick()

    async def _tick(self) -> None:
        closed = self.session.tick()
        if closed and self.stage == "running":
            titles = ", ".join(run.section.title for run in closed)
            opened = self.session.current
            self.notify(
                f"Time is up: {titles}. "
                + (f"Now: {opened.section.title}." if opened else "Now score your answers."),
                title="Mock interview",
                timeout=6,
            )
        self._since_save += self.TICK_SECONDS
        if self._since_save >= self.SAVE_SECONDS and self.stage == "running":
            self._since_save = 0.0
            self.run.save()
        if self.session.finished and self.stage == "running":
            await self.show_scoring()
        elif self.stage == "running" and self.section_index != self.session.index:
            await self.show_section()
        self.show_clock()

    def show_clock(self) -> None:
        session = self.session
        run = session.current
        if self.stage == "report":
            used = clock_text(sum(r.elapsed(session.clock()).total_seconds() for r in session.runs))
            self.query_one("#clock", Static).update(f"Mock #{self.run.id} done · {used} used")
            return
        if run is None:
            self.query_one("#clock", Static).update(
                f"Time is up · score your answers ({len(session.self_scored)} to score)"
                " · ctrl+f: the report"
            )
            return
        self.query_one("#clock", Static).update(
            f"[b]{run.section.title}[/b] ({session.index + 1}/{len(session.runs)})"
            f" · [b]{clock_text(session.remaining().total_seconds())}[/b] left"
            f" · mock {clock_text(session.total_remaining().total_seconds())} left"
        )
        now = session.clock()
        parts = []
        for index, each in enumerate(session.runs):
            name = SHORT_TITLES.get(each.section.kind, each.section.title)
            if index < session.index:
                parts.append(f"✓ {name} {clock_text(each.elapsed(now).total_seconds())}")
            elif index == session.index:
                parts.append(f"[reverse] {name} {each.section.minutes}m [/reverse]")
            else:
                parts.append(f"{name} {each.section.minutes}m")
        self.query_one("#sections", Static).update(" · ".join(parts))

    # The open section

    def _section_parts(self, index: int) -> Iterator[Widget]:
        """A section's questions, each with where its answer goes."""
        for number, question_id in enumerate(self.session.runs[index].section.question_ids, 1):
            view = self.session.view(question_id)
            question = view.question
            heading = (
                f"## {number}. {view.title}\n\n"
                f"*{question.topic} · {question.level} · ~{question.minutes} min*"
            )
            if line := gpu_line(view):
                heading += f"\n\n{line}"
            yield Markdown(f"{heading}\n\n{view.prompt}", classes="prompt")
            if artifact := artifact_markdown(view.artifact):
                yield Markdown(artifact, classes="artifact")
            if question.kind == "coding":
                # The judge checks the kernel; the box keeps what the candidate says about it
                # (the time it should take, the plan), which the prompt asks for too.
                yield MockCodingPane(question_id, self, classes="coding")
            yield self._answer_widget(question_id, question.kind)
            if question.kind == "estimation":
                yield Static(
                    view.preview(self.session.answer(question_id)).text,
                    name=question_id,
                    classes="preview muted",
                )

    async def show_section(self) -> None:
        """Show the open section and hide the others; a closed section's answers are read-only.

        Every section is laid out once, when the screen opens (hidden until its turn): moving on
        only switches classes, so nothing typed can be lost in a re-layout."""
        index = self.session.index
        self.section_index = index
        body = self.query_one("#body", VerticalScroll)
        for number, section in enumerate(body.query(".section").results(Vertical)):
            section.set_class(number != index, "hidden")
            for field in section.query(".estimate, .answer"):
                field.disabled = number < index
        if 0 <= index < len(self.session.runs):
            open_section = body.query_one(f"#section-{index}", Vertical)
            for pane in open_section.query(MockCodingPane):
                pane.show_drill(self.session.bank.questions[pane.question_id])
            fields = open_section.query(".estimate, .answer")
            if fields:
                fields.first().focus(scroll_visible=False)
        body.scroll_home(animate=False)
        self.refresh_bindings()

    def _answer_widget(self, question_id: str, kind: str) -> Widget:
        typed = self.session.answer(question_id)
        if kind == "estimation":
            field = Input(
                typed,
                placeholder="your estimate, e.g. 0.6 ms or 2 GB / 3.35 TB/s (graded at the end)",
                name=question_id,
                classes="estimate",
            )
            field.cursor_blink = self.app.cursor_blink
            return field
        area = TextArea(
            typed,
            soft_wrap=True,
            name=question_id,
            classes="answer",
            placeholder=(
                "Your notes: how fast it should run and why, your plan"
                if kind == "coding"
                else "Answer as you would out loud: the mechanism, the numbers, what you would do"
            ),
        )
        area.cursor_blink = self.app.cursor_blink
        return area

    def _type(self, question_id: str | None, text: str) -> None:
        if question_id is None:
            return
        try:
            self.session.type_answer(question_id, text)
        except SectionClosed as closed:
            self.notify(f"Not kept: {closed}.", severity="warning", timeout=4)

    @on(Input.Changed, ".estimate")
    def estimate_changed(self, event: Input.Changed) -> None:
        question_id = event.input.name
        self._type(question_id, event.value)
        if question_id is None:
            return
        preview = self.session.view(question_id).preview(event.value).text
        for found in self.query(".preview").results(Static):
            if found.name == question_id:
                found.update(preview)
                self._follow_typing(event.input, found)

    @on(TextArea.Changed, ".answer")
    def answer_changed(self, event: TextArea.Changed) -> None:
        self._type(event.text_area.name, event.text_area.text)
        self._follow_typing(event.text_area, event.text_area)

    def _follow_typing(self, field: Widget, last: Widget) -> None:
        """A section opens on its prompt's first line; at 80x24 the answer box (or the reading of
        an estimate under it) can be below the fold, so typing brings it into view."""
        if field.has_focus:
            body = self.query_one("#body", VerticalScroll)
            self.call_after_refresh(body.scroll_to_widget, last, animate=False)

    def drill_judged(self, question_id: str, report: SubmitReport) -> None:
        """The judge's verdict on the drill, from the coding pane."""
        outcome = summarise(report)
        # The first failures say what to fix; the headline alone ('failed (cpu mode)') does not.
        summary = "; ".join([outcome.headline, *outcome.failures[:2]])
        self.session.record_drill(question_id, report.passed, summary)

    # Scoring and the report

    async def show_scoring(self) -> None:
        self.stage = "scoring"
        self.section_index = self.session.index
        body = self.query_one("#body", VerticalScroll)
        for section in body.query(".section"):
            section.set_class(True, "hidden")
        self.query_one("#sections", Static).update("")
        if not self.session.self_scored:
            await self.show_report()
            return
        scoring = MockScoring(self.session)
        await body.mount(scoring)
        self.call_after_refresh(scoring.focus_first)

    async def show_report(self) -> None:
        """Save the report (the mock is then finished) and show it."""
        report = self.run.finish()
        self.stage = "report"
        body = self.query_one("#body", VerticalScroll)
        await body.remove_children()
        queued = len(self.run.queued)
        note = (
            f"\n\n*From your weak topics, {counted(queued, 'question')} "
            f"{'is' if queued == 1 else 'are'} due for review now (d on the home screen).*"
            if queued
            else ""
        )
        saved = self.run.records.get(self.run.id)
        text = report_markdown(
            report, mock_id=self.run.id, started_at=saved.started_at if saved else None
        )
        await body.mount(Markdown(text + note, id="report"))
        body.scroll_home(animate=False)
        body.focus()
        self.show_clock()
        self.app.post_message(ProgressChanged())

    # Actions

    def action_next_section(self) -> None:
        if self.stage == "running" and self.session.current is not None:
            self.session.next_section()
            self.call_later(self.tick)

    async def action_finish(self) -> None:
        if self.stage == "scoring":
            await self.show_report()

    def action_edit_starter(self) -> None:
        for pane in self.query(MockCodingPane):
            pane.edit_starter()

    def action_run_harness(self) -> None:
        for pane in self.query(MockCodingPane):
            pane.run_submission()

    def action_elsewhere(self) -> None:
        self.notify(
            "Pause the mock first (Escape): it is saved, and `gpuprep mock --resume` carries it on."
        )

    def action_scroll_body(self, direction: int) -> None:
        body = self.query_one("#body", VerticalScroll)
        body.scroll_page_down() if direction > 0 else body.scroll_page_up()

    def action_leave(self) -> None:
        if self.stage != "report":
            self.run.save()
            self.app.notify(
                f"Mock #{self.run.id} saved with the time it has used; "
                "`gpuprep mock --resume` carries it on.",
                title="Mock interview",
                timeout=8,
            )
        self.app.post_message(ProgressChanged())
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_section":
            return self.stage == "running"
        if action == "finish":
            return self.stage == "scoring"
        if action in ("edit_starter", "run_harness"):
            runs = self.session.runs
            return (
                self.stage == "running"
                and 0 <= self.section_index < len(runs)
                and runs[self.section_index].section.kind == "coding"
            )
        return True


def mock_run_for(app: GpuprepApp, minutes: int | None) -> MockRun | None:
    """A new `minutes`-long mock composed for the user (weak topics weigh in), or with None the
    interrupted one carried on; None, with the reason notified, when there is none to run."""
    from gpuprep.sessions.clock import CLOCK_SCALE_VARIABLE, ScaledClock, clock_scale
    from gpuprep.sessions.drill_report import nvidia_gpu_listed
    from gpuprep.sessions.mock_plan import MockError, choose_mock
    from gpuprep.sessions.mock_run import MockRun

    try:
        scale = clock_scale(os.environ.get(CLOCK_SCALE_VARIABLE))
    except ValueError as error:
        app.notify(str(error), title="Mock interview", severity="error")
        return None
    clock = app.clock if scale == 1.0 else ScaledClock(scale, app.clock)
    try:
        if minutes is None:
            return MockRun.resume(app.store, app.bank, clock=clock, now=app.clock)
        plan = choose_mock(
            app.bank,
            minutes=minutes,
            history=(app.store.cards(), app.store.attempts()),
            now=app.clock(),
            # One nvidia-smi call, once per new mock (instant where there is no nvidia-smi).
            cuda_gpu=nvidia_gpu_listed(),
        )
        return MockRun.begin(app.store, app.bank, plan, clock=clock, gpu=app.gpu, now=app.clock)
    except MockError as error:
        app.notify(str(error), title="Mock interview", severity="warning")
        return None
