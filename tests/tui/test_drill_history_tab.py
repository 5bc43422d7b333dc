"""The Stats screen's Drills tab: best time per drill and the rung reached, from saved results."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import DataTable, Static, TabbedContent

from gpuprep.harness.report import KernelLine, Mode, Status, SubmitReport, Timing
from gpuprep.store.records import DrillResult

SIZE = (100, 30)


def softmax_run(median_ms: float, status: Status = Status.PASSED) -> dict:
    ladder = [
        KernelLine(name, Status.PASSED, role="rung", language="triton", median_ms=ms)
        for name, ms in (
            ("v0_three_pass", 0.4),
            ("v1_online", 0.2),
            ("v2_fused_loops", 0.12),
            ("v3_tuned_rows", 0.1),
        )
    ]
    report = SubmitReport(
        "softmax",
        "mine.py",
        status,
        mode=Mode.GPU,
        timing=Timing(median_ms, median_ms, median_ms, 0.01, 50),
        ladder=ladder,
    )
    return report.to_json()


async def open_drills_tab(app, pilot) -> DataTable:
    """Stats (F4), its drills tab: the table of each drill's best submission."""
    await pilot.press("f4")
    await pilot.pause()
    app.screen.query_one(TabbedContent).active = "drills-tab"
    await pilot.pause()
    return app.screen.query_one("#drill-best", DataTable)


async def test_the_drills_tab_shows_the_best_time_and_the_rung_it_reached(build_app, clock):
    app = build_app()
    for minutes, (ms, status) in enumerate(
        [(0.3, Status.PASSED), (0.11, Status.PASSED), (0.05, Status.REJECTED)]
    ):
        app.store.record_drill_result(
            DrillResult(
                "softmax",
                "triton",
                clock() + timedelta(minutes=minutes),
                status is Status.PASSED,
                status.value,
                softmax_run(ms, status),
            )
        )
    async with app.run_test(size=SIZE) as pilot:
        table = await open_drills_tab(app, pilot)
        assert table.get_row("softmax") == [
            "softmax",
            "3",
            "2",
            "0.1100",
            "v2_fused_loops",
            "rejected",
        ]
        summary = str(app.screen.query_one("#drill-summary", Static).render())
        assert "3 submissions to 1 drill; 2 timed runs" in summary


async def test_the_drills_tab_shows_a_collective_submission_saved_by_gpuprep_submit(
    build_app, clock
):
    from gpuprep.sessions.drill import DrillSession

    app = build_app()
    # What `gpuprep submit all_reduce FILE --cpu --ranks 2` hands the session (gloo: not timed).
    DrillSession(app.bank, app.store, clock).record_collective(
        "all_reduce",
        {
            "status": "passed",
            "message": "all 7 cases right on 2 ranks",
            "file": "mine.py",
            "ranks": 2,
            "device": "cpu (gloo)",
            "backend": "gloo",
            "cases": [],
            "forbidden_calls": {},
            "traceback": "",
            "elapsed_s": 4.0,
        },
    )
    async with app.run_test(size=SIZE) as pilot:
        table = await open_drills_tab(app, pilot)
        assert table.get_row("all_reduce") == ["all_reduce", "1", "1", "-", "-", "passed"]
