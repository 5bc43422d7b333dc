"""Interviewer: browse the rubrics, see each kind's 1-4 levels, assemble a set, score a candidate.

The list shows every question's id and its whole title (wrapped, never cut); the pane beside it
shows the rubric (strong signals, red flags, follow-ups) and the template's levels per
dimension. `a` adds the highlighted question to the set being assembled, `g` takes a generated
set by seed (the mock interview's composition), `w` saves the set by name and `o` opens a saved
one; `c` starts a scorecard for a candidate over the set and `r` reopens a saved scorecard.
"""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from gpuprep.sessions.browse import QuestionQuery, no_match_message
from gpuprep.sessions.scorecard import ScorecardError, ScorecardSession, template_of
from gpuprep.sessions.scorecard_sets import (
    KIND_ORDER,
    InterviewSetError,
    generated_set,
    save_set,
    set_minutes,
)
from gpuprep.store.scorecards import ScorecardStore
from gpuprep.tui.screens.base import GpuprepScreen
from gpuprep.tui.screens.interviewer_dialogs import ChoicePrompt, TextPrompt
from gpuprep.wording import counted

STYLES = Path(__file__).parent.parent / "styles"


class InterviewerScreen(GpuprepScreen[None]):
    """Rubrics, interview sets and scorecards, for the person asking the questions."""

    CSS_PATH = STYLES / "interviewer.tcss"
    BINDINGS = [
        Binding("slash", "filter", "Filter"),
        Binding("a", "toggle_in_set", "Add"),
        Binding("g", "generate_set", "Generate"),
        Binding("w", "save_set", "Save"),
        Binding("o", "open_set", "Open"),
        Binding("x", "clear_set", "Clear set", show=False),
        Binding("c", "score_candidate", "Score"),
        Binding("r", "open_scorecard", "Scorecards"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.set_ids: list[str] = []
        """The interview set being assembled, in the order it will be asked."""
        self.set_name = ""
        self.set_seed: int | None = None

    @property
    def scorecards(self) -> ScorecardStore:
        return ScorecardStore(self.app.store)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(
            id="rubric-filter",
            placeholder="filter: words  kind:estimation  level:senior  topic:roofline",
        )
        with Horizontal(id="interviewer"):
            yield OptionList(id="rubrics")
            with VerticalScroll(id="rubric-pane"):
                yield Static(id="rubric-detail")
        yield Static(id="set-line")
        yield Footer()

    def on_mount(self) -> None:
        self.show_rubrics("")
        self.show_set()
        self.query_one("#rubrics", OptionList).focus()

    # -- the list and the rubric -------------------------------------------------------------

    def show_rubrics(self, text: str) -> None:
        bank = self.app.bank
        topic = None
        words = []
        for token in text.split():
            prefix, _, value = token.partition(":")
            if prefix.lower() == "topic" and value:
                topic = value.lower()
            else:
                words.append(token)
        query = QuestionQuery.parse(" ".join(words), topic=topic)
        found = sorted(
            (q for q in bank.questions.values() if query.matches(q)),
            key=lambda q: (KIND_ORDER.index(q.kind), q.topic or "", q.id),
        )
        listing = self.query_one("#rubrics", OptionList)
        listing.clear_options()
        listing.add_options([Option(self._prompt(q.id), id=q.id) for q in found])
        if found:
            listing.highlighted = 0
            self.show_rubric(found[0].id)
        else:
            message = no_match_message(query)
            if topic is not None and topic not in bank.topics:
                message += f" There is no topic {topic}."
            self.query_one("#rubric-detail", Static).update(escape(message))

    def _prompt(self, question_id: str) -> Text:
        question = self.app.bank.questions[question_id]
        mark = "✓ " if question_id in self.set_ids else "  "
        text = Text(mark)
        text.append(question_id, style="bold")
        text.append(f"\n  {question.title}")
        text.append(f"  {question.kind} · {question.level} · {question.minutes} min", style="dim")
        return text

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            self.show_rubric(event.option.id)

    def show_rubric(self, question_id: str) -> None:
        bank = self.app.bank
        question = bank.questions[question_id]
        rubric = question.rubric
        lines = [
            f"[b]{escape(question.title)}[/b]",
            f"[dim]{escape(question.id)} · {question.topic} · {question.kind} · {question.level} · "
            f"{question.minutes} min[/dim]",
            "",
            "[b]Strong signals[/b]",
            *(f"  + {escape(s)}" for s in rubric.strong_signals),
            "[b]Red flags[/b]",
            *(f"  - {escape(f)}" for f in rubric.red_flags),
        ]
        if rubric.follow_ups:
            lines += ["[b]Follow-ups[/b]", *(f"  ? {escape(f)}" for f in rubric.follow_ups)]
        template = template_of(bank, question)
        if template is not None:
            lines += ["", f"[b]Template: {escape(template.title)}[/b] (levels 1 weak .. 4 strong)"]
            for dimension in template.dimensions:
                lines.append(f"[u]{escape(dimension.name)}[/u]")
                lines += [
                    f"  {level}  {escape(text)}" for level, text in sorted(dimension.levels.items())
                ]
        self.query_one("#rubric-detail", Static).update("\n".join(lines))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "rubric-filter":
            self.show_rubrics(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "rubric-filter":
            self.query_one("#rubrics", OptionList).focus()

    def action_filter(self) -> None:
        self.query_one("#rubric-filter", Input).focus()

    def _highlighted(self) -> str | None:
        listing = self.query_one("#rubrics", OptionList)
        if listing.highlighted is None or not listing.option_count:
            return None
        return listing.get_option_at_index(listing.highlighted).id

    # -- the set -----------------------------------------------------------------------------

    def show_set(self) -> None:
        bank = self.app.bank
        if not self.set_ids:
            text = "Set: empty. a adds the highlighted question; g takes a generated set by seed; o opens a saved one."
        else:
            name = f"'{self.set_name}'" if self.set_name else "(unsaved)"
            seed = f", seed {self.set_seed}" if self.set_seed is not None else ""
            text = (
                f"Set {name}{seed}: {counted(len(self.set_ids), 'question')}, "
                f"{set_minutes(bank, tuple(self.set_ids))} min: {', '.join(self.set_ids)}. "
                "c scores a candidate on it."
            )
        self.query_one("#set-line", Static).update(escape(text))

    def _refresh_marks(self) -> None:
        listing = self.query_one("#rubrics", OptionList)
        for index in range(listing.option_count):
            option = listing.get_option_at_index(index)
            if option.id is not None:
                listing.replace_option_prompt_at_index(index, self._prompt(option.id))

    def _use_set(self, ids: tuple[str, ...], name: str, seed: int | None) -> None:
        self.set_ids = list(ids)
        self.set_name = name
        self.set_seed = seed
        self._refresh_marks()
        self.show_set()

    def action_toggle_in_set(self) -> None:
        question_id = self._highlighted()
        if question_id is None:
            return
        if question_id in self.set_ids:
            self.set_ids.remove(question_id)
        else:
            self.set_ids.append(question_id)
        self.set_seed = None
        self._refresh_marks()
        self.show_set()

    def action_clear_set(self) -> None:
        self._use_set((), "", None)

    def action_generate_set(self) -> None:
        self.app.push_screen(
            TextPrompt(
                "Generated set: a seed, then optionally minutes (45, 60, 90) and a track "
                "(kernel, inference, training, general). The same seed gives the same questions.",
                placeholder="42 45 kernel",
            ),
            self._generate,
        )

    def _generate(self, answer: str | None) -> None:
        if not answer or not answer.strip():
            return
        words = answer.split()
        try:
            seed = int(words[0])
            minutes = int(words[1]) if len(words) > 1 else 45
        except ValueError:
            self.notify(f"{answer!r}: give a whole-number seed, then minutes", severity="error")
            return
        track = words[2] if len(words) > 2 else "general"
        try:
            ids = generated_set(self.app.bank, seed, minutes=minutes, track=track)
        except InterviewSetError as error:
            self.notify(str(error), severity="error")
            return
        self._use_set(ids, f"seed {seed} · {minutes} min · {track}", seed)

    def action_save_set(self) -> None:
        if not self.set_ids:
            self.notify("The set is empty: add questions with a, or generate one with g.")
            return
        self.app.push_screen(TextPrompt("Save the set as:", value=self.set_name), self._save_set)

    def _save_set(self, name: str | None) -> None:
        if name is None:
            return
        try:
            saved = save_set(
                self.scorecards,
                self.app.bank,
                name,
                tuple(self.set_ids),
                seed=self.set_seed,
                clock=self.app.clock,
            )
        except InterviewSetError as error:
            self.notify(str(error), severity="error")
            return
        self.set_name = saved.name
        self.show_set()
        self.notify(
            f"Saved the set '{saved.name}' ({counted(len(saved.question_ids), 'question')})."
        )

    def action_open_set(self) -> None:
        sets = self.scorecards.sets()
        if not sets:
            self.notify("No saved sets yet: assemble one (a) and save it (w).")
            return
        choices = [
            (
                s.name,
                f"{s.name}: {counted(len(s.question_ids), 'question')}, {', '.join(s.question_ids)}",
            )
            for s in sets
        ]
        self.app.push_screen(ChoicePrompt("Open a saved set", choices), self._open_set)

    def _open_set(self, name: str | None) -> None:
        saved = self.scorecards.interview_set(name) if name else None
        if saved is not None:
            known = tuple(q for q in saved.question_ids if q in self.app.bank.questions)
            self._use_set(known, saved.name, saved.seed)

    # -- scorecards --------------------------------------------------------------------------

    def action_score_candidate(self) -> None:
        if not self.set_ids:
            self.notify("Assemble a set first: a adds questions, g generates a set, o opens one.")
            return
        self.app.push_screen(TextPrompt("Candidate's name:"), self._start_scorecard)

    def _start_scorecard(self, candidate: str | None) -> None:
        if candidate is None:
            return
        try:
            session = ScorecardSession.start(
                self.app.bank,
                self.scorecards,
                candidate,
                tuple(self.set_ids),
                set_name=self.set_name,
                clock=self.app.clock,
            )
        except ScorecardError as error:
            self.notify(str(error), severity="error")
            return
        self.open_scorecard(session)

    def action_open_scorecard(self) -> None:
        saved = self.scorecards.scorecards()
        if not saved:
            self.notify("No scorecards yet: assemble a set and press c.")
            return
        choices = [
            (
                str(s.id),
                f"{s.id} · {s.candidate} · {s.set_name or 'assembled'} · "
                f"{counted(len(s.question_ids), 'question')} · changed {s.updated_at:%Y-%m-%d %H:%M}",
            )
            for s in saved
        ]
        self.app.push_screen(ChoicePrompt("Open a scorecard", choices), self._open_saved)

    def _open_saved(self, scorecard_id: str | None) -> None:
        if scorecard_id is None:
            return
        session = ScorecardSession.open(
            self.app.bank, self.scorecards, int(scorecard_id), self.app.clock
        )
        self.open_scorecard(session)

    def open_scorecard(self, session: ScorecardSession) -> None:
        from gpuprep.tui.screens.interviewer_scoring import ScorecardScreen

        self.app.push_screen(ScorecardScreen(session))
