"""The interviewer's records: named interview sets and candidates' scorecards.

A scorecard's scores are one JSON document that is rewritten, in its own transaction, on every
change the interviewer makes: the database always holds what was last on screen, so a killed
app (or a closed terminal) loses nothing. The document's shape belongs to
`gpuprep.sessions.scorecard`; this module only keeps it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gpuprep.store.database import Store


@dataclass(frozen=True)
class InterviewSet:
    """Questions an interviewer means to ask, saved under a name."""

    name: str
    question_ids: tuple[str, ...]
    created_at: datetime
    seed: int | None = None
    """The seed of a generated set (the mock's composition), None for one assembled by hand."""


@dataclass(frozen=True)
class SavedScorecard:
    """One candidate's scorecard as stored."""

    id: int
    candidate: str
    set_name: str
    question_ids: tuple[str, ...]
    created_at: datetime
    updated_at: datetime
    scores: dict[str, Any] = field(default_factory=dict)
    """The scores document (see `sessions.scorecard.Scorecard.to_json`)."""


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("the store keeps UTC datetimes; got a naive one")
    return moment.astimezone(UTC).isoformat()


class ScorecardStore:
    """Interview sets and scorecards in the progress database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- interview sets ----------------------------------------------------------------------

    def save_set(self, interview_set: InterviewSet) -> None:
        """Save a set under its name, replacing one of the same name."""
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO interview_sets (name, question_ids, seed, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET question_ids = excluded.question_ids,"
                " seed = excluded.seed, created_at = excluded.created_at",
                (
                    interview_set.name,
                    json.dumps(list(interview_set.question_ids)),
                    interview_set.seed,
                    _iso(interview_set.created_at),
                ),
            )

    def sets(self) -> list[InterviewSet]:
        """Every saved set, by name."""
        rows = self.store.read(
            "SELECT name, question_ids, seed, created_at FROM interview_sets ORDER BY name"
        )
        return [
            InterviewSet(row[0], tuple(json.loads(row[1])), datetime.fromisoformat(row[3]), row[2])
            for row in rows
        ]

    def interview_set(self, name: str) -> InterviewSet | None:
        return next((s for s in self.sets() if s.name == name), None)

    # -- scorecards ----------------------------------------------------------------------------

    def create(
        self, candidate: str, set_name: str, question_ids: tuple[str, ...], now: datetime
    ) -> int:
        """Start a scorecard and return its id."""
        with self.store.transaction() as db:
            cursor = db.execute(
                "INSERT INTO scorecards (candidate, set_name, question_ids, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (candidate, set_name, json.dumps(list(question_ids)), _iso(now), _iso(now)),
            )
            return int(cursor.lastrowid or 0)

    def save_scores(self, scorecard_id: int, scores: dict[str, Any], now: datetime) -> None:
        """Replace a scorecard's scores document (one transaction)."""
        with self.store.transaction() as db:
            cursor = db.execute(
                "UPDATE scorecards SET scores = ?, updated_at = ? WHERE id = ?",
                (json.dumps(scores, sort_keys=True), _iso(now), scorecard_id),
            )
            if cursor.rowcount != 1:
                raise LookupError(f"no scorecard {scorecard_id} in {self.store.path}")

    def scorecard(self, scorecard_id: int) -> SavedScorecard | None:
        rows = self.store.read(_SELECT + " WHERE id = ?", (scorecard_id,))
        return _saved(rows[0]) if rows else None

    def scorecards(self) -> list[SavedScorecard]:
        """Every scorecard, the most recently changed first."""
        return [
            _saved(row) for row in self.store.read(_SELECT + " ORDER BY updated_at DESC, id DESC")
        ]


_SELECT = (
    "SELECT id, candidate, set_name, question_ids, created_at, updated_at, scores FROM scorecards"
)


def _saved(row: tuple[Any, ...]) -> SavedScorecard:
    return SavedScorecard(
        id=row[0],
        candidate=row[1],
        set_name=row[2],
        question_ids=tuple(json.loads(row[3])),
        created_at=datetime.fromisoformat(row[4]),
        updated_at=datetime.fromisoformat(row[5]),
        scores=json.loads(row[6]),
    )
