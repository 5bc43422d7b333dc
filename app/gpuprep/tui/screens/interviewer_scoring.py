"""Scoring a candidate live, one question at a time, every change saved as it is made.

Per question: the strong signals heard and the red flags seen as tick lists (space ticks), each
dimension of the question's rubric template as a list of its four level descriptors (1-4 or
enter picks a level, 0 clears it), and notes. The recommendation, computed by the session's
stated rule (shown at the end of the page), stays in view at the bottom.
"""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import (
    Collapsible,
    Footer,
    Header,
    Label,
    Markdown,
    OptionList,
    SelectionList,
    Static,
    TextArea,
)
from textual.widgets.option_list import Option

from gpuprep.bank.rubric_template import Dimension
from gpuprep.sessions.question_view import QuestionView
from gpuprep.sessions.scorecard import RULE, ScorecardSession
from gpuprep.sessions.scorecard_report import write_markdown
from gpuprep.tui.messages import LevelPicked
from gpuprep.tui.screens.base import GpuprepScreen
from gpuprep.tui.widgets.question_markdown import question_markdown
from gpuprep.tui.widgets.signal_list import SignalList

STYLES = Path(__file__).parent.parent / "styles"


class LevelList(OptionList):
    """One dimension's four level descriptors; the chosen level is marked ●."""

    DEFAULT_CSS = """
    LevelList { height: auto; max-height: 16; margin-bottom: 1; scrollbar-gutter: stable; }
    """
    BINDINGS = [
        Binding("1", "pick(1)", "Level 1", show=False),
        Binding("2", "pick(2)", "Level 2", show=False),
        Binding("3", "pick(3)", "Level 3", show=False),
        Binding("4", "pick(4)", "Level 4", show=False),
        Binding("0,backspace", "pick(0)", "Clear level", show=False),
    ]

    def __init__(
        self, dimension: Dimension, level: int | None, *, classes: str | None = None
    ) -> None:
        super().__init__(classes=classes)
        self.dimension = dimension
        self.level = level

    def on_mount(self) -> None:
        self.border_title = self.dimension.name
        self.show_levels()

    def show_levels(self) -> None:
        highlighted = self.highlighted
        self.clear_options()
        for level in (1, 2, 3, 4):
            mark = "●" if level == self.level else "○"
            text = Text(f"{mark} {level}  ", style="bold" if level == self.level else "")
            text.append(self.dimension.levels.get(level, "(no descriptor)"))
            self.add_option(Option(text, id=str(level)))
        self.highlighted = highlighted if highlighted is not None else (self.level or 1) - 1
        self.border_subtitle = f"level {self.level}" if self.level else "not scored"

    def action_pick(self, level: int) -> None:
        self.level = level or None
        self.show_levels()
        self.post_message(LevelPicked(self.dimension.name, self.level))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.action_pick(int(event.option.id))


