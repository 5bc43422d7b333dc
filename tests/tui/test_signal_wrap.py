"""Strong signals are read in full to score oneself: at 80 columns a long one wraps beside its
tick box instead of being cut with an ellipsis, and the keys still tick the signal one reads."""

from __future__ import annotations

import shutil

import pytest
import yaml
from textual.containers import VerticalScroll
from textual.widgets import SelectionList

from gpuprep.bank.loader import load_bank
from gpuprep.sessions.practice import PracticeFilter

from .conftest import FIXTURE_BANK

SIZE = (80, 24)
TICK_BOX = "▐X▌"

# Taken from the real bank, where most strong signals run past one line at 80 columns.
LONG_SIGNALS = [
    "Reads Avg. Active / Not Predicated Off Threads Per Warp (about 16 of 32) as the evidence, "
    "and explains why Branch Efficiency stays near 99% (one divergent branch among ~131 uniform "
    "ones per warp).",
    "Rewrites to a warp per row with coalesced (ideally 16-byte) loads and a shuffle reduction.",
    "Counts 4 sectors versus 32.",
]
MANY_LONG_SIGNALS = [
    "Explains what makes look-back safe (tile ids from an atomic ticket, so predecessors are "
    "already running) and that relying on blockIdx dispatch order is not guaranteed.",
    "Names SOL metrics (sm__throughput, dram__throughput, gpu__time_duration) to classify the "
    "bound, and knows the Memory headline is the busiest memory unit, not DRAM.",
    "Explains triton_mm's huge min-max spread as benchmark runs of candidate configs (the chosen "
    "kernel runs under another name, with a tight range), not instability.",
    "Rewrites to a warp per row with coalesced (ideally 16-byte) loads and a shuffle reduction, "
    "and predicts sectors per request and DRAM throughput after the fix.",
]


def question(question_id: str, signals: list[str]) -> dict:
    return {
        "id": question_id,
        "title": "What a divergent warp costs",
        "kind": "concept",
        "level": "senior",
        "minutes": 5,
        "tags": ["divergence"],
        "prompt": "Even and odd lanes take different branches. What does that cost, and how do you see it?",
        "answer": "Half the lanes are predicated off on each side of the branch.",
        "rubric": {"strong_signals": signals, "red_flags": ["Reads Branch Efficiency alone."]},
    }


@pytest.fixture(scope="module")
def fixture_bank(tmp_path_factory):
    """The TUI fixture bank plus a topic whose questions have long strong signals."""
    root = tmp_path_factory.mktemp("bank") / "bank"
    shutil.copytree(FIXTURE_BANK, root)
    topic = {
        "topic": {
            "id": "warps",
            "title": "Warps and divergence",
            "summary": "What a warp does when its lanes disagree.",
        },
        "questions": [
            question("fx-long-signals", LONG_SIGNALS),
            question("fx-many-long-signals", MANY_LONG_SIGNALS),
        ],
    }
    (root / "questions" / "warps.yaml").write_text(yaml.safe_dump(topic, sort_keys=False))
    bank, problems = load_bank([root], builtin=False)
    assert problems == [], problems
    return bank


