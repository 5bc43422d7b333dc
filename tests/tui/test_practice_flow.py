"""Driving the practice screen the way a user does, with Pilot."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import Static

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.tui.screens.home import HomeScreen
from gpuprep.tui.screens.practice import PracticeScreen

from .conftest import answer_estimate

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
        assert screen.query_one("#answer").display
        assert "3 Good · " in str(screen.query_one("#rate-3").label)
        await pilot.press("space", "down", "space")  # tick the first two strong signals
        await pilot.press("3")
        await pilot.pause()
        # A new card's first Good is a 10-minute learning step: it comes back before the end.
        assert "Why coalescing matters" in screen.query_one("#prompt").source
        assert "learning" in text_of(screen, "#where")
    [attempt] = app.store.attempts()
    assert (attempt.question_id, attempt.rating, attempt.signals_hit, attempt.hints_used) == (
        "fx-coalescing",
        3,
        (0, 1),
        1,
    )
    assert app.store.card("fx-coalescing") is not None


def expected_us(app) -> float:
    return app.screen.session.solution().answer_value


async def test_a_right_estimate_is_graded_correct_and_suggests_good(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        expected = expected_us(app)
        await pilot.press(*f"{expected / 1000:.3f} ms")
        assert text_of(screen, "#preview").startswith("= ")
        await pilot.press("enter")
        await pilot.pause()
        assert text_of(screen, "#verdict").startswith("Correct")
        assert "Worked answer" in screen.query_one("#answer").source
        assert screen.query_one("#rate-3").variant == "primary"
        assert screen.focused is screen.query_one("#rate-3")
        await pilot.press("enter")
        await pilot.pause()
    [attempt] = app.store.attempts()
    assert (attempt.verdict, attempt.rating) == ("correct", 3)
    assert attempt.variant["gpu"] == "h100_sxm"


async def test_a_wrong_estimate_says_by_how_much_and_suggests_again(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await answer_estimate(pilot, f"{expected_us(app) * 10:g} us")
        assert text_of(screen, "#verdict").startswith("Wrong")
        assert "too high" in text_of(screen, "#verdict")
        assert screen.query_one("#rate-1").variant == "primary"
        await pilot.press("1")
        await pilot.pause()
    [attempt] = app.store.attempts()
    assert (attempt.verdict, attempt.rating) == ("wrong", 1)


async def test_an_answer_in_the_wrong_unit_is_explained_and_can_be_fixed(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press(*"3.35 TB/s")
        assert "the question asks for" in text_of(screen, "#preview")
        await pilot.press("enter")
        await pilot.pause()
        assert text_of(screen, "#verdict").startswith("You gave")
        assert not screen.query_one("#ratings").display
        assert not screen.query_one("#answer").display
        await answer_estimate(pilot, f"{expected_us(app):g} us")
        assert text_of(screen, "#verdict").startswith("Correct")
    assert [a.verdict for a in app.store.attempts()] == ["invalid", "correct"]


async def test_an_unreadable_answer_is_explained_once_and_the_explanation_goes_with_it(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press(*")(")
        assert text_of(screen, "#preview").startswith("… ")
        await pilot.press("enter")
        await pilot.pause()
        assert text_of(screen, "#verdict").startswith("Could not read the answer")
        assert text_of(screen, "#preview") == ""
        await pilot.press("backspace", "backspace", "1")
        await pilot.pause()
        assert text_of(screen, "#verdict") == ""
        assert text_of(screen, "#preview").startswith("= ")


async def test_a_rating_survives_a_restart_and_shows_the_next_review_date(build_app, clock):
    first = build_app(practice=PracticeFilter(topic="memory"))
    async with first.run_test(size=SIZE) as pilot:
        await pilot.press("space", "4")
        await pilot.pause()
    due = first.store.card("fx-coalescing").due
    assert due > clock() + timedelta(days=1)

    again = build_app()
    async with again.run_test(size=SIZE) as pilot:
        assert isinstance(again.screen, HomeScreen)
        memory = next(t for t in again.screen.figures.topics if t.topic == "memory")
        assert (memory.seen, memory.due) == (1, 0)
        await pilot.press("f3")
        await pilot.pause()
        await pilot.press("slash", *"coalescing", "enter", "enter")
        await pilot.pause()
        shown = again.screen.query_one("#question-text").source
        assert f"Next review: {due:%Y-%m-%d %H:%M} UTC (in " in shown
        await pilot.press("escape", "f2")
        clock.advance(days=(due - clock()).days + 1)
        again.screen.refresh_progress()
        assert "Due today learn 0 · review 1" in text_of(again.screen, "#summary")


async def test_giving_up_on_an_estimate_shows_the_answer_and_suggests_again(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("escape", "space")
        await pilot.pause()
        assert "Worked answer" in screen.query_one("#answer").source
        assert screen.focused is screen.query_one("#rate-1")
        await pilot.press("enter")
        await pilot.pause()
    [attempt] = app.store.attempts()
    assert (attempt.verdict, attempt.rating) == ("revealed", 1)


async def test_ticks_of_a_concept_question_do_not_carry_into_the_next_question(build_app):
    from textual.widgets import SelectionList

    app = build_app(practice=PracticeFilter(level="junior"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        kinds = [item.question.kind for item in screen.session.items]
        assert set(kinds) == {"concept", "estimation"}
        for kind in kinds:
            if kind == "estimation":
                await answer_estimate(pilot, "1 ms")
            await pilot.press("space") if kind == "concept" else None
            await pilot.pause()
            signals = screen.query_one("#signals", SelectionList)
            if kind == "concept":
                await pilot.press("space", "down", "space")
                assert signals.selected == [0, 1]
            else:
                assert signals.option_count == 0 and signals.selected == []
            await pilot.press("3")
            await pilot.pause()
    hits = {a.question_id: a.signals_hit for a in app.store.attempts()}
    assert hits == {"fx-coalescing": (0, 1), "fx-copy-time": ()}


async def test_clicking_a_rating_button_saves_that_rating_not_the_suggested_one(build_app):
    from gpuprep.sessions.srs import Rating

    for button in (1, 2, 4):
        app = build_app(practice=PracticeFilter(question="fx-copy-time"))
        async with app.run_test(size=SIZE) as pilot:
            await answer_estimate(pilot, f"{expected_us(app)} us")  # correct: suggests Good
            assert app.screen.session.suggested_rating == Rating.Good
            await pilot.click(f"#rate-{button}")
            await pilot.pause()
        attempt = app.store.attempts("fx-copy-time")[-1]
        assert attempt.rating == button
