"""Reviews driven with the keys (issue 17): Enter's second press rates, the footer says what each
key does now and fits 80 columns, the help names each rating, Escape twice ends on the summary,
u undoes, m reviews the missed ones, and Home's counts open a session of that size."""

from __future__ import annotations

from datetime import timedelta

import yaml
from fsrs import Card, Rating, ReviewLog, State
from textual.widgets import Input, Markdown, Static
from textual.widgets._footer import FooterKey, FooterLabel

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.store.database import Store
from gpuprep.tui.screens.help import HelpScreen
from gpuprep.tui.screens.home import HomeScreen
from gpuprep.tui.screens.practice import PracticeScreen

from .conftest import answer_estimate

SIZE = (120, 36)
NARROW = (80, 24)


def footer(app) -> list[str]:
    """The footer as read: 'esc End', 'enter Good', '1234 Rate' (a group's keys run together)."""
    shown = []
    keys: list[str] = []
    for widget in app.screen.query("Footer *"):
        if isinstance(widget, FooterKey):
            if widget.description:
                shown.append(f"{widget.key_display} {widget.description}")
            else:
                keys.append(widget.key_display)
        elif isinstance(widget, FooterLabel):
            shown.append(f"{''.join(keys)} {widget.render()}")
            keys = []
    return shown


def footer_width(app) -> int:
    """Where the footer's last key ends, counting the palette key docked on the right: more
    than the screen's width means a key is cut."""
    parts = list(app.screen.query("Footer > *"))
    palette = [w for w in parts if w.has_class("-command-palette")]
    keys = [w for w in parts if w not in palette]
    end = max(w.region.right + w.styles.margin.right for w in keys)
    return end + sum(w.outer_size.width for w in palette)


def notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_enter_grades_the_estimate_then_rates_it_as_the_footer_says(build_app):
    app = build_app(practice=PracticeFilter(kind="estimation"))
    async with app.run_test(size=SIZE) as pilot:
        assert "esc Keys" in footer(app) and not any(k.startswith("enter") for k in footer(app))
        expected = app.screen.session.solution().answer_value
        await answer_estimate(pilot, f"{expected * 20:g} us")  # wrong: Again is suggested
        assert "enter Again" in footer(app)
        await pilot.press("tab")  # the next button, Hard, is the one Enter presses
        await pilot.pause()
        assert "enter Hard" in footer(app)
        await pilot.press("enter")
        await pilot.pause()
    [attempt] = app.store.attempts()
    assert attempt.rating == Rating.Hard