def screen_lines(app) -> list[str]:
    """The text of every row of the terminal, as the user sees it."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def shown_signals(app) -> list[str]:
    """Each signal as it reads on screen: the line beside a tick box and the lines under it
    (the tail of a signal scrolled off the top of the list is left out)."""
    signals = app.screen.query_one("#signals", SelectionList)
    box = signals.scrollable_content_region  # without the list's own scroll bar
    signals_read: list[list[str]] = []
    for row in screen_lines(app)[box.y : box.bottom]:
        text = row[box.x : box.right]
        if text.startswith(TICK_BOX):
            signals_read.append([])
        if signals_read:
            signals_read[-1].extend(text.removeprefix(TICK_BOX).split())
    return [" ".join(words) for words in signals_read]


async def reveal_and_scroll_to_the_signals(pilot) -> None:
    await pilot.press("space")
    await pilot.pause()
    body = pilot.app.screen.query_one("#body", VerticalScroll)
    while body.scroll_y < body.max_scroll_y:
        await pilot.press("pagedown")
        await pilot.pause()


async def test_a_long_strong_signal_wraps_in_full_beside_its_tick_box_at_80_columns(build_app):
    app = build_app(practice=PracticeFilter(question="fx-long-signals"))
    async with app.run_test(size=SIZE) as pilot:
        await reveal_and_scroll_to_the_signals(pilot)
        assert shown_signals(app) == LONG_SIGNALS
        assert not any("…" in line for line in screen_lines(app))


async def test_keys_tick_the_wrapped_signal_under_the_highlight_and_the_rating_keeps_it(
    build_app,
):
    app = build_app(practice=PracticeFilter(question="fx-long-signals"))
    async with app.run_test(size=SIZE) as pilot:
        await reveal_and_scroll_to_the_signals(pilot)
        signals = app.screen.query_one("#signals", SelectionList)
        assert app.focused is signals
        # The first signal takes three lines; one press of down still moves to the next signal.
        await pilot.press("down", "space", "down", "enter")
        await pilot.pause()
        assert signals.selected == [1, 2]
        await pilot.press("space")
        await pilot.pause()
        assert signals.selected == [1]
        await pilot.press("3")
        await pilot.pause()
    [attempt] = app.store.attempts()
    assert attempt.signals_hit == (1,)


async def test_in_a_list_taller_than_its_box_the_highlighted_signal_is_shown_whole(build_app):
    app = build_app(practice=PracticeFilter(question="fx-many-long-signals"))
    async with app.run_test(size=SIZE) as pilot:
        await reveal_and_scroll_to_the_signals(pilot)
        signals = app.screen.query_one("#signals", SelectionList)
        assert signals.max_scroll_y > 0  # the list scrolls inside its box
        for index, signal in enumerate(MANY_LONG_SIGNALS):
            if index:
                await pilot.press("down")
                await pilot.pause()
            assert signals.highlighted == index
            assert signal in shown_signals(app)


async def test_a_click_beside_the_second_line_of_a_signal_ticks_that_signal(build_app):
    app = build_app(practice=PracticeFilter(question="fx-long-signals"))
    async with app.run_test(size=SIZE) as pilot:
        await reveal_and_scroll_to_the_signals(pilot)
        signals = app.screen.query_one("#signals", SelectionList)
        box = signals.scrollable_content_region
        # Under the first signal's tick box, where Textual's own wrapping drew the second box.
        await pilot.click(
            signals, offset=(box.x + 1 - signals.region.x, box.y + 1 - signals.region.y)
        )
        await pilot.pause()
        assert signals.selected == [0]


async def test_the_rubric_on_the_question_screen_shows_a_long_signal_in_full_at_80_columns(
    build_app,
):
    from gpuprep.sessions.question_view import QuestionView
    from gpuprep.tui.screens.question import QuestionScreen

    app = build_app()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(
            QuestionScreen(QuestionView.build(app.bank.questions["fx-long-signals"], app.bank))
        )
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        body = app.screen.query_one("#question-body", VerticalScroll)
        seen: list[str] = []
        while True:
            seen += screen_lines(app)[body.region.y : body.region.bottom]
            if body.scroll_y >= body.max_scroll_y:
                break
            await pilot.press("pagedown")
            await pilot.pause()
        text = " ".join(" ".join(seen).split())
        assert all(signal in text for signal in LONG_SIGNALS)


async def test_under_no_color_a_ticked_signal_reads_differently_from_an_unticked_one(
    build_app, monkeypatch
):
    monkeypatch.setenv("NO_COLOR", "1")
    app = build_app(practice=PracticeFilter(question="fx-long-signals"))
    assert app.no_color
    async with app.run_test(size=SIZE) as pilot:
        await reveal_and_scroll_to_the_signals(pilot)
        signals = app.screen.query_one("#signals", SelectionList)
        await pilot.press("down", "space")
        await pilot.pause()
        assert signals.selected == [1]
        rows = [line.strip(" ▊▎") for line in screen_lines(app)]
        boxes = [row[:3] for row in rows if row[:3] in ("[✓]", "[ ]")]
        assert boxes == ["[ ]", "[✓]", "[ ]"]
