"""Snapshots of the main screens over the fixture bank (update with `pytest --snapshot-update`).

Frozen: the clock (FrozenClock), the variant seed, the scheduler's fuzz, the cursor blink.
"""

from __future__ import annotations

from fsrs import Rating

from gpuprep.sessions.practice import PracticeFilter, PracticeSession

SIZE = (120, 36)


def test_home_screen_of_a_new_user(build_app, snap_compare):
    assert snap_compare(build_app(), terminal_size=SIZE)


def test_home_screen_with_progress_at_80x24(build_app, fixture_bank, snap_compare, clock):
    app = build_app()
    session = PracticeSession(
        fixture_bank, app.store, PracticeFilter(topic="memory"), clock=clock, seed=1
    )
    session.rate(Rating.Again)
    assert snap_compare(app, terminal_size=(80, 24))


def test_estimation_question_with_the_live_preview(build_app, snap_compare):
    assert snap_compare(
        build_app(practice=PracticeFilter(kind="estimation")),
        press=list("2 GB / 3.35 TB/s"),
        terminal_size=SIZE,
    )


def test_estimation_question_graded_wrong_at_80x24(build_app, snap_compare):
    assert snap_compare(
        build_app(practice=PracticeFilter(kind="estimation")),
        press=[*"9 ms", "enter"],
        terminal_size=(80, 24),
    )


def test_concept_question_revealed_with_ratings(build_app, snap_compare):
    assert snap_compare(
        build_app(practice=PracticeFilter(topic="memory")), press=["h", "space"], terminal_size=SIZE
    )


def test_browse_screen(build_app, snap_compare):
    assert snap_compare(build_app(), press=["f3"], terminal_size=SIZE)


async def open_stats(pilot) -> None:
    await pilot.press("f4")
    # The plots draw on a later refresh; wait for it so that the snapshot is always the drawn one.
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def test_stats_screen(build_app, snap_compare):
    assert snap_compare(build_app(), run_before=open_stats, terminal_size=SIZE)
