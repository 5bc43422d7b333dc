"""The timed mock in the TUI, driven with Pilot on a frozen clock: sections time out in order
with what was typed kept, the answers are self-scored against the rubric, the report is saved;
and a mock left mid-section resumes in a new app with the time it had used."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import Input, Markdown, Static, TextArea

from gpuprep.harness.report import CaseCheck, Mode, Status, SubmitReport
from gpuprep.sessions.drill import DrillSession
from gpuprep.sessions.mock_plan import MockPlan, MockSection
from gpuprep.sessions.mock_run import MockRun, history, saved_report
from gpuprep.store.database import Store
from gpuprep.tui.screens.mock import MockScreen
from gpuprep.tui.screens.mock_scoring import LevelChoice, MockScoring

SIZE = (100, 30)


def make(builtin_bank, store, clock, run):
    from gpuprep.tui.app import make_app

    return make_app(
        bank=builtin_bank,
        store=store,
        clock=clock,
        gpu=None,
        cursor_blink=False,
        detect_gpu=False,
        mock=run,
    )


def clock_line(app) -> str:
    """The countdown line ('' while the screen is still being built)."""
    found = app.screen.query("#clock")
    return str(found.first(Static).render()) if found else ""


async def until(pilot, condition, what: str, seconds: float = 10.0) -> None:
    """Let the screen's own timer run until `condition()` holds."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def test_sections_time_out_in_order_keeping_what_was_typed_then_the_report_is_saved(
    builtin_bank, mock_plan, clock, store_path
):
    warm_up, estimate, scenario = (s.question_ids[0] for s in mock_plan.sections)
    store = Store(store_path)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    app = make(builtin_bank, store, clock, run)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, MockScreen)
        await until(pilot, lambda: "Warm-up concepts" in clock_line(app), "the warm-up")
        assert "Warm-up concepts (1/3) · 5:00 left · mock 23:00 left" in clock_line(app)
        await until(pilot, lambda: isinstance(screen.focused, TextArea), "the answer box")
        await pilot.press(*"peak over bandwidth")

        clock.advance(minutes=2)
        await until(pilot, lambda: "(1/3) · 3:00 left" in clock_line(app), "the countdown")
        clock.advance(minutes=3)
        await until(pilot, lambda: "Estimation (2/3)" in clock_line(app), "the estimation to open")

        assert "Estimation (2/3) · 10:00 left · mock 18:00 left" in clock_line(app)
        assert "✓ Warm-up 5:00" in str(screen.query_one("#sections", Static).render())
        assert run.session.answer(warm_up) == "peak over bandwidth"
        warm_up_box = screen.query_one("#section-0 TextArea", TextArea)
        assert not warm_up_box.display or not warm_up_box.parent.display
        assert warm_up_box.disabled, "a closed section's answer cannot be changed"
        await until(pilot, lambda: isinstance(screen.focused, Input), "the estimate's input")
        await pilot.press(*"3 us")
        assert run.session.answer(estimate) == "3 us"
        assert str(screen.query_one(".preview", Static).render()).startswith("= ")

        clock.advance(minutes=10)
        await until(pilot, lambda: "Debugging scenario" in clock_line(app), "the scenario to open")
        assert "Debugging scenario (3/3) · 8:00 left" in clock_line(app)
        await pilot.press(*"check occupancy")
        clock.advance(minutes=8)
        await until(pilot, lambda: isinstance(screen.focused, LevelChoice), "self-scoring")

        scoring = screen.query_one(MockScoring)
        assert scoring.question_id == warm_up
        source = scoring.query_one(".scored-question", Markdown).source
        assert "> peak over bandwidth" in source and "### Model answer" in source
        levels = scoring.query(LevelChoice)
        assert len(levels) == len(run.session.template(warm_up).dimensions)
        assert screen.focused is levels.first()
        await pilot.press("down", "down", "enter")  # the third level
        await pilot.pause()
        assert run.session.levels[warm_up] == {run.session.template(warm_up).dimensions[0].name: 3}
        assert str(levels.first().get_option_at_index(2).prompt).startswith("● 3 · ")
        await pilot.press("n")
        await pilot.pause()
        assert screen.query_one(MockScoring).question_id == scenario
        await pilot.press("ctrl+f")
        await until(pilot, lambda: screen.stage == "report", "the report")

        report_text = screen.query_one("#report", Markdown).source
        assert "| 1 | Warm-up concepts | 5:00 | 5:00 | time up | 3.0/4 |" in report_text
        assert "| 3 | Debugging scenario | 8:00 | 8:00 | time up |" in report_text
    report = saved_report(store, run.id)
    assert [s.seconds_used for s in report.sections] == [300, 600, 480]
    assert [q.answer for s in report.sections for q in s.questions] == [
        "peak over bandwidth",
        "3 us",
        "check occupancy",
    ]
    assert [summary.finished for summary in history(store)] == [True]
    store.close()


