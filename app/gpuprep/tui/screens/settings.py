"""Settings: the GPU assumed for estimation questions, extra bank folders, open book, reviews."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import (
    Button,
    Footer,
    Header,
    Input,
    Label,
    Select,
    Static,
    Switch,
    TextArea,
)

from gpuprep.settings import Settings, SettingsError, load_settings, save_settings
from gpuprep.tui.screens.base import GpuprepScreen

STYLES = Path(__file__).parent.parent / "styles"


class SettingsScreen(GpuprepScreen[None]):
    """Edit and save `settings.yaml` in the gpuprep home."""

    CSS_PATH = STYLES / "settings.tcss"

    def compose(self) -> ComposeResult:
        try:
            settings = load_settings()
            problem = ""
        except SettingsError as error:
            settings, problem = Settings(), str(error)
        hardware = self.app.bank.hardware
        yield Header()
        with VerticalScroll(id="settings-form"):
            yield Static(problem, id="settings-problem")
            yield Label("GPU assumed for estimation questions (when a question allows it)")
            yield Select(
                [(gpu.name, gpu.id) for gpu in hardware.values()],
                prompt="Each question's own GPU (or a random allowed one)",
                value=settings.gpu if settings.gpu in hardware else Select.NULL,
                id="gpu",
            )
            yield Label(
                "Extra bank folders, one per line (merged with the built-in bank at the next start)"
            )
            banks = TextArea("\n".join(str(p) for p in settings.extra_banks), id="extra-banks")
            banks.cursor_blink = self.app.cursor_blink
            yield banks
            yield Label(
                "Open book: practice and mock answers may read the hardware tables (gpu.bf16_dense)"
                " and still count as recalled"
            )
            yield Switch(value=settings.open_book, id="open-book")
            yield Label("New questions a day (0: reviews only)")
            yield Input(str(settings.new_per_day), id="new-per-day", type="integer")
            yield Label(
                "Desired retention, 0.70 to 0.99: the chance of recalling a card when it comes"
                " due (higher: more reviews)"
            )
            yield Input(str(settings.desired_retention), id="desired-retention", type="number")
            yield Button("Save", id="save", variant="primary")
            yield Static(id="saved", classes="muted")
        yield Footer()

    def on_mount(self) -> None:
        # Start on the first field, so that Enter opens the GPU list instead of doing nothing.
        self.query_one("#gpu", Select).focus()

    @on(Button.Pressed, "#save")
    def save(self) -> None:
        gpu = self.query_one("#gpu", Select).value
        lines = self.query_one("#extra-banks", TextArea).text.splitlines()
        folders = [Path(line.strip()).expanduser() for line in lines if line.strip()]
        missing = [str(folder) for folder in folders if not folder.is_dir()]
        if missing:
            self.query_one("#saved", Static).update(
                f"Not saved: not a folder: {', '.join(missing)}"
            )
            return
        try:
            # The numbers go in as typed: the model checks them, and says what it takes.
            settings = Settings.model_validate(
                {
                    "gpu": None if gpu is Select.NULL else str(gpu),
                    "extra_banks": folders,
                    "open_book": self.query_one("#open-book", Switch).value,
                    "new_per_day": self.query_one("#new-per-day", Input).value.strip(),
                    "desired_retention": self.query_one("#desired-retention", Input).value.strip(),
                    # Not on this form: kept as chosen from the command palette.
                    "theme": self.app.theme,
                }
            )
        except ValidationError as error:
            self.query_one("#saved", Static).update(f"Not saved: {_first_problem(error)}")
            return
        try:
            save_settings(settings)
        except OSError as error:
            self.query_one("#saved", Static).update(
                f"Not saved: cannot write {error.filename or 'the settings file'} "
                f"({error.strerror or error}); set GPUPREP_HOME to a writable folder."
            )
            return
        self.app.gpu = settings.gpu
        self.app.open_book = settings.open_book
        self.app.new_per_day = settings.new_per_day
        self.app.desired_retention = settings.desired_retention
        self.query_one("#saved", Static).update(
            "Saved. The GPU, new questions a day and retention apply to the next session;"
            " bank folders to the next start."
        )


#: How the form names each number it checks, and what it takes.
NUMBER_FIELDS = {
    "new_per_day": ("New questions a day", "a whole number from 0 to 9999"),
    "desired_retention": ("Desired retention", "a number from 0.70 to 0.99"),
}


def _first_problem(error: ValidationError) -> str:
    """'Desired retention: '1.5' is not a number from 0.70 to 0.99.': named as the form names it."""
    problem = error.errors()[0]
    field = str(problem["loc"][0]) if problem["loc"] else ""
    if field in NUMBER_FIELDS:
        name, takes = NUMBER_FIELDS[field]
        return f"{name}: {str(problem.get('input'))!r} is not {takes}."
    return f"{field}: {problem['msg']}."
