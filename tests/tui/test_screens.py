"""Home, browse, settings, help and the command palette, driven with Pilot."""

from __future__ import annotations

import yaml
from textual.widgets import DataTable, Select, Static

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.store.database import Store
from gpuprep.tui.screens.help import HelpScreen
from gpuprep.tui.screens.practice import PracticeScreen
from gpuprep.tui.screens.question import QuestionScreen

SIZE = (120, 36)


async def test_home_starts_the_suggested_session_fundamentals_first(build_app):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        # The fixture plan reaches roofline before memory: a new user starts there.
        suggestion = str(app.screen.query_one("#suggestion", Static).render())
        assert "Suggested next: roofline (fundamentals first" in suggestion
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen)
        assert app.screen.session.filter == PracticeFilter(topic="roofline")


async def test_enter_on_a_topic_row_practises_that_topic(build_app):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen.session.filter == PracticeFilter(topic="roofline")


async def test_reviewing_with_nothing_due_says_so_and_stays_home(build_app):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        assert not isinstance(app.screen, PracticeScreen)
        assert any("Nothing is due for review" in str(n.message) for n in app._notifications)


async def test_browse_filters_by_kind_and_opens_a_question_with_its_answer_behind_a_key(build_app):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3", "slash", *"kind:estimation", "enter")
        table = app.screen.query_one("#questions", DataTable)
        assert table.row_count == 1
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        text = app.screen.query_one("#question-text").source
        assert "reads 1 GB" in text and "Worked answer" not in text
        await pilot.press("a")
        assert "Worked answer" in app.screen.query_one("#question-text").source
        assert "Counts the read and the write." in app.screen.query_one("#question-text").source


async def test_settings_save_the_gpu_to_the_settings_file(build_app, gpuprep_home):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        app.screen.query_one("#gpu", Select).value = "h100_sxm"
        app.screen.query_one("#save").press()
        await pilot.pause()
        assert app.gpu == "h100_sxm"
    saved = yaml.safe_load((gpuprep_home / "settings.yaml").read_text())
    assert saved["gpu"] == "h100_sxm"


async def test_help_lists_the_keys_of_the_screen_underneath(build_app):
    app = build_app(practice=PracticeFilter(topic="memory"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("Markdown").source
        assert "Keys: Practice" in text and "| h | Hint |" in text
        await pilot.press("escape")
        assert isinstance(app.screen, PracticeScreen)


async def test_the_command_palette_offers_every_screen_and_each_topic(build_app):
    app = build_app()
    async with app.run_test(size=SIZE):
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for wanted in (
            "Home",
            "Browse",
            "Stats",
            "Settings",
            "Review due cards",
            "Practise Memory hierarchy",
            "Help",
        ):
            assert wanted in titles


async def test_no_color_is_respected(build_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = build_app()
    async with app.run_test(size=SIZE):
        assert app.no_color


async def test_a_corrupt_database_is_reported_in_the_app(fixture_bank, clock, gpuprep_home):
    from gpuprep.tui.app import make_app

    gpuprep_home.mkdir(parents=True)
    (gpuprep_home / "progress.db").write_text("not a database " * 100)
    store = Store.open()
    app = make_app(
        bank=fixture_bank, store=store, clock=clock, cursor_blink=False, detect_gpu=False
    )
    async with app.run_test(size=SIZE):
        [notice] = [n for n in app._notifications if "moved to" in n.message]
        assert "nothing was deleted" in notice.message
    store.close()


async def test_ctrl_q_quits_from_a_practice_session(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"12", "ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


async def test_stats_show_accuracy_per_topic_after_practice(build_app):
    app = build_app(practice=PracticeFilter(topic="memory"))
    async with app.run_test(size=SIZE) as pilot:
        # Escape twice ends the session on its summary; a third goes back.
        await pilot.press("space", "1", "escape", "escape", "escape", "f4")
        await pilot.pause()
        table = app.screen.query_one("#topics-table", DataTable)
        assert table.get_row("memory")[:2] == ["1", "0%"]
        await pilot.press("f2")
        await pilot.pause()
        summary = str(app.screen.query_one("#summary", Static).render())
        assert "Due today learn 1 · review 0" in summary and "Streak 1 day" in summary


async def test_a_started_plan_shows_today_on_home_and_p_practises_that_day(build_app, clock):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        app.start_plan("fx-two-days")
        await pilot.pause()
        plans = str(app.screen.query_one("#plans", Static).render())
        assert "Today: Day 1 of 2, Two days of fixtures: Bandwidth: 0/1 done" in plans
        assert "○ Roofline and arithmetic intensity: 2 questions 0/2" in plans
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen)
        assert {item.question.id for item in app.screen.session.items} == {
            "fx-copy-time",
            "fx-ridge-meaning",
        }
        assert (
            app.screen.session.filter.describe()
            == "Day 1 of 2, Two days of fixtures: Bandwidth (1 item left)"
        )
    assert app.store.plan_runs() == {"fx-two-days": clock()}


async def test_a_on_a_long_question_at_80x24_brings_the_worked_answer_into_view(
    build_app, builtin_bank
):
    from textual.widgets._markdown import MarkdownH2

    from gpuprep.sessions.question_view import QuestionView

    bank = builtin_bank
    app = build_app(bank=bank)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(
            QuestionScreen(QuestionView.build(bank.questions["roofline-gemm-time"], bank))
        )
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause(0.2)
        body = app.screen.query_one("#question-body")
        heading = next(
            h for h in app.screen.query(MarkdownH2) if h._content.plain == "Worked answer"
        )
        # The answer starts below the fold: were it left there, `a` would seem to do nothing.
        assert body.region.contains_region(heading.region), (heading.region, body.region)


async def test_every_settings_label_is_drawn_whole_at_80x24(build_app):
    from textual.widgets import Label

    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        form = app.screen.query_one("#settings-form")
        labels = list(app.screen.query(Label))
        assert len(labels) >= 5
        for label in labels:
            # A label wider than the form is cut at its right edge, not wrapped.
            assert label.outer_size.width <= form.scrollable_content_region.width, label.render()
            drawn = " ".join(
                "".join(segment.text for segment in label.render_line(y))
                for y in range(label.size.height)
            ).split()
            assert drawn == str(label.render()).split(), drawn
