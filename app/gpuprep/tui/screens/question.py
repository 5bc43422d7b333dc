"""One question in full: prompt, artifact, hints; the worked answer and rubric behind a key."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from fsrs import Card
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import var
from textual.widgets import Footer, Header, Markdown

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.question_view import QuestionView
from gpuprep.sessions.srs import format_interval
from gpuprep.tui.messages import StartPractice
from gpuprep.tui.screens.base import GpuprepScreen
from gpuprep.tui.widgets.question_markdown import question_markdown

STYLES = Path(__file__).parent.parent / "styles"


def review_line(card: Card | None, now: datetime) -> str:
    """'Next review: 2026-12-08 (in 8d)', or that the question was never rated."""
    if card is None:
        return "Not reviewed yet."
    when = card.due.strftime("%Y-%m-%d %H:%M UTC")
    if card.due <= now:
        return f"Next review: {when} (due now)"
    return f"Next review: {when} (in {format_interval(card.due - now)})"


class QuestionScreen(GpuprepScreen[None]):
    """Read a question (as its `QuestionView` shows it); `a` shows the answer and rubric, `p` practises it."""

    CSS_PATH = STYLES / "browse.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("a", "toggle_answer", "Answer"),
        Binding("p", "practise", "Practise"),
    ]

    with_answer: var[bool] = var(False, init=False)
    """The worked answer and the rubric are shown."""

    def __init__(self, view: QuestionView) -> None:
        super().__init__()
        self.view = view
        """What is shown: the question for the GPU the app assumes, the way `gpuprep show` prints it."""

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="question-body"):
            yield Markdown(id="question-text")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#question-body").focus()

    def redraw(self) -> AwaitComplete:
        review = review_line(self.app.store.card(self.view.id), self.app.clock())
        text = question_markdown(self.view, with_answer=self.with_answer, review=review)
        return self.query_one("#question-text", Markdown).update(text)

    async def watch_with_answer(self, with_answer: bool) -> None:
        await self.redraw()
        if with_answer:
            # The answer is appended below the prompt and hints, under the fold at 80x24: left
            # there, `a` would seem to do nothing.
            self.call_after_refresh(self.show_answer_heading)

    def show_answer_heading(self) -> None:
        text = self.query_one("#question-text", Markdown)
        for _level, title, block_id in text.table_of_contents:
            if title == "Worked answer":
                heading = text.query_one(f"#{block_id}")
                body = self.query_one("#question-body", VerticalScroll)
                body.scroll_to_widget(heading, top=True, animate=False)
                return

    def action_toggle_answer(self) -> None:
        self.with_answer = not self.with_answer

    def action_practise(self) -> None:
        self.post_message(StartPractice(PracticeFilter(question=self.view.id)))
