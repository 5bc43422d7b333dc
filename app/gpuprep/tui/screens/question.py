"""One question in full: prompt, artifact, hints; the worked answer and rubric behind a key."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from fsrs import Card
from textual.app import ComposeResult
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

    def redraw(self) -> None:
        review = review_line(self.app.store.card(self.view.id), self.app.clock())
        text = question_markdown(self.view, with_answer=self.with_answer, review=review)
        self.query_one("#question-text", Markdown).update(text)

    def watch_with_answer(self) -> None:
        self.redraw()

    def action_toggle_answer(self) -> None:
        self.with_answer = not self.with_answer

    def action_practise(self) -> None:
        self.post_message(StartPractice(PracticeFilter(question=self.view.id)))
