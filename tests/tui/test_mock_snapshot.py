"""The mock interview's screen as a candidate sees it at 80x24, over the fixture bank: the
countdown and the strip of sections on top, the open section's question and answer box below.
(Update with `pytest --snapshot-update`.) Frozen: the clock, the cursor blink."""

from __future__ import annotations

from gpuprep.sessions.mock_plan import MockPlan, MockSection
from gpuprep.sessions.mock_run import MockRun
from gpuprep.store.database import Store


def test_a_mock_section_with_an_answer_typed_at_80x24(
    build_app, fixture_bank, clock, store_path, snap_compare
):
    plan = MockPlan(
        45,
        "general",
        None,
        1,
        (),
        (
            MockSection("concept", "Warm-up concepts", ("fx-coalescing",), 5),
            MockSection("estimation", "Estimation", ("fx-copy-time",), 10),
        ),
    )
    store = Store(store_path)
    run = MockRun.begin(store, fixture_bank, plan, clock=clock, now=clock)

    assert snap_compare(build_app(mock=run), press=[*"32-byte sectors"], terminal_size=(80, 24))
    store.close()