async def test_enter_ticks_in_the_signal_list_and_rates_from_the_ratings(build_app):
    app = build_app(practice=PracticeFilter(topic="memory"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        await pilot.pause()
        assert "1234 Rate" in footer(app)
        assert not any(k.startswith("enter") for k in footer(app))  # the list takes Enter
        await pilot.press("enter")  # ticks the first signal
        await pilot.press("shift+tab")  # to the ratings: no suggestion, so Good
        await pilot.pause()
        assert "enter Good" in footer(app)
        await pilot.press("enter")
        await pilot.pause()
    [attempt] = app.store.attempts()
    assert (attempt.rating, attempt.signals_hit) == (Rating.Good, (0,))


async def test_the_footer_shows_what_works_now_and_fits_80_columns(build_app):
    app = build_app(practice=PracticeFilter(topic="roofline"))
    async with app.run_test(size=NARROW) as pilot:
        states = {"estimate typed": footer(app)}
        widths = [footer_width(app)]
        await pilot.press("escape")  # leave the answer box
        await pilot.pause()
        states["asking"] = footer(app)
        widths.append(footer_width(app))
        await pilot.press("space")
        await pilot.pause()
        states["revealed"] = footer(app)
        widths.append(footer_width(app))
        await pilot.press("1", "space")  # rate Again; reveal the next one
        await pilot.pause()
        states["revealed, undo possible"] = footer(app)
        widths.append(footer_width(app))
        await pilot.press("4")  # the Again is back, in its answer box
        await pilot.pause()
        await pilot.press("escape", "escape", "escape")
        await pilot.pause()
        states["summary"] = footer(app)
        widths.append(footer_width(app))
    assert states["estimate typed"][0] == "esc Keys"
    assert states["asking"][:4] == ["esc End", "h Hint", "space Reveal", "n Skip"]
    assert "1234 Rate" not in states["asking"] and "u Undo" not in states["asking"]
    assert states["revealed"][:4] == ["enter Again", "esc End", "1234 Rate", "n Skip"]
    assert "u Undo" in states["revealed, undo possible"]
    assert states["summary"][:3] == ["esc Back", "u Undo", "m Review missed"]
    assert max(widths) <= 80, (widths, states)


async def test_help_names_each_rating_and_what_enter_and_escape_do(build_app):
    app = build_app(practice=PracticeFilter(topic="memory"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = app.screen.query_one(Markdown).source
    for row in ("| 1 | Again |", "| 2 | Hard |", "| 3 | Good |", "| 4 | Easy |", "| u | Undo |"):
        assert row in keys
    assert "| enter | Rate with the highlighted button" in keys
    assert "| escape | Leave the answer box" in keys and "twice: end the session" in keys
    assert keys.count("| enter |") == 1 and keys.count("| escape |") == 1


async def test_escape_once_warns_and_twice_ends_on_the_summary(build_app):
    app = build_app(practice=PracticeFilter(topic="roofline"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("escape", "space", "3")  # leave the input, reveal, rate Good
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert "Esc again to end the session." in notices(app)
        assert screen.stage == "asking" and app.screen is screen
        await pilot.press("h", "escape")  # another key in between: Escape warns again
        await pilot.pause()
        assert screen.stage == "asking"
        await pilot.press("escape")
        await pilot.pause()
        assert screen.stage == "done"
        assert "## Session ended" in screen.query_one("#prompt", Markdown).source
        assert "Left for another session: 2." in screen.query_one("#prompt", Markdown).source
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_escape_twice_with_nothing_rated_goes_straight_back(build_app):
    app = build_app(practice=PracticeFilter(topic="memory"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_u_undoes_a_rating_and_the_question_waits_for_another(build_app):
    app = build_app(practice=PracticeFilter(topic="memory"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("space", "down", "space", "1")  # tick the second signal, rate Again
        await pilot.pause()
        assert app.store.card("fx-coalescing") is not None
        await pilot.press("u")
        await pilot.pause()
        assert screen.stage == "revealed"
        assert list(screen.query_one("#signals").selected) == [1]
        assert app.store.card("fx-coalescing") is None and app.store.review_logs() == []
        [attempt] = app.store.attempts()
        assert attempt.rating is None
        await pilot.press("4")
        await pilot.pause()
        assert screen.stage == "done"
    [attempt] = app.store.attempts()
    assert (attempt.rating, attempt.signals_hit) == (Rating.Easy, (1,))


async def test_the_summary_lists_the_missed_and_m_reviews_them_now(build_app):
    app = build_app()
    app_practice = PracticeFilter()
    async with app.run_test(size=SIZE) as pilot:
        app.start_practice(app_practice)
        await pilot.pause()
        screen = app.screen
        order = [item.question for item in screen.session.items]
        for _ in order:
            await pilot.press("escape", "space")  # leave an estimate's input (if any), reveal
            await pilot.press("1" if not screen.session.rated else "4")
            await pilot.pause()
        while screen.stage != "done":  # the one rated Again, back for its learning step
            await pilot.press("escape", "space", "4")
            await pilot.pause()
        summary = screen.query_one("#prompt", Markdown).source
        assert "**Right the first time:** 2 of 3 (67%)" in summary
        assert f"- {order[0].title} (`{order[0].id}`)" in summary
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen) and app.screen is not screen
        assert [item.question.id for item in app.screen.session.items] == [order[0].id]


async def test_home_counts_learn_and_review_and_d_opens_a_session_of_that_size(
    build_app, store_path, clock
):
    now = clock()
    store = Store(store_path)
    review = Card(
        card_id=1,
        state=State.Review,
        stability=4.0,
        difficulty=5.0,
        due=now + timedelta(hours=7),  # later today
        last_review=now - timedelta(days=4),
    )
    learning = Card(card_id=2, state=State.Relearning, step=0, due=now + timedelta(minutes=8))
    for question_id, card in (("fx-coalescing", review), ("fx-ridge-meaning", learning)):
        log = ReviewLog(card.card_id, Rating.Good, now - timedelta(days=4), None)
        store.save_review(question_id, card, log)
    store.close()
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        summary = str(app.screen.query_one("#summary", Static).render())
        assert "Due today learn 1 · review 1   New 1" in summary
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, PracticeScreen)
        assert app.screen.session.position == (1, 2)


async def test_settings_save_the_daily_cap_and_retention_and_refuse_a_bad_one(
    build_app, gpuprep_home
):
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#desired-retention", Input).value = "1.5"
        screen.query_one("#save").press()
        await pilot.pause()
        said = str(screen.query_one("#saved", Static).render())
        assert said == "Not saved: Desired retention: '1.5' is not a number from 0.70 to 0.99."
        assert not (gpuprep_home / "settings.yaml").exists()
        screen.query_one("#desired-retention", Input).value = "0.85"
        screen.query_one("#new-per-day", Input).value = "1"
        screen.query_one("#save").press()
        await pilot.pause()
        saved = yaml.safe_load((gpuprep_home / "settings.yaml").read_text())
        assert (saved["new_per_day"], saved["desired_retention"]) == (1, 0.85)
        app.start_practice(PracticeFilter())
        await pilot.pause()
        session = app.screen.session
        assert len(session.items) == 1 and session.new_held_back == 2
        assert session.scheduler.desired_retention == 0.85


async def test_homes_footer_fits_80_columns_with_a_plan_running(build_app):
    app = build_app()
    async with app.run_test(size=NARROW) as pilot:
        app.start_plan("fx-two-days")
        await pilot.pause()
        assert footer(app)[:5] == ["s Start", "d Review", "t Topic", "p Plan", "c Plans"]
        assert footer_width(app) <= 80


async def test_a_session_the_cap_leaves_empty_says_why_and_where_to_change_it(
    build_app, gpuprep_home
):
    gpuprep_home.mkdir(parents=True, exist_ok=True)
    (gpuprep_home / "settings.yaml").write_text("new_per_day: 0\n")
    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        assert "New 0" in str(app.screen.query_one("#summary", Static).render())
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    assert (
        "Nothing in roofline is due, and today's cap of new questions (0) is reached: 2 new ones"
        " wait for tomorrow. F5 (Settings) changes the cap." in notices(app)
    )