class ScorecardScreen(GpuprepScreen[None]):
    """One candidate's scorecard, question by question."""

    CSS_PATH = STYLES / "interviewer.tcss"
    # Not priority bindings: such a key would act before the keys typed ahead of it reach the
    # notes box, and they would land in the next question's notes.
    BINDINGS = [
        Binding("ctrl+n", "next_question", "Next question"),
        Binding("ctrl+b", "previous_question", "Previous"),
        Binding("ctrl+s", "export", "Export Markdown"),
        Binding("escape", "leave", "Back"),
    ]

    def __init__(self, session: ScorecardSession) -> None:
        super().__init__()
        self.session = session
        self.index = 0

    @property
    def question_id(self) -> str:
        return self.session.question_ids[self.index]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="sc-question")
        with VerticalScroll(id="scorecard"):
            with Collapsible(title="The question and its model answer", id="sc-read"):
                yield Markdown(id="sc-question-text")
            yield Label("Strong signals heard (space ticks):", classes="sc-label")
            yield SignalList(id="sc-signals")
            yield Label("Red flags seen (space ticks):", classes="sc-label")
            yield SignalList(id="sc-flags")
            yield Label(
                "Levels, 1 weak .. 4 strong (1-4 or enter picks, 0 clears):", classes="sc-label"
            )
            yield Vertical(id="sc-dimensions")
            yield Label("Notes on this question:", classes="sc-label")
            yield TextArea(id="sc-notes")
            yield Label("Overall notes:", classes="sc-label")
            yield TextArea(self.session.notes, id="sc-overall")
            yield Static(f"[b]How the recommendation is computed[/b]: {escape(RULE)}", id="sc-rule")
        yield Static(id="sc-recommendation")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#sc-overall", TextArea).cursor_blink = self.app.cursor_blink
        self.query_one("#sc-notes", TextArea).cursor_blink = self.app.cursor_blink
        self.show_question()

    def show_question(self) -> None:
        session, question_id = self.session, self.question_id
        question = session.question(question_id)
        score = session.scores[question_id]
        self.title = f"Scorecard {session.id}: {session.candidate}"
        self.sub_title = f"question {self.index + 1} of {len(session.question_ids)}"
        self.query_one("#sc-question", Static).update(
            f"[b]{self.index + 1}/{len(session.question_ids)}  {escape(question.title)}[/b]\n"
            f"[dim]{escape(question_id)} · {question.topic} · {question.kind} · {question.level} · "
            f"{question.minutes} min[/dim]"
        )
        view = QuestionView.build(question, session.bank, preferred_gpu=self.app.gpu)
        self.query_one("#sc-question-text", Markdown).update(
            question_markdown(view, with_answer=True)
        )
        self.query_one("#sc-read", Collapsible).collapsed = True
        for list_id, items, ticked in (
            ("#sc-signals", question.rubric.strong_signals, score.signals),
            ("#sc-flags", question.rubric.red_flags, score.red_flags),
        ):
            ticks = self.query_one(list_id, SignalList)
            ticks.clear_options()
            ticks.add_options(
                [(Text(item), index, index in ticked) for index, item in enumerate(items)]
            )
            ticks.highlighted = 0
        dimensions = self.query_one("#sc-dimensions", Vertical)
        dimensions.remove_children()
        template = session.template(question_id)
        if template is not None:
            dimensions.mount_all(
                LevelList(d, score.levels.get(d.name), classes="sc-level")
                for d in template.dimensions
            )
        notes = self.query_one("#sc-notes", TextArea)
        notes.load_text(score.notes)
        self.show_recommendation()
        self.query_one("#scorecard", VerticalScroll).scroll_home(animate=False)
        self.query_one("#sc-signals", SignalList).focus()

    def show_recommendation(self) -> None:
        self.query_one("#sc-recommendation", Static).update(
            escape(self.session.recommendation.describe())
        )

    # -- changes, each saved by the session at once ----------------------------------------------

    def on_selection_list_selection_toggled(
        self, event: SelectionList.SelectionToggled[int]
    ) -> None:
        event.stop()
        index = event.selection_list.get_option_at_index(event.selection_index).value
        if event.selection_list.id == "sc-signals":
            self.session.toggle_signal(self.question_id, index)
        elif event.selection_list.id == "sc-flags":
            self.session.toggle_red_flag(self.question_id, index)
        self.show_recommendation()

    def on_level_picked(self, message: LevelPicked) -> None:
        self.session.score(self.question_id, message.dimension, message.level)
        self.show_recommendation()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._save_notes()

    def _save_notes(self) -> None:
        # Only what differs from the saved text is written: loading a question's notes into the
        # editor raises the same event, and must not copy them onto another question.
        notes = self.query_one("#sc-notes", TextArea).text
        if notes != self.session.scores[self.question_id].notes:
            self.session.note(self.question_id, notes)
        overall = self.query_one("#sc-overall", TextArea).text
        if overall != self.session.notes:
            self.session.set_notes(overall)

    # -- moving and exporting ------------------------------------------------------------------

    def _go(self, step: int) -> None:
        target = self.index + step
        if 0 <= target < len(self.session.question_ids):
            self._save_notes()
            self.index = target
            self.show_question()
        else:
            self.notify(
                "That was the last question." if step > 0 else "This is the first question."
            )

    def action_next_question(self) -> None:
        self._go(1)

    def action_previous_question(self) -> None:
        self._go(-1)

    def action_export(self) -> None:
        self._save_notes()
        path = write_markdown(self.session)
        self.notify(f"Scorecard written to {path}", title="Markdown export", timeout=10)

    def action_leave(self) -> None:
        self._save_notes()
        self.app.pop_screen()
