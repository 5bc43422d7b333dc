"""Self-scoring at the end of a mock: each open-ended answer against its rubric, one at a time.

The candidate reads what they typed beside the model answer, gives each dimension of the rubric
template a level 1-4 (each level's descriptor is the button's label), and ticks the strong
signals they said and the red flags they showed. Every choice goes straight to the session,
which saves it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Markdown, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from gpuprep.sessions.mock import MockSession
from gpuprep.tui.widgets.signal_list import SignalList


class LevelChoice(OptionList):
    """The four levels of one rubric dimension, each with its descriptor (wrapped, never cut);
    Enter on one gives it, and a filled dot marks the level given."""

    def __init__(
        self, dimension: str, descriptors: dict[int, str], chosen: int | None, **kwargs: Any
    ) -> None:
        self.descriptors = descriptors
        super().__init__(
            *[Option(self._prompt(level, chosen), id=str(level)) for level in (1, 2, 3, 4)],
            name=dimension,
            **kwargs,
        )

    def _prompt(self, level: int, chosen: int | None) -> str:
        return f"{'●' if level == chosen else '○'} {level} · {self.descriptors.get(level, '')}"

    def mark(self, chosen: int) -> None:
        for level in (1, 2, 3, 4):
            self.replace_option_prompt(str(level), self._prompt(level, chosen))


def _quote(text: str) -> str:
    lines = text.strip().splitlines()
    if not lines:
        return "*(nothing typed)*"
    return "\n".join(f"> {line}" if line.strip() else ">" for line in lines)


class MockScoring(Vertical):
    """Scores the session's open-ended questions; n and b move between them."""

    BINDINGS = [
        Binding("n", "next_question", "Next answer"),
        Binding("b", "previous_question", "Previous answer"),
    ]

    DEFAULT_CSS = """
    MockScoring { height: auto; }
    MockScoring > * { height: auto; }
    MockScoring .dimension { margin: 1 0 0 0; text-style: bold; }
    MockScoring LevelChoice { max-height: 16; }
    MockScoring SignalList { max-height: 12; }
    """
    """Kept short: the parts stack, and the level descriptors wrap."""

    def __init__(self, session: MockSession) -> None:
        super().__init__(id="scoring")
        self.session = session
        self.position = 0
        self._round = 0
        """Bumped on every question shown, so new widget ids never meet the ones being removed."""

    @property
    def question_id(self) -> str:
        return self.session.self_scored[self.position]

    def compose(self) -> ComposeResult:
        yield from self._parts()

    def _parts(self) -> list[Markdown | Static | OptionList | SelectionList[int]]:
        session = self.session
        question_id = self.question_id
        view = session.view(question_id)
        total = len(session.self_scored)
        self._round += 1
        parts: list[Markdown | Static | OptionList | SelectionList[int]] = [
            Markdown(
                f"## Score {self.position + 1} of {total}: {view.title}\n\n"
                f"*`{question_id}` · {view.question.kind}*  \n"
                "Enter gives a level · n: next answer · b: previous · ctrl+f: finish\n\n"
                f"### Your answer\n\n{_quote(session.answer(question_id))}\n\n"
                f"### Model answer\n\n{view.answer}",
                classes="scored-question",
            )
        ]
        template = session.template(question_id)
        levels = session.levels.get(question_id, {})
        for number, dimension in enumerate(template.dimensions):
            description = f": {dimension.description}" if dimension.description else ""
            parts.append(Static(f"{dimension.name}{description}", classes="dimension"))
            parts.append(
                LevelChoice(
                    dimension.name,
                    dimension.levels,
                    levels.get(dimension.name),
                    id=f"dimension-{self._round}-{number}",
                )
            )
        rubric = view.rubric
        hit = session.signals.get(question_id, set())
        flags = session.red_flags.get(question_id, set())
        parts.append(Static("Strong signals you said (space to tick)", classes="dimension"))
        parts.append(
            SignalList(
                *[(s, i, i in hit) for i, s in enumerate(rubric.strong_signals)],
                name="strong_signals",
                classes="signals",
            )
        )
        parts.append(Static("Red flags your answer showed", classes="dimension"))
        parts.append(
            SignalList(
                *[(f, i, i in flags) for i, f in enumerate(rubric.red_flags)],
                name="red_flags",
                classes="signals",
            )
        )
        return parts

    def focus_first(self) -> None:
        """Focus the first dimension's levels, leaving the answers in view above it."""
        choices = self.query(LevelChoice)
        if choices:
            choices.first().focus(scroll_visible=False)
        if self.parent is not None and hasattr(self.parent, "scroll_home"):
            self.parent.scroll_home(animate=False)

    async def show(self, position: int) -> None:
        """Show another of the answers to score."""
        self.position = position
        await self.remove_children()
        await self.mount_all(self._parts())
        self.focus_first()

    async def action_next_question(self) -> None:
        if self.position + 1 < len(self.session.self_scored):
            await self.show(self.position + 1)
        else:
            self.notify("That was the last answer: ctrl+f finishes and shows the report.")

    async def action_previous_question(self) -> None:
        if self.position > 0:
            await self.show(self.position - 1)

    @on(OptionList.OptionSelected, "LevelChoice")
    def level_chosen(self, event: OptionList.OptionSelected) -> None:
        choice = event.option_list
        if isinstance(choice, LevelChoice) and choice.name and event.option.id:
            level = int(event.option.id)
            self.session.score(self.question_id, choice.name, level)
            choice.mark(level)

    @on(SelectionList.SelectedChanged, ".signals")
    def ticks_changed(self, event: SelectionList.SelectedChanged[int]) -> None:
        chosen = set(event.selection_list.selected)
        if event.selection_list.name == "strong_signals":
            before = self.session.signals.get(self.question_id, set())
            tick: Callable[[str, int, bool], None] = self.session.tick_signal
        else:
            before = self.session.red_flags.get(self.question_id, set())
            tick = self.session.tick_red_flag
        for index in sorted(chosen ^ set(before)):
            tick(self.question_id, index, index in chosen)
