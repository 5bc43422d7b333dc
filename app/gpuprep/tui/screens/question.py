"""One question in full: prompt, artifact, hints; the worked answer and rubric behind a key."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.sessions.srs import format_interval
from gpuprep.tui.messages import StartPractice
from gpuprep.tui.screens.practice import artifact_markdown

STYLES = Path(__file__).parent.parent / "styles"


def review_line(card, now) -> str:  # noqa: ANN001
    """'Next review: 2026-12-08 (in 8d)', or that the question was never rated."""
    if card is None:
        return "Not reviewed yet."
    when = card.due.strftime("%Y-%m-%d %H:%M UTC")
    if card.due <= now:
        return f"Next review: {when} (due now)"
    return f"Next review: {when} (in {format_interval(card.due - now)})"


def question_markdown(bank, question, *, with_answer: bool, review: str = "") -> str:  # noqa: ANN001
    """The question as one Markdown document (figures filled in by the estimate engine)."""
    from gpuprep.estimate.render import render_question

    rendered = render_question(question, bank)
    prompt, answer = rendered.prompt, rendered.answer
    parts = [
        f"# {question.title}",
        f"*{question.topic} · {question.kind} · {question.level} · ~{question.minutes} min · "
        f"{', '.join(question.tags) or 'no tags'}*",
        prompt,
    ]
    if review:
        parts.insert(2, review)
    if artifact := artifact_markdown(question):
        parts.append(artifact)
    if question.hints:
        parts.append(
            "**Hints**\n\n" + "\n".join(f"{i}. {h}" for i, h in enumerate(question.hints, 1))
        )
    if not with_answer:
        parts.append("*Press a to show the worked answer and the rubric.*")
        return "\n\n".join(parts)
    rubric = question.rubric
    parts += [
        "## Worked answer",
        answer,
        "## Rubric",
        "**Strong signals**\n\n" + "\n".join(f"- {s}" for s in rubric.strong_signals),
        "**Red flags**\n\n" + "\n".join(f"- {s}" for s in rubric.red_flags),
    ]
    if rubric.follow_ups:
        parts.append("**Follow-ups**\n\n" + "\n".join(f"- {s}" for s in rubric.follow_ups))
    return "\n\n".join(parts)


class QuestionScreen(Screen[None]):
    """Read a question; `a` shows the answer and rubric, `p` practises it."""

    CSS_PATH = STYLES / "browse.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("a", "toggle_answer", "Answer"),
        Binding("p", "practise", "Practise"),
    ]

    def __init__(self, question) -> None:  # noqa: ANN001
        super().__init__()
        self.question = question
        self.with_answer = False

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="question-body"):
            yield Markdown(id="question-text")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()
        self.query_one("#question-body").focus()

    def redraw(self) -> None:
        app = self.app
        review = review_line(app.store.card(self.question.id), app.clock())  # type: ignore[attr-defined]
        text = question_markdown(
            app.bank, self.question, with_answer=self.with_answer, review=review
        )  # type: ignore[attr-defined]
        self.query_one("#question-text", Markdown).update(text)

    def action_toggle_answer(self) -> None:
        self.with_answer = not self.with_answer
        self.redraw()

    def action_practise(self) -> None:
        self.post_message(StartPractice(PracticeFilter(question=self.question.id)))
