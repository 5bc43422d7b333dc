"""The progress database: one SQLite file in the gpuprep home, written in short transactions.

Every write is its own transaction and the journal is WAL, so a killed app loses at most what
was on screen. A file SQLite cannot read is renamed aside (never deleted) and a fresh database
is started; `Store.recovered_from` then says where the old one went, for the UI to tell the user.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fsrs import Card, ReviewLog

from gpuprep.paths import gpuprep_home
from gpuprep.store.migrations import MIGRATIONS, SCHEMA_VERSION
from gpuprep.store.records import Attempt, DrillResult

DATABASE_NAME = "progress.db"


class StoreError(Exception):
    """The progress database cannot be used; the message says why and what to do."""


def default_path() -> Path:
    """`progress.db` in the gpuprep home (`GPUPREP_HOME`, else the platform's user data dir)."""
    return gpuprep_home() / DATABASE_NAME


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("the store keeps UTC datetimes; got a naive one")
    return moment.astimezone(UTC).isoformat()


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


class Store:
    """The user's progress: attempts, cards, review logs and drill results."""

    def __init__(self, path: Path, *, now: datetime | None = None) -> None:
        self.path = path
        self.recovered_from: Path | None = None
        """Where an unreadable database was moved this session, if one was."""
        self._reason = ""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            why = "a file, not a folder" if path.parent.is_file() else error.strerror or error
            raise StoreError(
                f"cannot create the gpuprep home {path.parent} ({why}); "
                "set GPUPREP_HOME to a writable folder"
            ) from None
        try:
            self._connection = self._connect()
        except sqlite3.OperationalError as error:
            # Cannot open or write (read-only folder or file, locked, disk full): the file may
            # hold good progress, so it is left where it is, never moved aside as corrupt.
            raise StoreError(
                f"cannot open the progress database {path} ({error}); check that the file and "
                "its folder are writable, or set GPUPREP_HOME to a writable folder"
            ) from None
        except sqlite3.DatabaseError as error:
            self.recovered_from = self._move_aside(now or datetime.now(UTC))
            self._reason = str(error)
            self._connection = self._connect()

    @classmethod
    def open(cls, path: Path | None = None) -> Store:
        """Open (creating or migrating) the database at `path`, by default in the gpuprep home."""
        return cls(path or default_path())

    @property
    def recovery_message(self) -> str | None:
        """What to tell the user when the database had to be moved aside, else None."""
        if self.recovered_from is None:
            return None
        return (
            f"Your progress database could not be read ({self._reason}). It was moved to "
            f"{self.recovered_from} and a new one started at {self.path}; nothing was deleted."
        )

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            status = connection.execute("PRAGMA quick_check").fetchone()[0]
            if status != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {status}")
            self._migrate(connection)
        except sqlite3.DatabaseError:
            connection.close()
            raise
        return connection

    def _migrate(self, connection: sqlite3.Connection) -> None:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            connection.close()
            raise StoreError(
                f"{self.path} was written by a newer gpuprep (schema {version}, this one knows "
                f"{SCHEMA_VERSION}); upgrade gpuprep, or point GPUPREP_HOME elsewhere"
            )
        for number in range(version, SCHEMA_VERSION):
            connection.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {number + 1}")
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise

    def _move_aside(self, now: datetime) -> Path:
        stamp = now.strftime("%Y%m%dT%H%M%SZ")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            companion = Path(f"{self.path}{suffix}")
            if companion.exists():
                companion.replace(Path(f"{target}{suffix}"))
        return target

    @property
    def schema_version(self) -> int:
        return int(self._connection.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: all of its statements land, or none do."""
        self._connection.execute("BEGIN IMMEDIATE")
        try:
            yield self._connection
        except BaseException:
            self._connection.execute("ROLLBACK")
            raise
        self._connection.execute("COMMIT")

    def read(self, query: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of one read-only query (for the store modules beside this one)."""
        return self._connection.execute(query, args).fetchall()

    def close(self) -> None:
        self._connection.close()

    # Attempts

    def record_attempt(self, attempt: Attempt) -> int:
        """Save an attempt and return its id."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO attempts (question_id, kind, variant, answer, verdict, rating, signals_hit,"
                " hints_used, started_at, seconds_taken, trap, from_table)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    attempt.question_id,
                    attempt.kind,
                    json.dumps(attempt.variant, sort_keys=True),
                    attempt.answer,
                    attempt.verdict,
                    attempt.rating,
                    json.dumps(list(attempt.signals_hit)),
                    attempt.hints_used,
                    _iso(attempt.started_at),
                    attempt.seconds_taken,
                    attempt.trap,
                    int(attempt.from_table),
                ),
            )
            return int(cursor.lastrowid or 0)

    def attempts(
        self, question_id: str | None = None, *, since: datetime | None = None
    ) -> list[Attempt]:
        """Attempts, oldest first, optionally of one question or since a moment."""
        query = (
            "SELECT id, question_id, kind, variant, answer, verdict, rating, signals_hit,"
            " hints_used, started_at, seconds_taken, trap, from_table FROM attempts WHERE 1=1"
        )
        args: list[object] = []
        if question_id is not None:
            query += " AND question_id = ?"
            args.append(question_id)
        if since is not None:
            query += " AND started_at >= ?"
            args.append(_iso(since))
        rows = self._connection.execute(query + " ORDER BY started_at, id", args).fetchall()
        return [
            Attempt(
                id=row[0],
                question_id=row[1],
                kind=row[2],
                variant=json.loads(row[3]),
                answer=row[4],
                verdict=row[5],
                rating=row[6],
                signals_hit=tuple(json.loads(row[7])),
                hints_used=row[8],
                started_at=_moment(row[9]),
                seconds_taken=row[10],
                trap=row[11],
                from_table=bool(row[12]),
            )
            for row in rows
        ]

    # Cards and review logs

    def save_review(
        self,
        question_id: str,
        card: Card,
        log: ReviewLog,
        *,
        attempt: Attempt | None = None,
    ) -> int:
        """Save a card's new state with its review log (and the attempt it rated) as one write;
        return the review log's id (what `undo_review` removes)."""
        with self.transaction() as db:
            _put_card(db, question_id, card)
            cursor = db.execute(
                "INSERT INTO review_logs (question_id, card_id, rating, review_datetime, review_duration)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    question_id,
                    log.card_id,
                    int(log.rating),
                    _iso(log.review_datetime),
                    log.review_duration,
                ),
            )
            if attempt is not None:
                _put_rating(db, attempt, int(log.rating))
            return int(cursor.lastrowid or 0)

    def undo_review(
        self,
        question_id: str,
        card_before: Card | None,
        log_id: int,
        *,
        attempt_before: Attempt | None = None,
    ) -> None:
        """Take back one `save_review`, as one write: the card as it was (None: the question had
        no card, so it becomes new again), its review log gone, the attempt as before the rating."""
        with self.transaction() as db:
            removed = db.execute(
                "DELETE FROM review_logs WHERE id = ? AND question_id = ?", (log_id, question_id)
            ).rowcount
            if removed != 1:
                raise ValueError(f"no review {log_id} of {question_id} to undo")
            if card_before is None:
                db.execute("DELETE FROM cards WHERE question_id = ?", (question_id,))
            else:
                _put_card(db, question_id, card_before)
            if attempt_before is not None:
                _put_rating(db, attempt_before, attempt_before.rating)

    def first_reviewed_since(self, moment: datetime) -> set[str]:
        """Questions whose first review is at or after `moment` (new questions taken up since)."""
        rows = self._connection.execute(
            "SELECT question_id FROM review_logs GROUP BY question_id"
            " HAVING MIN(review_datetime) >= ?",
            (_iso(moment),),
        ).fetchall()
        return {row[0] for row in rows}

    def cards(self) -> dict[str, Card]:
        """Every card, by question id."""
        rows = self._connection.execute(
            "SELECT question_id, card_id, state, step, stability, difficulty, due, last_review FROM cards"
        ).fetchall()
        return {row[0]: _card(row[1:]) for row in rows}

    def card(self, question_id: str) -> Card | None:
        """The card of one question, or None when it was never rated."""
        row = self._connection.execute(
            "SELECT card_id, state, step, stability, difficulty, due, last_review FROM cards WHERE question_id = ?",
            (question_id,),
        ).fetchone()
        return _card(row) if row else None

    def review_logs(self, question_id: str | None = None) -> list[tuple[str, ReviewLog]]:
        """(question id, review log) pairs, oldest first."""
        query = (
            "SELECT question_id, card_id, rating, review_datetime, review_duration FROM review_logs"
        )
        args: tuple[object, ...] = ()
        if question_id is not None:
            query += " WHERE question_id = ?"
            args = (question_id,)
        rows = self._connection.execute(query + " ORDER BY review_datetime, id", args).fetchall()
        return [
            (
                row[0],
                ReviewLog.from_dict(
                    {
                        "card_id": row[1],
                        "rating": row[2],
                        "review_datetime": row[3],
                        "review_duration": row[4],
                    }
                ),
            )
            for row in rows
        ]

    # Prep plans

    def start_plan(self, plan_id: str, now: datetime) -> None:
        """Start (or restart from day 1) a prep plan at `now`."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO plan_runs (plan_id, started_at) VALUES (?, ?) ON CONFLICT (plan_id)"
                " DO UPDATE SET started_at = excluded.started_at",
                (plan_id, _iso(now)),
            )

    def stop_plan(self, plan_id: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM plan_runs WHERE plan_id = ?", (plan_id,))

    def plan_runs(self) -> dict[str, datetime]:
        """Started plans and when, most recent first."""
        rows = self._connection.execute(
            "SELECT plan_id, started_at FROM plan_runs ORDER BY started_at DESC"
        ).fetchall()
        return {row[0]: _moment(row[1]) for row in rows}

    # Drill results

    def record_drill_result(self, result: DrillResult) -> int:
        """Save a drill submission's result and return its id."""
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO drill_results (drill_id, language, submitted_at, passed, summary, detail)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    result.drill_id,
                    result.language,
                    _iso(result.submitted_at),
                    int(result.passed),
                    result.summary,
                    json.dumps(result.detail, sort_keys=True, default=str),
                ),
            )
            return int(cursor.lastrowid or 0)

    def drill_results(self, drill_id: str | None = None) -> list[DrillResult]:
        """Drill results, oldest first, optionally of one drill."""
        query = "SELECT id, drill_id, language, submitted_at, passed, summary, detail FROM drill_results"
        args: tuple[object, ...] = ()
        if drill_id is not None:
            query += " WHERE drill_id = ?"
            args = (drill_id,)
        rows = self._connection.execute(query + " ORDER BY submitted_at, id", args).fetchall()
        return [
            DrillResult(
                id=row[0],
                drill_id=row[1],
                language=row[2],
                submitted_at=_moment(row[3]),
                passed=bool(row[4]),
                summary=row[5],
                detail=json.loads(row[6]),
            )
            for row in rows
        ]


