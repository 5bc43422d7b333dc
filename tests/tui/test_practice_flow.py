"""Driving the practice screen the way a user does, with Pilot."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import Input, Static

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.tui.screens.home import HomeScreen
from gpuprep.tui.screens.practice import PracticeScreen

SIZE = (120, 36)


def text_of(screen, selector) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_a_concept_question_is_revealed_rated_and_stored(build_app, store_path):
    app = build_app(practice=PracticeFilter(topic="memory"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, PracticeScreen)
        assert "Why coalescing matters" in screen.query_one("#prompt").source
        await pilot.press("h")
        assert "Hint 1: Think in 32-byte sectors." in text_of(screen, "#hints")
        await pilot.press("space")
        assert not screen.query_one("#answer").has_class("hidden")
        assert "3 Good · " in str(screen.query_one("#rate-3").label)
        await pilot.press("space", "down", "space")  # tick the first two strong signals
        await pilot.press("3")
        await pilot.pause()
        assert "Session done" in screen.query_one("#prompt").source
    [attempt] = app.store.attempts()
    assert (attempt.question_id, attempt.rating, attempt.signals_hit, attempt.hints_used) == ("fx-coalescing", 3, (0, 1), 1)
    assert app.store.card("fx-coalescing") is not None
