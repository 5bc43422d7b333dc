"""Stats at 80x24 after a closed-book estimate read from the hardware table: that answer is not an
attempt (counted apart from accuracy), so the attempts chart leaves it out, and says so under the
chart rather than showing a practised day as empty."""

from __future__ import annotations

from textual.widgets import Static

from gpuprep.store.records import Attempt

NARROW = (80, 24)


async def test_an_answer_read_from_the_table_is_said_to_be_left_out_of_the_chart(build_app, clock):
    app = build_app()
    app.store.record_attempt(
        Attempt("fx-copy-time", "estimation", "correct", clock(), 30.0, from_table=True)
    )
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        note = app.screen.query_one("#not-charted", Static)
        said = str(note.render())
        shown_whole = note.display and note.region.width <= NARROW[0] and note.region.height == 1
    assert said == "Not charted: 1 closed-book estimate read from the hardware table."
    assert shown_whole


async def test_with_every_answer_charted_no_note_takes_a_line_under_the_chart(build_app, clock):
    app = build_app()
    app.store.record_attempt(Attempt("fx-copy-time", "estimation", "correct", clock(), 30.0))
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        shown = app.screen.query_one("#not-charted", Static).display
    assert not shown