async def test_a_mock_left_mid_section_resumes_in_a_new_app_with_the_time_it_had_used(
    builtin_bank, mock_plan, clock, store_path
):
    warm_up, estimate, _scenario = (s.question_ids[0] for s in mock_plan.sections)
    store = Store(store_path)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    app = make(builtin_bank, store, clock, run)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: "Warm-up concepts" in clock_line(app), "the warm-up")
        await pilot.press(*"ridge point")
        clock.advance(minutes=7)  # the warm-up times out at 5; 2 minutes into the estimation
        await until(pilot, lambda: "Estimation (2/3)" in clock_line(app), "the estimation")
        await pilot.press(*"2 ms")
        clock.advance(minutes=1)  # thinking, typing nothing: only the periodic save sees it
        # Wait for the periodic save to have written the 2 minutes used: no Escape, no
        # goodbye: what is on disk is what a killed app would leave.
        await until(
            pilot,
            lambda: run.records.get(run.id).state["sections"][1]["used_seconds"] == 180,
            "the periodic save",
        )
        saved = run.records.get(run.id).state
    store.close()
    assert saved["answers"] == {warm_up: "ridge point", estimate: "2 ms"}

    clock.advance(hours=5)  # time away is not counted
    store = Store(store_path)
    resumed = MockRun.resume(store, builtin_bank, clock=clock, now=clock)
    app = make(builtin_bank, store, clock, resumed)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: "Estimation (2/3)" in clock_line(app), "the estimation, resumed")
        assert "Estimation (2/3) · 7:00 left · mock 15:00 left" in clock_line(app)
        assert screen.query_one(Input).value == "2 ms"
        assert "✓ Warm-up 5:00" in str(screen.query_one("#sections", Static).render())
        clock.advance(minutes=7)
        await until(pilot, lambda: screen.section_index == 2, "the scenario")
    assert [r.elapsed(clock()) for r in resumed.session.runs[:2]] == [
        timedelta(minutes=5),
        timedelta(minutes=10),
    ]
    store.close()


class FailingJudge:
    """Stands in for `gpuprep.harness.api`: the submission fails one case."""

    def __init__(self) -> None:
        self.submitted: list[str] = []

    def submit(self, drill, kernels_dir, file, **options) -> SubmitReport:
        self.submitted.append(file.name)
        return SubmitReport(
            drill.id,
            file.name,
            Status.FAILED,
            mode=Mode.CPU,
            checks=[
                CaseCheck({"n": 4099}, "float32", "normal", ok=False, problem="tail not masked")
            ],
        )

    def bench(self, drill, kernels_dir, **options):
        raise AssertionError("a mock never benches")


def mock_drill_app(bank, clock, store_path, harness=None):
    """An app in a mock of one section: the bank's first coding question that has a drill.
    Returns the app, its store (the caller closes it), the mock run and the question."""
    from gpuprep.tui.app import make_app

    drill = next(
        q for q in bank.questions.values() if q.kind == "coding" and q.drill in bank.drills
    )
    plan = MockPlan(
        45, "kernel", None, 1, (), (MockSection("coding", "Kernel drill", (drill.id,), 15),)
    )
    store = Store(store_path)
    run = MockRun.begin(store, bank, plan, clock=clock, now=clock)
    options = (
        {"drill_session": DrillSession(bank, store, clock, harness=harness)} if harness else {}
    )
    app = make_app(
        bank=bank,
        store=store,
        clock=clock,
        gpu=None,
        cursor_blink=False,
        detect_gpu=False,
        mock=run,
        **options,
    )
    return app, store, run, drill


