"""The gpuprep Textual app and `make_app`, the factory the CLI, the tests and the benchmark share.

The app holds the bank, the store and the clock; screens read them from `self.app`. Top-level
sections are `MODES`; a practice session is a screen pushed over the current section.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fsrs import Scheduler
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from gpuprep.bank.loader import Bank
from gpuprep.sessions.clock import Clock, system_clock
from gpuprep.sessions.drill import DrillSession
from gpuprep.sessions.practice import PracticeFilter, PracticeSession
from gpuprep.store.database import Store
from gpuprep.tui.messages import ProgressChanged, StartPractice
from gpuprep.tui.screens.home import HomeScreen

if TYPE_CHECKING:
    from gpuprep.sessions.mock_run import MockRun

STYLES = Path(__file__).parent / "styles"


# Screens other than the first are imported on first use: time to the first screen counts.


def _browse_screen() -> Screen[None]:
    from gpuprep.tui.screens.browse import BrowseScreen

    return BrowseScreen()


def _stats_screen() -> Screen[None]:
    from gpuprep.tui.screens.stats import StatsScreen

    return StatsScreen()


def _interviewer_screen() -> Screen[None]:
    from gpuprep.tui.screens.interviewer import InterviewerScreen

    return InterviewerScreen()


def _settings_screen() -> Screen[None]:
    from gpuprep.tui.screens.settings import SettingsScreen

    return SettingsScreen()


class GpuprepApp(App[None]):
    """Practise GPU-performance interview questions with spaced repetition."""

    TITLE = "gpuprep"
    CSS_PATH = [STYLES / "global.tcss"]
    MODES = {
        "home": HomeScreen,
        "browse": _browse_screen,
        "stats": _stats_screen,
        "settings": _settings_screen,
        "interviewer": _interviewer_screen,
    }
    DEFAULT_MODE = "home"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("f1,question_mark", "help", "Help"),
        Binding("f2", "switch_mode('home')", "Home", show=False),
        Binding("f3", "switch_mode('browse')", "Browse"),
        Binding("f4", "switch_mode('stats')", "Stats"),
        Binding("f5", "switch_mode('settings')", "Settings", show=False),
        Binding("f6", "switch_mode('interviewer')", "Interviewer", show=False),
    ]

    def __init__(
        self,
        bank: Bank,
        store: Store,
        clock: Clock = system_clock,
        *,
        practice: PracticeFilter | None = None,
        seed: int | None = None,
        scheduler: Scheduler | None = None,
        gpu: str | None = None,
        cursor_blink: bool = True,
        detect_gpu: bool = False,
        drill_session: DrillSession | None = None,
        notice: str = "",
        mock: MockRun | None = None,
        open_book: bool = False,
        new_per_day: int | None = None,
        desired_retention: float | None = None,
        theme: str | None = None,
    ) -> None:
        super().__init__()
        # What settings.yaml holds: a theme saved by another Textual (and gone from this one)
        # leaves the default on screen and the file as it is until another theme is chosen.
        self._saved_theme = theme
        if theme is not None and theme in self.available_themes:
            self.theme = theme
        self.new_per_day = new_per_day
        """New questions a day (the settings); None: no cap."""
        self.desired_retention = desired_retention
        """The recall probability reviews aim at (the settings); None: the scheduler's own."""
        self.open_book = open_book
        """Practice answers may read the hardware tables and still count as recalled."""
        self.notice = notice
        """Said once on opening: extra banks left out because they are broken or gone."""
        self.detect_gpu = detect_gpu
        """Look for this machine's GPU (nvidia-smi) in a worker and assume it when found."""
        self.cursor_blink = cursor_blink
        """False in tests and snapshots: a blinking cursor makes screenshots differ."""
        self.bank = bank
        self.store = store
        self.clock = clock
        self.seed = seed
        self.scheduler = scheduler
        self.gpu = gpu
        """GPU assumed for estimation questions (from the settings); None lets variants choose."""
        self._start_practice = practice
        self._start_mock = mock
        self.drill_session = drill_session or DrillSession(bank, store, clock)
        """Kernel drills on this app's bank (extra --bank folders included), saved to its store."""

    def on_mount(self) -> None:
        if self.store.recovery_message:
            self.notify(
                self.store.recovery_message,
                title="Progress database",
                severity="warning",
                timeout=30,
            )
        if self.notice:
            self.notify(self.notice, title="Extra banks", severity="warning", timeout=30)
        if self._start_practice is not None:
            self.start_practice(self._start_practice)
        if self._start_mock is not None:
            self.start_mock(self._start_mock)
        if self.detect_gpu and self.gpu is None:
            self.run_worker(self._detect_gpu, thread=True, exclusive=True, group="detect-gpu")

    def watch_theme(self, theme: str) -> None:
        """Keep the theme chosen from the command palette for the next start (settings.yaml)."""
        if theme == self._saved_theme:
            return
        from gpuprep.settings import SettingsError, load_settings, save_settings

        try:
            settings = load_settings()
        except SettingsError:
            return  # a settings file that cannot be read is the user's to fix: never overwrite it
        try:
            save_settings(settings.model_copy(update={"theme": theme}))
        except OSError as error:
            self.notify(f"The theme is not kept for next time: {error}", severity="warning")
            return
        self._saved_theme = theme

    def _detect_gpu(self) -> None:
        from gpuprep.settings import detect_gpu

        found = detect_gpu(self.bank.hardware)
        if found is not None:
            self.call_from_thread(self._use_detected_gpu, found)

    def _use_detected_gpu(self, gpu_id: str) -> None:
        if self.gpu is None:
            self.gpu = gpu_id
            self.notify(
                f"Estimation questions assume this machine's {self.bank.hardware[gpu_id].name} when they allow it."
            )

    def start_practice(self, practice_filter: PracticeFilter) -> None:
        """Open a practice session, or say why there is nothing to practise."""
        from gpuprep.sessions.srs import with_retention

        scheduler = self.scheduler or Scheduler()
        if self.desired_retention is not None:
            scheduler = with_retention(scheduler, self.desired_retention)
        session = PracticeSession(
            self.bank,
            self.store,
            practice_filter,
            clock=self.clock,
            seed=self.seed,
            scheduler=scheduler,
            gpu=self.gpu,
            open_book=self.open_book,
            new_per_day=self.new_per_day,
        )
        if session.finished and session.new_held_back:
            self.notify(
                f"Nothing in {practice_filter.describe()} is due, and today's cap of new "
                f"questions ({self.new_per_day}) is reached: {session.new_held_back} new ones "
                "wait for tomorrow. F5 (Settings) changes the cap.",
                title="Practice",
            )
            return
        if session.finished:
            if practice_filter == PracticeFilter(due_only=True):
                message = (
                    "Nothing is due for review. The home screen suggests what to practise next."
                )
            elif practice_filter.due_only:
                message = f"Nothing is due in {practice_filter.describe()}."
            else:
                message = f"No question matches {practice_filter.describe()}."
            self.notify(message, title="Practice")
            return
        from gpuprep.tui.screens.practice import PracticeScreen

        self.push_screen(PracticeScreen(session))

    def start_mock(self, run: MockRun) -> None:
        """Open a mock interview (new or resumed) over the current screen."""
        from gpuprep.tui.screens.mock import MockScreen

        self.push_screen(MockScreen(run))

    def open_mock(self, minutes: int | None) -> None:
        """A new mock of `minutes` (from the palette), or with None the interrupted one."""
        from gpuprep.tui.screens.mock import mock_run_for

        run = mock_run_for(self, minutes)
        if run is not None:
            self.start_mock(run)

    def start_plan(self, plan_id: str) -> None:
        """Start a prep plan today (restarting it if it was started before)."""
        self.store.start_plan(plan_id, self.clock())
        self.notify(
            f"Started {self.bank.plans[plan_id].title}: day 1 is today. Press p on the home screen."
        )
        self.post_message(ProgressChanged())

    def on_start_practice(self, message: StartPractice) -> None:
        self.start_practice(message.filter)

    def on_progress_changed(self, message: ProgressChanged) -> None:
        # Screens under the practice screen refresh when they are resumed; this covers the rest.
        for screen in self.screen_stack:
            refresh = getattr(screen, "refresh_progress", None)
            if refresh is not None:
                refresh()

    def action_help(self) -> None:
        from gpuprep.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            "Home",
            "Due today, streak, coverage, the suggested session",
            lambda: self.switch_mode("home"),
        )
        yield SystemCommand(
            "Browse", "Topics, questions, answers and rubrics", lambda: self.switch_mode("browse")
        )
        yield SystemCommand(
            "Stats", "Attempts over time, accuracy per topic", lambda: self.switch_mode("stats")
        )
        yield SystemCommand(
            "Settings",
            "GPU for estimation, extra bank folders",
            lambda: self.switch_mode("settings"),
        )
        yield SystemCommand(
            "Interviewer",
            "Rubrics with their 1-4 levels, interview sets, scoring a candidate",
            lambda: self.switch_mode("interviewer"),
        )
        for minutes in (45, 60, 90):
            yield SystemCommand(
                f"Mock interview: {minutes} minutes",
                "A timed loop: warm-up, estimation, debugging, a drill or design; then the report",
                lambda minutes=minutes: self.open_mock(minutes),
            )
        yield SystemCommand(
            "Resume the interrupted mock",
            "Carry on the last mock left before its end, with the time it had used",
            lambda: self.open_mock(None),
        )
        yield SystemCommand(
            "Review due cards",
            "Practise what spaced repetition says is due",
            lambda: self.start_practice(PracticeFilter(due_only=True)),
        )
        for topic in self.bank.topics.values():
            yield SystemCommand(
                f"Practise {topic.title}",
                f"A session on the {topic.id} topic",
                lambda topic_id=topic.id: self.start_practice(PracticeFilter(topic=topic_id)),
            )
        for plan in self.bank.plans.values():
            yield SystemCommand(
                f"Start plan: {plan.title}",
                f"{len(plan.days)} days from today; the home screen shows each day's session",
                lambda plan_id=plan.id: self.start_plan(plan_id),
            )
        yield SystemCommand("Help", "Keys of this screen", self.action_help)


