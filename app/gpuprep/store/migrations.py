"""The schema of the progress database, as an ordered list of migrations.

`PRAGMA user_version` holds how many migrations a database has had. A new release appends a
migration; it never edits one that has shipped, because users' databases already ran it.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: attempts, cards, review logs, drill results.
    """
    CREATE TABLE attempts (
        id            INTEGER PRIMARY KEY,
        question_id   TEXT NOT NULL,
        kind          TEXT NOT NULL,
        variant       TEXT NOT NULL DEFAULT '{}',
        answer        TEXT NOT NULL DEFAULT '',
        verdict       TEXT NOT NULL,
        rating        INTEGER,
        signals_hit   TEXT NOT NULL DEFAULT '[]',
        hints_used    INTEGER NOT NULL DEFAULT 0,
        started_at    TEXT NOT NULL,
        seconds_taken REAL NOT NULL
    );
    CREATE INDEX attempts_by_question ON attempts (question_id);
    CREATE INDEX attempts_by_time ON attempts (started_at);

    CREATE TABLE cards (
        question_id TEXT PRIMARY KEY,
        card_id     INTEGER NOT NULL UNIQUE,
        state       INTEGER NOT NULL,
        step        INTEGER,
        stability   REAL,
        difficulty  REAL,
        due         TEXT NOT NULL,
        last_review TEXT
    );
    CREATE INDEX cards_by_due ON cards (due);

    CREATE TABLE review_logs (
        id              INTEGER PRIMARY KEY,
        question_id     TEXT NOT NULL,
        card_id         INTEGER NOT NULL,
        rating          INTEGER NOT NULL,
        review_datetime TEXT NOT NULL,
        review_duration INTEGER
    );
    CREATE INDEX review_logs_by_question ON review_logs (question_id);

    CREATE TABLE drill_results (
        id           INTEGER PRIMARY KEY,
        drill_id     TEXT NOT NULL,
        language     TEXT NOT NULL,
        submitted_at TEXT NOT NULL,
        passed       INTEGER NOT NULL,
        summary      TEXT NOT NULL DEFAULT '',
        detail       TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX drill_results_by_drill ON drill_results (drill_id);
    """,
    # 2: prep plans the user has started, so the home screen can say which day is today.
    """
    CREATE TABLE plan_runs (
        plan_id    TEXT PRIMARY KEY,
        started_at TEXT NOT NULL
    );
    """,
    # 3: the interviewer's saved interview sets and the candidates' scorecards (the scores are a
    # JSON document rewritten on every change, so a crash loses nothing that was on screen).
    """
    CREATE TABLE interview_sets (
        name         TEXT PRIMARY KEY,
        question_ids TEXT NOT NULL,
        seed         INTEGER,
        created_at   TEXT NOT NULL
    );

    CREATE TABLE scorecards (
        id           INTEGER PRIMARY KEY,
        candidate    TEXT NOT NULL,
        set_name     TEXT NOT NULL DEFAULT '',
        question_ids TEXT NOT NULL,
        created_at   TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        scores       TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # 4: mock interviews: the state to resume from (rewritten on every change, with the time each
    # section has used), and the report once the candidate has scored it.
    """
    CREATE TABLE mocks (
        id          INTEGER PRIMARY KEY,
        started_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        finished_at TEXT,
        minutes     INTEGER NOT NULL,
        track       TEXT NOT NULL,
        seed        INTEGER NOT NULL,
        state       TEXT NOT NULL,
        report      TEXT,
        score       REAL
    );
    CREATE INDEX mocks_unfinished ON mocks (finished_at, updated_at);
    """,
    # 5: the trap an estimation answer fell into (its name, for Stats), and whether the answer
    # read a figure from the hardware table instead of recalling it (closed book).
    """
    ALTER TABLE attempts ADD COLUMN trap TEXT;
    ALTER TABLE attempts ADD COLUMN from_table INTEGER NOT NULL DEFAULT 0;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