async def test_the_drill_is_judged_through_the_apps_drill_session_and_its_verdict_reported(
    builtin_bank, clock, store_path
):
    judge = FailingJudge()
    app, store, run, drill = mock_drill_app(builtin_bank, clock, store_path, harness=judge)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: "Kernel drill (1/1)" in clock_line(app), "the drill")
        assert "ctrl+r: run the harness" in str(screen.query_one("#coding-status", Static).render())
        DrillSession(builtin_bank).write_starters(drill.drill)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: drill.id in run.session.drill_verdicts, "the judge's verdict")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: screen.stage == "report", "the report")
        report_text = screen.query_one("#report", Markdown).source
    assert judge.submitted == ["starter_triton.py"]
    assert run.session.drill_verdicts[drill.id][0] is False
    assert "| 1 | Kernel drill | 15:00 | 0:00 | moved on | failed |" in report_text
    assert "**Verdict:** failed (cpu mode); " in report_text and "tail not masked" in report_text
    assert [r.drill_id for r in store.drill_results()] == [drill.drill], "saved like any submission"
    store.close()


async def test_the_palette_starts_a_mock_composed_for_the_user_and_resume_says_when_none_waits(
    builtin_bank, clock, store_path
):
    from gpuprep.tui.app import make_app

    store = Store(store_path)
    app = make_app(
        bank=builtin_bank, store=store, clock=clock, gpu=None, cursor_blink=False, detect_gpu=False
    )
    async with app.run_test(size=SIZE) as pilot:
        app.open_mock(None)
        await pilot.pause()
        assert not isinstance(app.screen, MockScreen)
        assert any("no interrupted mock to resume" in str(n.message) for n in app._notifications)

        app.open_mock(60)
        await until(pilot, lambda: isinstance(app.screen, MockScreen), "the mock screen")
        screen = app.screen
        await until(pilot, lambda: "Warm-up concepts (1/" in clock_line(app), "the warm-up")
        assert 55 <= screen.session.plan.total_minutes <= 60
        await pilot.press("escape")  # pause and leave, from inside the answer box
        await until(pilot, lambda: not isinstance(app.screen, MockScreen), "home")

        app.open_mock(None)
        await until(pilot, lambda: isinstance(app.screen, MockScreen), "the resumed mock")
        await until(pilot, lambda: "Warm-up concepts (1/" in clock_line(app), "its warm-up")
        assert app.screen.run.id == screen.run.id
    store.close()


async def test_what_was_typed_just_before_ctrl_n_is_kept_when_the_keys_arrive_in_one_burst(
    builtin_bank, mock_plan, clock, store_path
):
    from textual import events

    warm_up = mock_plan.sections[0].question_ids[0]
    store = Store(store_path)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    app = make(builtin_bank, store, clock, run)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: isinstance(screen.focused, TextArea), "the answer box")
        # A paste, or a fast typist on a busy machine: every key is queued before any is handled.
        for char in "open loop":
            app.post_message(events.Key("space" if char == " " else char, char))
        app.post_message(events.Key("ctrl+n", None))
        await until(pilot, lambda: screen.section_index == 1, "the estimation to open")
        await pilot.pause(0.3)
        assert run.session.answer(warm_up) == "open loop"
        assert not [n for n in app._notifications if "Not kept" in str(n.message)]
    store.close()


async def test_at_80x24_the_answer_box_scrolls_into_view_once_the_candidate_types(
    builtin_bank, mock_plan, clock, store_path
):
    store = Store(store_path)
    run = MockRun.begin(store, builtin_bank, mock_plan, clock=clock, now=clock)
    app = make(builtin_bank, store, clock, run)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await until(pilot, lambda: isinstance(screen.focused, TextArea), "the answer box")
        await pilot.press("ctrl+n")
        await until(pilot, lambda: isinstance(screen.focused, Input), "the estimate's input")
        body = screen.query_one("#body")
        assert body.scroll_y == 0, "the prompt is read from its top"
        await pilot.press(*"2 ms")
        await pilot.pause(0.2)
        preview = screen.query_one("#section-1 .preview", Static)
        # Typing blind below the fold, the candidate would not see the answer or its reading.
        assert body.region.contains_region(screen.focused.region), screen.focused.region
        assert body.region.contains_region(preview.region), preview.region
    store.close()