def _put_card(db: sqlite3.Connection, question_id: str, card: Card) -> None:
    db.execute(
        "INSERT INTO cards (question_id, card_id, state, step, stability, difficulty, due, last_review)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (question_id) DO UPDATE SET"
        " card_id = excluded.card_id, state = excluded.state, step = excluded.step,"
        " stability = excluded.stability, difficulty = excluded.difficulty,"
        " due = excluded.due, last_review = excluded.last_review",
        (
            question_id,
            card.card_id,
            int(card.state),
            card.step,
            card.stability,
            card.difficulty,
            _iso(card.due),
            _iso(card.last_review) if card.last_review else None,
        ),
    )


def _put_rating(db: sqlite3.Connection, attempt: Attempt, rating: int | None) -> None:
    if attempt.id is None:
        raise ValueError("only a recorded attempt (with an id) can be rated")
    db.execute(
        "UPDATE attempts SET rating = ?, signals_hit = ?, hints_used = ? WHERE id = ?",
        (rating, json.dumps(list(attempt.signals_hit)), attempt.hints_used, attempt.id),
    )


def _card(row: tuple[Any, ...]) -> Card:
    return Card.from_dict(
        {
            "card_id": row[0],
            "state": row[1],
            "step": row[2],
            "stability": row[3],
            "difficulty": row[4],
            "due": row[5],
            "last_review": row[6],
        }
    )
