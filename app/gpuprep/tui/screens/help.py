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


def _keys_of(screen: Screen[object]) -> str:
    """One row per key, told by its first binding's tooltip (the longer word), else by its
    descriptions: a key with several bindings (one per state, as Escape has in practice)
    joins them."""
    by_key: dict[str, list[Binding]] = {}
    for binding in screen.BINDINGS:
        if isinstance(binding, Binding):
            by_key.setdefault(binding.key, []).append(binding)
    rows = []
    for key, bindings in by_key.items():
        does = bindings[0].tooltip or " / ".join(
            dict.fromkeys(b.description or b.action for b in bindings)
        )
        rows.append(f"| {key.replace(',', ' / ')} | {does} |")
    return (
        "| Key | Does |\n|---|---|\n" + "\n".join(rows)
        if rows
        else "This screen has no keys of its own."
    )


class HelpScreen(ModalScreen[None]):
    """A modal listing keys; any of escape, q or ? closes it."""

    CSS_PATH = STYLES / "help.tcss"
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close")]

    def __init__(self, under: Screen[object]) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(
                f"## Keys: {type(self.under).__name__.removesuffix('Screen')}\n\n{_keys_of(self.under)}\n\n"
                f"## Everywhere\n\n{EVERYWHERE}\n"
                "Practice: type an estimate and press Enter (Escape leaves the input so letter keys work); "
                "for other questions think first, then reveal, tick the strong signals you hit and rate 1-4 "
                "(Enter gives the highlighted rating). Each rating shows when the question comes back; "
                "one rated Again comes back before the session ends. u undoes the last rating; "
                "Escape twice ends the session on its summary."
            )

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
