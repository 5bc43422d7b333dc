"""The keys a drill shows at 80x24, in practice and in the mock: every one is drawn whole (f1
Help used to end up under the command-palette key), and the two keys left out of these footers
(ctrl+q, ctrl+p) still work."""

from __future__ import annotations

from textual.command import CommandPalette

from gpuprep.sessions.practice import PracticeFilter
from gpuprep.store.database import Store

from .test_coding_item import builtin_bank  # noqa: F401 (a fixture)
from .test_mock_screen import clock_line, mock_drill_app, until
from .test_reviews_keys import NARROW, footer, footer_width


async def test_every_key_a_practice_drill_shows_fits_80_columns(builtin_bank, clock):  # noqa: F811
    from gpuprep.tui.app import make_app

    store = Store.open()
    app = make_app(
        bank=builtin_bank,
        store=store,
        clock=clock,
        practice=PracticeFilter(kind="coding"),
        cursor_blink=False,
        detect_gpu=False,
    )
    seen: dict[str, tuple[list[str], int]] = {}
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        seen["asking"] = (footer(app), footer_width(app))
        # Onto the rating buttons: the footer says what Enter rates.
        await pilot.press("space", "tab")
        await pilot.pause()
        seen["revealed"] = (footer(app), footer_width(app))
        await pilot.press("1")  # the next drill; this rating can be undone
        await pilot.pause()
        await pilot.press("space", "tab")
        await pilot.pause()
        # The most a drill shows at once: Enter's rating, the ratings, undo, skip, edit and run.
        seen["revealed, undo possible"] = (footer(app), footer_width(app))
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    store.close()
    assert seen["revealed, undo possible"][0] == [
        "enter Again", "esc End", "1234 Rate", "u Undo", "n Skip", "e Edit", "x Run", "f1 Help"
    ]  # fmt: skip
    for state, (keys, width) in seen.items():
        assert width <= 80, (state, width, keys)
        assert keys[-1] == "f1 Help", state


async def test_every_key_a_mock_drill_shows_fits_80_columns(builtin_bank, clock, store_path):  # noqa: F811
    app, store, _run, _drill = mock_drill_app(builtin_bank, clock, store_path)
    async with app.run_test(size=NARROW) as pilot:
        await until(pilot, lambda: "Kernel drill (1/1)" in clock_line(app), "the drill")
        await pilot.pause()
        keys, width = footer(app), footer_width(app)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    store.close()
    assert keys == ["^n Next section", "^o Edit", "^r Run", "esc Pause & leave", "f1 Help"]
    assert width <= 80
