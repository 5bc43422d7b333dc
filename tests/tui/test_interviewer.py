"""The interviewer's screens driven with Pilot: rubrics found and read at 80 columns, a set
assembled and saved, a candidate scored live, every change in the store as it is made."""

from __future__ import annotations

from functools import partial

import pytest
from textual.widgets import Markdown, OptionList, Static, TextArea

from gpuprep.store.database import Store
from gpuprep.store.scorecards import ScorecardStore
from gpuprep.tui.screens.interviewer import InterviewerScreen
from gpuprep.tui.screens.interviewer_scoring import LevelList, ScorecardScreen

NARROW = (80, 24)


@pytest.fixture
def open_app(build_app, builtin_bank):
    """The app over the built-in bank (its rubrics and templates); each call reopens one store."""
    return partial(build_app, bank=builtin_bank)


def saved_scorecards(store_path):
    store = Store(store_path)
    try:
        return ScorecardStore(store).scorecards()
    finally:
        store.close()


async def test_rubrics_show_ids_and_whole_titles_and_the_templates_levels_at_80_columns(
    open_app, builtin_bank
):
    app = open_app()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f6")
        await pilot.pause()
        assert isinstance(app.screen, InterviewerScreen)
        await pilot.press("slash", *"kind:design", "enter")
        await pilot.pause()
        listing = app.screen.query_one("#rubrics", OptionList)
        design = [q for q in builtin_bank.questions.values() if q.kind == "design"]
        assert listing.option_count == len(design)
        # What is drawn, not only what was given: every word of the visible options is on screen
        # (a wrap measured at the wrong width drops an option's last line under the next one).
        drawn = " ".join(
            "".join(segment.text for segment in listing.render_line(y))
            for y in range(listing.size.height)
        ).split()
        shown = sorted((q for q in design if q.id in drawn), key=lambda q: drawn.index(q.id))
        assert shown
        for question in shown[:-1]:  # the last one may run past the bottom
            words = f"{question.id} {question.title} {question.kind} · {question.level} · {question.minutes} min".split()
            start = drawn.index(question.id)
            assert drawn[start : start + len(words)] == words
        longest = max(design, key=lambda q: len(q.title))
        index = next(
            i
            for i in range(listing.option_count)
            if listing.get_option_at_index(i).id == longest.id
        )
        prompt = listing.get_option_at_index(index).prompt
        assert longest.id in prompt.plain and longest.title in prompt.plain
        listing.highlighted = index
        await pilot.pause()
        detail = str(app.screen.query_one("#rubric-detail", Static).render())
        template = builtin_bank.rubrics["design"]
        for dimension in template.dimensions:
            assert dimension.name in detail
            assert (
                dimension.levels[4][:30] in detail.replace("\n", " ")
                or dimension.levels[4].split()[0] in detail
            )


async def test_a_scorecard_filled_live_is_in_the_store_change_by_change_and_exports_markdown(
    open_app, builtin_bank, store_path, gpuprep_home
):
    app = open_app()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f6", "slash", *"kind:estimation ridge", "enter")
        await pilot.pause()
        listing = app.screen.query_one("#rubrics", OptionList)
        first = listing.get_option_at_index(0).id
        second = listing.get_option_at_index(1).id
        await pilot.press("a", "down", "a")
        assert app.screen.set_ids == [first, second]
        await pilot.press("w", *"ridge pair", "enter")
        await pilot.pause()
        await pilot.press("c", *"Ada Lovelace", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ScorecardScreen)
        (card,) = saved_scorecards(store_path)
        assert (card.candidate, card.set_name, card.question_ids) == (
            "Ada Lovelace",
            "ridge pair",
            (first, second),
        )

        assert app.focused is app.screen.query_one("#sc-signals"), app.focused
        # The question to read out, and the model answer, are one key away (collapsed).
        read = app.screen.query_one("#sc-question-text", Markdown).source
        assert read.startswith(f"# {builtin_bank.questions[first].title}")
        await pilot.press("space")  # the first strong signal, heard
        await pilot.pause()
        assert saved_scorecards(store_path)[0].scores["questions"][first]["signals"] == [0]

        await pilot.press("tab", "down", "space")  # the second red flag, seen
        levels = list(app.screen.query(LevelList))
        levels[0].focus()
        await pilot.press("3")
        await pilot.pause()
        scores = saved_scorecards(store_path)[0].scores["questions"][first]
        assert scores["red_flags"] == [1]
        assert scores["levels"] == {levels[0].dimension.name: 3}
        assert "level 3" in str(levels[0].border_subtitle)

        app.screen.query_one("#sc-notes", TextArea).focus()
        await pilot.press(*"clear on bytes")
        await pilot.pause()
        assert (
            saved_scorecards(store_path)[0].scores["questions"][first]["notes"] == "clear on bytes"
        )
        recommendation = str(app.screen.query_one("#sc-recommendation", Static).render())
        assert "provisional" in recommendation and "1 red flag" in recommendation

        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.screen.question_id == second
        assert app.screen.query_one("#sc-notes", TextArea).text == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
    exported = list((gpuprep_home / "exports").glob("scorecard-*-ada-lovelace.md"))
    assert len(exported) == 1
    text = exported[0].read_text()
    assert "# Scorecard 1: Ada Lovelace" in text and "clear on bytes" in text
    assert f"- [x] {builtin_bank.questions[first].rubric.strong_signals[0]}" in text


async def test_a_saved_scorecard_reopens_with_its_ticks_and_levels(
    open_app, builtin_bank, store_path
):
    from gpuprep.sessions.scorecard import ScorecardSession

    (question_id,) = [q.id for q in builtin_bank.questions.values() if q.kind == "concept"][:1]
    store = Store(store_path)
    session = ScorecardSession.start(builtin_bank, ScorecardStore(store), "Grace", (question_id,))
    session.toggle_signal(question_id, 1)
    session.score(question_id, session.dimensions(question_id)[0], 2)
    store.close()
    app = open_app()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f6", "r", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ScorecardScreen)
        signals = app.screen.query_one("#sc-signals")
        assert signals.selected == [1]
        assert app.screen.query(LevelList).first().level == 2


async def test_notes_typed_just_before_ctrl_n_stay_with_their_question_when_keys_come_in_a_burst(
    open_app, store_path
):
    from textual import events

    app = open_app()
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f6", "slash", *"kind:estimation ridge", "enter")
        await pilot.pause()
        listing = app.screen.query_one("#rubrics", OptionList)
        first = listing.get_option_at_index(0).id
        second = listing.get_option_at_index(1).id
        await pilot.press("a", "down", "a", "w", *"pair", "enter")
        await pilot.pause()
        await pilot.press("c", *"Ada", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ScorecardScreen)
        app.screen.query_one("#sc-notes", TextArea).focus()
        await pilot.pause()
        # A paste, or a fast typist on a busy machine: every key is queued before any is handled.
        for char in "roofline":
            app.post_message(events.Key(char, char))
        app.post_message(events.Key("ctrl+n", None))
        await pilot.pause(0.3)
        assert app.screen.question_id == second
        assert app.screen.query_one("#sc-notes", TextArea).text == ""
    questions = saved_scorecards(store_path)[0].scores["questions"]
    assert questions[first]["notes"] == "roofline"
    assert questions.get(second, {}).get("notes", "") == ""
