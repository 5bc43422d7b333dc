"""The mock's drill pane names the mock's keys (ctrl+o, ctrl+r) in all it says: the letter keys
of practice (e, x) would type into the answer box there."""

from __future__ import annotations

from textual.widgets import Static

from gpuprep.sessions.drill import DrillSession
from gpuprep.sessions.mock_plan import MockPlan, MockSection
from gpuprep.sessions.mock_run import MockRun
from gpuprep.store.database import Store

from .test_coding_item import FakeHarness, builtin_bank, opened  # noqa: F401 (fixtures)
from .test_mock_screen import clock_line, until

SIZE = (100, 30)


async def test_the_mocks_drill_pane_names_ctrl_o_and_ctrl_r(
    builtin_bank,  # noqa: F811
    clock,
    store_path,
    opened,  # noqa: F811
):
    from gpuprep.tui.app import make_app

    drill = next(
        q
        for q in builtin_bank.questions.values()
        if q.kind == "coding" and q.drill in builtin_bank.drills
    )
    plan = MockPlan(
        45, "kernel", None, 1, (), (MockSection("coding", "Kernel drill", (drill.id,), 15),)
    )
    store = Store(store_path)
    judge = FakeHarness(AssertionError("nothing is written yet: the judge is not called"))
    run = MockRun.begin(store, builtin_bank, plan, clock=clock, now=clock)
    app = make_app(
        bank=builtin_bank,
        store=store,
        clock=clock,
        gpu=None,
        cursor_blink=False,
        detect_gpu=False,
        mock=run,
        drill_session=DrillSession(builtin_bank, store, clock, harness=judge),
    )
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
