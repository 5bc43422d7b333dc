"""The mock's drill pane names the mock's keys (ctrl+o, ctrl+r) in all it says: the letter keys
of practice (e, x) would type into the answer box there."""

from __future__ import annotations

from textual.widgets import Static

from .test_coding_item import FakeHarness, builtin_bank, opened  # noqa: F401 (fixtures)
from .test_mock_screen import clock_line, mock_drill_app, until

SIZE = (100, 30)


async def test_the_mocks_drill_pane_names_ctrl_o_and_ctrl_r(
    builtin_bank,  # noqa: F811
    clock,
    store_path,
    opened,  # noqa: F811
):
    judge = FakeHarness(AssertionError("nothing is written yet: the judge is not called"))
    app, store, _run, drill = mock_drill_app(builtin_bank, clock, store_path, harness=judge)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "Kernel drill (1/1)" in clock_line(app), "the drill")
        status = app.screen.query_one("#coding-status", Static)
        keys_line = str(status.render()).splitlines()[-1]
        await pilot.press("ctrl+r")
        await pilot.pause()
        warned = [str(n.message) for n in app._notifications]
        await pilot.press("ctrl+o")
        await pilot.pause()
        after_editing = str(status.render())
    store.close()
    assert keys_line == "ctrl+o: write the starter and open $EDITOR  ·  ctrl+r: run the harness"
    assert warned == ["Write the starter first (ctrl+o)."] and judge.calls == []
    assert opened.read_text().strip().endswith("starter_triton.py")
    assert after_editing.endswith("Press ctrl+r to run the harness.")