def make_app(
    *,
    bank: Bank | None = None,
    store: Store | None = None,
    clock: Clock | None = None,
    banks: list[Path] | None = None,
    practice: PracticeFilter | None = None,
    seed: int | None = None,
    scheduler: Scheduler | None = None,
    gpu: str | None = None,
    cursor_blink: bool = True,
    detect_gpu: bool = True,
    drill_session: DrillSession | None = None,
    notice: str = "",
    mock: MockRun | None = None,
) -> GpuprepApp:
    """Build the app; anything not given comes from the user's real bank, store and settings.

    With no GPU given or saved in the settings, the app looks for this machine's (`detect_gpu`).
    `drill_session` defaults to one over the bank and store (tests give one a fake harness).
    """
    if bank is None:
        from gpuprep.sessions.checked_bank import load_clean_bank

        bank = load_clean_bank(banks)
    # pydantic and yaml load with the settings: when the app is built, not when it is imported.
    from gpuprep.settings import Settings, SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError:
        settings = Settings()
    if gpu is None:
        gpu = settings.gpu
    return GpuprepApp(
        bank,
        store or Store.open(),
        clock or system_clock,
        practice=practice,
        seed=seed,
        scheduler=scheduler,
        gpu=gpu,
        cursor_blink=cursor_blink,
        detect_gpu=detect_gpu and gpu is None,
        drill_session=drill_session,
        notice=notice,
        mock=mock,
        open_book=settings.open_book,
        new_per_day=settings.new_per_day,
        desired_retention=settings.desired_retention,
        theme=settings.theme,
    )
