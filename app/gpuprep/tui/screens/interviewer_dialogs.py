"""Small modals of the interviewer's screens (and Home's plan choice): a line of text, a choice."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option


class TextPrompt(ModalScreen[str | None]):
    """Ask for one line of text; enter gives it, escape gives None."""

    DEFAULT_CSS = """
    TextPrompt { align: center middle; }
    TextPrompt > Vertical {
        width: 70; max-width: 95%; height: auto; padding: 1 2;
        border: round $accent; background: $surface;
    }
    TextPrompt Label { width: 100%; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, *, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("enter: OK · escape: cancel", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoicePrompt(ModalScreen[str | None]):
    """Pick one of a list (each choice wraps rather than being cut); escape gives None."""

    DEFAULT_CSS = """
    ChoicePrompt { align: center middle; }
    ChoicePrompt > Vertical {
        width: 90; max-width: 95%; height: auto; max-height: 90%; padding: 0 1;
        border: round $accent; background: $surface;
    }
    ChoicePrompt OptionList { height: auto; max-height: 18; scrollbar-gutter: stable; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        """`choices` are (value, text) pairs."""
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield OptionList(
                *(Option(Text(text), id=value) for value, text in self.choices), id="choice-list"
            )
            yield Label("enter: choose · escape: cancel", classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
