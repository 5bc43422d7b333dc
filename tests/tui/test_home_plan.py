"""A prep plan chosen from Home: today's items appear there, are ticked as they are practised,
and the suggested session follows what is left of the day."""

from __future__ import annotations

from textual.widgets import Static

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.tui.screens.home import HomeScreen
from gpuprep.tui.screens.interviewer_dialogs import ChoicePrompt
from gpuprep.tui.screens.practice import PracticeScreen

SIZE = (100, 30)


def text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_a_plan_chosen_from_home_is_ticked_as_you_practise_and_drives_the_suggestion(
    build_app, clock
):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        assert "No prep plan running: press c" in text(app, "#plans")
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ChoicePrompt)
        await pilot.press("enter")  # the only plan of the fixture bank
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.store.plan_runs() == {"fx-two-days": clock()}
        assert "○ Roofline and arithmetic intensity: 2 questions 0/2" in text(app, "#plans")
        assert "Suggested next: Day 1 of 2" in text(app, "#suggestion")

        app.start_practice(PracticeFilter(question="fx-ridge-meaning"))
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen)
        await pilot.press("space", "3")  # reveal, rate Good
        await pilot.pause()
        # Good left it at a learning step, so the session goes on: Escape twice ends it on its
        # summary, a third goes home.
        await pilot.press("escape", "escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "○ Roofline and arithmetic intensity: 2 questions 1/2" in text(app, "#plans")

        await pilot.press("s")  # the suggestion: what is left of today
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen)
        assert [item.question.id for item in app.screen.session.items] == ["fx-copy-time"]


async def test_choosing_stop_ends_the_running_plan(build_app, clock):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        app.start_plan("fx-two-days")
        await pilot.pause()
        await pilot.press("c", "down", "enter")  # the last choice: stop the plan
        await pilot.pause()
        assert app.store.plan_runs() == {}
        assert "No prep plan running" in text(app, "#plans")
