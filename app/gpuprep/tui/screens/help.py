"""Help: the keys of the screen underneath, and the ones that work everywhere."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown

STYLES = Path(__file__).parent.parent / "styles"

EVERYWHERE = """\
| Key | Does |
|---|---|
| F2 / F3 / F4 / F5 / F6 | Home / Browse / Stats / Settings / Interviewer |
| ctrl+p | Command palette: every screen and action by name |
| ? or F1 | This help |
| ctrl+q | Quit |
"""


def _keys_of(screen: Screen) -> str:
    rows = []
    for binding in screen.BINDINGS:
        if isinstance(binding, Binding):
            rows.append(
                f"| {binding.key.replace(',', ' / ')} | {binding.description or binding.action} |"
            )
    return (
        "| Key | Does |\n|---|---|\n" + "\n".join(rows)
        if rows
        else "This screen has no keys of its own."
    )


class HelpScreen(ModalScreen[None]):
    """A modal listing keys; any of escape, q or ? closes it."""

    CSS_PATH = STYLES / "help.tcss"
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close")]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(
                f"## Keys: {type(self.under).__name__.removesuffix('Screen')}\n\n{_keys_of(self.under)}\n\n"
                f"## Everywhere\n\n{EVERYWHERE}\n"
                "Practice: type an estimate and press Enter (Escape leaves the input so letter keys work); "
                "for other questions think first, then reveal, tick the strong signals you hit and rate 1-4. "
                "Each rating shows when the question comes back."
            )

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
