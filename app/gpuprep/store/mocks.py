"""Mock interviews in the progress database: the state to resume from, then the report.

A mock's state is one JSON document rewritten, in its own transaction, on every change (an
answer typed, a section closed, a score given) and every few seconds while a section runs, with
the time each section has used so far: a killed app resumes with the time it had used, not the
time since it began. Once the candidate has scored it, the report is saved beside the state and
the mock is finished. The documents' shapes belong to `gpuprep.sessions.mock` and
`gpuprep.sessions.mock_report`; this module only keeps them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from gpuprep.store.database import Store

_COLUMNS = "id, started_at, updated_at, finished_at, minutes, track, seed, state, report, score"


@dataclass(frozen=True)
class SavedMock:
    """One mock interview as stored."""

    id: int
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    """When its report was saved (None: interrupted or still running)."""
    minutes: int
    track: str
    seed: int
    state: dict[str, Any]
    """The session's snapshot (see `MockSession.snapshot`)."""
    report: dict[str, Any] | None
    """The report's JSON once finished (see `MockReport.to_json`)."""
    score: float | None
    """The report's self-score, 1-4 (None: unfinished, or nothing was self-scored)."""

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("the store keeps UTC datetimes; got a naive one")
    return moment.astimezone(UTC).isoformat()


def _saved(row: tuple[Any, ...]) -> SavedMock:
    return SavedMock(
        id=row[0],
        started_at=datetime.fromisoformat(row[1]),
        updated_at=datetime.fromisoformat(row[2]),
        finished_at=datetime.fromisoformat(row[3]) if row[3] else None,
        minutes=row[4],
        track=row[5],
        seed=row[6],
        state=json.loads(row[7]),
        report=json.loads(row[8]) if row[8] else None,
        score=row[9],
    )


class MockStore:
    """Mock interviews in the progress database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, state: dict[str, Any], now: datetime) -> int:
        """Save a new mock's first state; its id."""
        plan = state["plan"]
        with self.store.transaction() as db:
            cursor = db.execute(
                "INSERT INTO mocks (started_at, updated_at, minutes, track, seed, state)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    _iso(now),
                    _iso(now),
                    plan["minutes"],
                    plan["track"],
                    plan["seed"],
                    json.dumps(state, sort_keys=True),
                ),
            )
            return int(cursor.lastrowid or 0)

    def save_state(self, mock_id: int, state: dict[str, Any], now: datetime) -> None:
        """Rewrite a mock's state (one transaction: the old state or the new, never half)."""
        with self.store.transaction() as db:
            cursor = db.execute(
                "UPDATE mocks SET state = ?, updated_at = ? WHERE id = ?",
                (json.dumps(state, sort_keys=True), _iso(now), mock_id),
            )
            if cursor.rowcount != 1:
                raise KeyError(f"no mock #{mock_id} in {self.store.path}")

    def finish(
        self,
        mock_id: int,
        state: dict[str, Any],
        report: dict[str, Any],
        score: float | None,
        now: datetime,
    ) -> None:
        """Save the last state and the report together: the mock is then finished."""
        with self.store.transaction() as db:
            cursor = db.execute(
                "UPDATE mocks SET state = ?, report = ?, score = ?, updated_at = ?, finished_at = ?"
                " WHERE id = ?",
                (
                    json.dumps(state, sort_keys=True),
                    json.dumps(report, sort_keys=True),
                    score,
                    _iso(now),
                    _iso(now),
                    mock_id,
                ),
            )
            if cursor.rowcount != 1:
                raise KeyError(f"no mock #{mock_id} in {self.store.path}")

    def get(self, mock_id: int) -> SavedMock | None:
        rows = self.store.read(f"SELECT {_COLUMNS} FROM mocks WHERE id = ?", (mock_id,))
        return _saved(rows[0]) if rows else None

    def all(self) -> list[SavedMock]:
        """Every mock, oldest first."""
        return [_saved(row) for row in self.store.read(f"SELECT {_COLUMNS} FROM mocks ORDER BY id")]

    def latest_unfinished(self) -> SavedMock | None:
        """The mock most recently worked on that has no report yet (the one `--resume` carries on)."""
        rows = self.store.read(
            f"SELECT {_COLUMNS} FROM mocks WHERE finished_at IS NULL"
            " ORDER BY updated_at DESC, id DESC LIMIT 1"
        )
        return _saved(rows[0]) if rows else None

    def queue_for_review(
        self, question_ids: list[str], card_ids: dict[str, int], now: datetime
    ) -> int:
        """Put questions in the spaced-repetition queue, due `now`: a question never reviewed gets
        a new card (id from `card_ids`), one already scheduled later is brought forward; one due
        sooner is left as it is. Returns how many were queued or brought forward."""
        moved = 0
        with self.store.transaction() as db:
            for question_id in question_ids:
                cursor = db.execute(
                    "INSERT INTO cards (question_id, card_id, state, step, due) VALUES (?, ?, 1, 0, ?)"
                    " ON CONFLICT (question_id) DO UPDATE SET due = excluded.due"
                    " WHERE cards.due > excluded.due",
                    (question_id, card_ids[question_id], _iso(now)),
                )
                moved += cursor.rowcount
        return moved
