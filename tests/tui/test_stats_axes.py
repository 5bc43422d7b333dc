"""The Stats screen's plots (issue 17): whole numbers on the count axis, today named on the day
axis; and the tick rules at their edges."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from textual_plotext import PlotextPlot

from gpuprep.store.records import Attempt
from gpuprep.tui.screens.stats import count_ticks, day_ticks

SIZE = (120, 36)


async def test_the_attempts_chart_has_whole_number_ticks_and_names_today(build_app, clock):
    app = build_app()
    for verdict in ("wrong", "correct"):
        app.store.record_attempt(Attempt("fx-copy-time", "estimation", verdict, clock(), 30.0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        plot = app.screen.query_one("#per-day", PlotextPlot)
        drawn = plot.render().plain
    assert "today" in drawn
    assert not re.search(r"\d\.\d", drawn), f"a fractional tick on a count axis:\n{drawn}"
    assert re.search(r"^\s*2\s*[┤│]", drawn, re.MULTILINE), drawn


@pytest.mark.parametrize(
    ("most", "top", "ticks"),
    [
        (0, 1, [0, 1]),
        (2, 2, [0, 1, 2]),
        (4, 4, [0, 1, 2, 3, 4]),
        (9, 9, [0, 3, 6, 9]),
        (10, 12, [0, 3, 6, 9, 12]),
    ],
)
def test_count_ticks_are_whole_numbers_up_to_a_top_at_or_above_the_most(most, top, ticks):
    assert count_ticks(most) == (top, ticks)


def test_day_ticks_end_on_today_and_step_back_from_it():
    days = [date(2026, 11, 17) + timedelta(days=i) for i in range(14)]
    positions, labels = day_ticks(days)
    assert positions == [2.0, 5.0, 8.0, 11.0, 14.0]
    assert labels == ["11-18", "11-21", "11-24", "11-27", "today"]
