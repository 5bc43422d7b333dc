"""An estimation attempt keeps the trap it fell into and whether it read the hardware table."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from gpuprep.store.database import Store
from gpuprep.store.records import Attempt

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_the_trap_and_the_table_flag_survive_reopening(tmp_path):
    path = tmp_path / "progress.db"
    store = Store(path)
    store.record_attempt(
        Attempt(
            "pcie-copy", "estimation", "wrong", NOW, 30.0, "125 ms", trap="both PCIe directions"
        )
    )
    store.record_attempt(
        Attempt(
            "gemm-time", "estimation", "correct", NOW, 20.0, "x / gpu.bf16_dense", from_table=True
        )
    )
    store.close()
    reopened = Store(path)
    first, second = reopened.attempts()
    assert (first.trap, first.from_table) == ("both PCIe directions", False)
    assert (second.trap, second.from_table) == (None, True)
    reopened.close()


def test_attempts_saved_before_the_migration_read_as_no_trap(tmp_path):
    path = tmp_path / "progress.db"
    Store(path).close()
    # An attempt written by an older gpuprep, which knew neither column.
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO attempts (question_id, kind, verdict, started_at, seconds_taken)"
            " VALUES ('q', 'estimation', 'close', ?, 1.0)",
            (NOW.isoformat(),),
        )
    store = Store(path)
    (old,) = store.attempts()
    assert old.trap is None and old.from_table is False
    store.close()
