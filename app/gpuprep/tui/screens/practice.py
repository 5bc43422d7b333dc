"""Practice: one question at a time; estimate or think, reveal, tick the signals you hit, rate.

Estimation questions take the answer in an input with a live preview of what it parses to;
Enter grades it, shows the verdict and the worked solution, and suggests a rating. Other kinds
reveal the worked answer on a key. Every rating button shows the interval it leads to.

What is visible follows the screen's state (`stage`, `kind`, `has_artifact`, `verdict`): each
sets a class on the screen, and practice.tcss says which parts each class shows. The footer
follows it too (`check_action`): it shows only the keys that do something now, and says what
Enter would rate.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from fsrs import Rating
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import var
from textual.widgets import Button, Footer, Header, Input, Markdown, SelectionList, Static

from gpuprep.sessions.practice import PracticeSession
from gpuprep.sessions.practice_summary import summarize
from gpuprep.sessions.srs import RATINGS, format_interval
from gpuprep.tui.messages import ProgressChanged, RatingChosen, StartPractice
from gpuprep.tui.screens.base import QUIT_NOT_SHOWN, GpuprepScreen
from gpuprep.tui.widgets.question_markdown import artifact_markdown, red_flags_markdown
from gpuprep.tui.widgets.signal_list import SignalList
from gpuprep.tui.widgets.summary_markdown import summary_markdown

if TYPE_CHECKING:
    from gpuprep.estimate.grading import Grade
    from gpuprep.tui.widgets.coding_pane import CodingPane

STYLES = Path(__file__).parent.parent / "styles"

Stage = Literal["asking", "revealed", "done"]
"""asking: the question is shown; revealed: its answer and the ratings too; done: the summary."""

RATE = Binding.Group("Rate", compact=True)
ESCAPE_DOES = (
    "Leave the answer box (letters become keys); else twice: end the session on its summary;"
    " on the summary: back"
)
ENTER_RATES = (
    "Rate with the highlighted button: the rating the answer suggests, else Good"
    " (in the list of signals Enter ticks one)"
)


class PracticeScreen(GpuprepScreen[None]):
    """A practice session over a filter."""

    CSS_PATH = STYLES / "practice.tcss"
    # One key may have several bindings; `check_action` enables the one that fits the state, so
    # the footer names what the key does now ("esc End", "enter Hard").
    BINDINGS = [
        Binding("escape", "leave_input", "Keys", tooltip=ESCAPE_DOES),
        Binding("escape", "end", "End", tooltip=ESCAPE_DOES),
        Binding("escape", "back", "Back", tooltip=ESCAPE_DOES),
        Binding("h", "hint", "Hint"),
        Binding("space,r", "reveal", "Reveal"),
        *(Binding(str(int(r)), f"rate({int(r)})", r.name, group=RATE) for r in RATINGS),
        *(
            Binding(
                "enter",
                f"enter_rate({int(r)})",
                r.name,
                key_display="enter",
                priority=True,
                tooltip=ENTER_RATES,
            )
            for r in RATINGS
        ),
        Binding("u", "undo", "Undo"),
        Binding("m", "review_missed", "Review missed"),
        Binding("n", "skip", "Skip"),
        # Priority: after a reveal the focused signals list would take the page keys for itself,
        # and the rubric below the worked answer could not be scrolled into view.
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False, priority=True),
        Binding("pagedown", "scroll_body(1)", "Scroll down", show=False, priority=True),
        # Still there, but out of the footer, which must fit 80 columns (F1 lists them).
        Binding("f3", "app.switch_mode('browse')", "Browse", show=False),
        Binding("f4", "app.switch_mode('stats')", "Stats", show=False),
        Binding("e", "edit_starter", "Edit"),
        Binding("x", "run_harness", "Run"),
        # A drill revealed with a rating to undo shows eight keys: 80 columns hold no more.
        QUIT_NOT_SHOWN,
    ]

    stage: var[Stage] = var[Stage]("asking", init=False, bindings=True)
    """Where the current item is: asked, revealed (answer, rubric and ratings shown) or the end."""
    kind: var[str] = var("", init=False)
    """The current question's kind ('' after the last one): which answer parts it has."""
    has_artifact: var[bool] = var(False, init=False)
    """The current question shows an artifact (a debugging question's code or profile)."""
    verdict: var[str] = var("", init=False)
    """The last grade of the typed estimate ('' before one): shows the verdict line, coloured."""
    trap: var[str] = var("", init=False)
    """The slip the last graded answer fell into, with why it is one ('' when none)."""

    def __init__(self, session: PracticeSession) -> None:
        super().__init__()
        self.session = session
        self._end_armed = False
        """Escape was pressed once: the next Escape ends the session."""

    @property
    def revealed(self) -> bool:
        return self.stage == "revealed"

    def watch_stage(self, stage: Stage) -> None:
        self.set_class(stage == "revealed", "-revealed")
        self.set_class(stage == "done", "-done")

    def watch_kind(self, kind: str) -> None:
        self.set_class(kind == "estimation", "-estimation")
        # Every other kind is rated by ticking the strong signals heard.
        self.set_class(kind not in ("", "estimation"), "-ticks-signals")
        self.set_class(kind == "coding", "-coding")

    def watch_has_artifact(self, has_artifact: bool) -> None:
        self.set_class(has_artifact, "-with-artifact")

    def watch_verdict(self, verdict: str) -> None:
        self.set_class(bool(verdict), "-graded")
        self.query_one("#verdict", Static).set_classes(verdict)

    def watch_trap(self, trap: str) -> None:
        self.set_class(bool(trap), "-trapped")
        self.query_one("#trap", Static).update(trap)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="where")
        with VerticalScroll(id="body"):
            yield Markdown(id="prompt")
            yield Markdown(id="artifact")
            yield Static(id="hints")
            with Horizontal(id="estimate-row"):
                answer_input = Input(
                    id="estimate-input",
                    placeholder="your estimate, e.g. 0.6 ms or 2 GB / 3.35 TB/s",
                )
                answer_input.cursor_blink = self.app.cursor_blink
                yield answer_input
            yield Static(id="preview", classes="muted")
            yield Static(id="verdict")
            yield Static(id="trap")
            yield Markdown(id="answer")
            yield Static("[b]Strong signals you hit[/b] (space to tick)", id="signals-title")
            yield SignalList(id="signals")
            yield Markdown(id="red-flags")
            yield Static(id="done")
        with Horizontal(id="ratings"):
            for rating in RATINGS:
                yield Button(rating.name, id=f"rate-{int(rating)}")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.show_current()

    # Showing an item

    def show_current(self) -> None:
        """Lay out the current item from scratch (or the end-of-session summary)."""
        session = self.session
        item = session.current
        self.stage = "asking"
        self.verdict = ""
        self.trap = ""
        self.query_one("#hints", Static).update("")
        self.query_one("#verdict", Static).update("")
        if item is None:
            self.show_summary()
            return
        question = item.question
        view = session.view()
        number, total = session.position
        where = [
            question.topic or "",
            f"{number}/{total}",
            question.kind,
            question.level,
            f"~{question.minutes} min",
        ]
        if not item.is_new:
            where.insert(2, item.queue)  # before the GPU's long name, which 80 columns may cut
        if view.is_estimation and view.gpu_name:
            where.append(view.gpu_name)
        self.query_one("#where", Static).update(" · ".join(where))
        self.query_one("#prompt", Markdown).update(f"## {view.title}\n\n{view.prompt}")
        artifact = artifact_markdown(view.artifact)
        self.query_one("#artifact", Markdown).update(artifact)
        self.has_artifact = bool(artifact)
        self.kind = question.kind
        answer_input = self.query_one("#estimate-input", Input)
        answer_input.value = ""
        answer_input.disabled = not view.is_estimation
        if question.kind == "coding":
            self.coding_pane().show_drill(question)
        if view.is_estimation:
            self.query_one("#preview", Static).update(view.preview("").text)
            answer_input.focus()
        else:
            self.query_one("#body").focus()
        self.query_one("#body", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    def coding_pane(self) -> CodingPane:
        """The drill pane, mounted the first time a coding item comes up (most sessions have none)."""
        # Imported here: it brings the plotting library, and most sessions have no coding item.
        from gpuprep.tui.widgets.coding_pane import CodingPane

        found = self.query(CodingPane)
        if found:
            return found.first()
        pane = CodingPane(id="coding")
        self.query_one("#body").mount(pane, before=self.query_one("#answer"))
        return pane

    def show_summary(self) -> None:
        """Accuracy on first answers, the ratings, the missed questions and the keys for what next."""
        self.stage = "done"
        self.kind = ""
        self.has_artifact = False
        summary = summarize(self.session)
        self.query_one("#where", Static).update(f"{self.session.filter.describe()} · session done")
        self.query_one("#prompt", Markdown).update(summary_markdown(summary))
        next_steps = ["m reviews the missed ones now"] if summary.missed else []
        if self.session.can_undo:
            next_steps.append("u undoes the last rating")
        next_steps.append("Escape goes back (Home shows what is due next)")
        self.query_one("#done", Static).update("; ".join(next_steps) + ".")
        self.query_one("#body").focus()
        self.refresh_bindings()

    def show_answer(self) -> None:
        """The worked answer, the rubric and the rating buttons with their intervals."""
        session = self.session
        item = session.current
        if item is None:
            return
        view = session.view()
        self.query_one("#answer", Markdown).update(f"### Worked answer\n\n{view.answer}")
        signals = self.query_one("#signals", SelectionList)
        signals.clear_options()  # never carry the last question's ticks over
        if not view.is_estimation:
            signals.add_options(
                [(signal, index) for index, signal in enumerate(view.rubric.strong_signals)]
            )
            signals.highlighted = 0
        self.query_one("#red-flags", Markdown).update(red_flags_markdown(view.rubric))
        self.stage = "revealed"
        self.show_ratings()

    def show_ratings(self) -> None:
        outcomes = self.session.outcomes()
        suggested = self.session.suggested_rating
        for rating in RATINGS:
            button = self.query_one(f"#rate-{int(rating)}", Button)
            button.label = (
                f"{int(rating)} {rating.name} · {format_interval(outcomes[rating].interval)}"
            )
            button.variant = "primary" if rating == suggested else "default"
        self.refresh_bindings()
        target = suggested or (
            Rating.Good
            if self.session.current and self.session.current.question.kind != "estimation"
            else None
        )
        if self.session.current and self.session.current.question.kind != "estimation":
            self.query_one("#signals", SelectionList).focus()
        elif target is not None:
            self.query_one(f"#rate-{int(target)}", Button).focus()

    # Estimation input

    @on(Input.Changed, "#estimate-input")
    def update_preview(self, event: Input.Changed) -> None:
        if self.session.current is None or self.session.current.question.kind != "estimation":
            return
        if self.verdict == "invalid":
            # The answer it was about is being changed: the live preview speaks for it now.
            self.query_one("#verdict", Static).update("")
            self.verdict = ""
        preview = self.session.preview_answer(event.value)
        self.query_one("#preview", Static).update(preview.text)

    @on(Input.Submitted, "#estimate-input")
    def check_answer(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            return
        grade = self.session.check_estimate(event.value)
        self.show_grade(grade)
        if grade.verdict == "invalid":
            # Nothing to judge yet: let the user fix the answer; the attempt is saved all the same.
            # The verdict line says why; the preview said the same, so it steps aside.
            self.query_one("#preview", Static).update("")
            return
        event.input.disabled = True
        self.show_answer()

    def show_grade(self, grade: Grade) -> None:
        headline = grade.message
        if grade.trap_explain:
            # The explanation gets a line of its own, under the verdict.
            headline = headline.removesuffix(" " + grade.trap_explain)
        self.query_one("#verdict", Static).update(headline[:1].upper() + headline[1:])
        self.verdict = grade.verdict
        self.trap = f"The slip: {grade.trap}. {grade.trap_explain}" if grade.trap else ""

    # Actions

    def action_hint(self) -> None:
        if self.session.current is None:
            return
        hint = self.session.next_hint()
        hints = self.query_one("#hints", Static)
        shown = self.session.current.question.hints[: self.session.hints_shown]
        text = "\n".join(f"Hint {i + 1}: {h}" for i, h in enumerate(shown))
        if hint is None:
            text += "\n(no more hints)" if shown else "This question has no hints."
        hints.update(text)

    def action_reveal(self) -> None:
        if self.session.current is None or self.revealed:
            return
        self.session.reveal()
        if self.session.current.question.kind == "estimation":
            self.query_one("#estimate-input", Input).disabled = True
        self.show_answer()

    def action_rate(self, value: int) -> None:
        if self.revealed:
            self.post_message(RatingChosen(Rating(value)))

    def enter_rating(self) -> Rating | None:
        """What Enter rates now: the focused rating button's, else the suggested rating, else
        Good; None before the answer is shown, or while Enter belongs to another widget."""
        if not self.revealed or self.session.current is None:
            return None
        focused = self.focused
        if focused is not None and focused.parent is self.query_one("#ratings"):
            return Rating(int(str(focused.id).removeprefix("rate-")))
        if isinstance(focused, SignalList):
            return None  # Enter ticks a signal there, as space does
        if focused is not None and any(node.id == "coding" for node in focused.ancestors):
            return None  # the drill pane's own buttons and editors take Enter
        return self.session.suggested_rating or Rating.Good

    def action_enter_rate(self, value: int) -> None:
        self.action_rate(value)

    def on_key(self, event: events.Key) -> None:
        if event.key != "escape":
            self._end_armed = False
        # Before a reveal the rating keys are disabled; say why instead of ignoring the key.
        if (
            event.key in ("1", "2", "3", "4")
            and not self.revealed
            and self.session.current is not None
            and not isinstance(self.focused, Input)
        ):
            self.notify("Reveal the answer first (space), then rate it 1-4.", timeout=3)

    @on(Button.Pressed, "#ratings Button")
    def rating_pressed(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.post_message(RatingChosen(Rating(int(event.button.id.removeprefix("rate-")))))

    def on_rating_chosen(self, message: RatingChosen) -> None:
        if not self.revealed or self.session.current is None:
            return
        selected = self.query_one("#signals", SelectionList).selected
        outcome = self.session.rate(message.rating, tuple(selected))
        self.notify(
            f"{message.rating.name}: due again in {format_interval(outcome.interval)}", timeout=3
        )
        self.app.post_message(ProgressChanged())
        self.show_current()

    def action_scroll_body(self, direction: int) -> None:
        body = self.query_one("#body", VerticalScroll)
        body.scroll_page_down() if direction > 0 else body.scroll_page_up()

    def action_edit_starter(self) -> None:
        self.coding_pane().edit_starter()

    def action_run_harness(self) -> None:
        self.coding_pane().run_submission()

    def action_skip(self) -> None:
        if self.session.current is not None:
            self.session.skip()
            self.show_current()

    def action_undo(self) -> None:
        if not self.session.can_undo:
            return
        item = self.session.undo()
        self.app.post_message(ProgressChanged())
        self.show_current()
        self.show_answered()
        self.notify(f"Undone: {item.question.title} is back for a rating.", timeout=3)

    def show_answered(self) -> None:
        """The current item as it was when it was rated: its verdict, answer and ticks (undo)."""
        session = self.session
        answer_input = self.query_one("#estimate-input", Input)
        if session.grade is not None and session.attempt is not None:
            answer_input.value = session.attempt.answer
            self.show_grade(session.grade)
        answer_input.disabled = True
        self.show_answer()
        signals = self.query_one("#signals", SelectionList)
        for index in session.undone_signals:
            signals.select(index)

    def action_review_missed(self) -> None:
        again = summarize(self.session).review_missed()
        if again is not None:
            self.dismiss()
            self.app.post_message(StartPractice(again))

    def action_leave_input(self) -> None:
        # Leave the input (keeping what was typed) so that the letter keys work.
        self.query_one("#body").focus()

    def action_end(self) -> None:
        if not self._end_armed:
            self._end_armed = True
            self.notify("Esc again to end the session.", timeout=3)
            return
        self._end_armed = False
        if not self.session.rated:
            self.action_back()
            return
        self.session.end()
        self.show_current()

    def action_back(self) -> None:
        self.app.post_message(ProgressChanged())
        self.dismiss()

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    def on_descendant_blur(self) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Letter keys belong to the answer input while it has focus.
        if isinstance(self.focused, Input) and action in (
            "hint",
            "reveal",
            "skip",
            "rate",
            "undo",
            "review_missed",
            "edit_starter",
            "run_harness",
        ):
            return False
        if action == "leave_input":
            return isinstance(self.focused, Input)
        if action in ("end", "back"):
            return (action == "back") == self.session.finished and not isinstance(
                self.focused, Input
            )
        if action == "undo":
            return self.session.can_undo
        if action == "review_missed":
            return self.session.finished and bool(summarize(self.session).missed)
        if action == "enter_rate":
            return self.enter_rating() == Rating(int(str(parameters[0])))
        if action == "rate":
            return self.revealed
        if action in ("reveal", "hint"):
            return not (self.revealed or self.session.finished)
        if action in ("edit_starter", "run_harness"):
            current = self.session.current
            return current is not None and current.question.kind == "coding"
        if action == "skip":
            return not self.session.finished
        return True
