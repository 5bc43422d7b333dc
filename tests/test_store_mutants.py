"""The progress store's queries and messages, pinned: filters, order, every field kept, and what
the user is told when the database or its folder is unusable.

Written to kill the mutants `./dev mutate store.database` found alive (issue 19): a filter that
stops filtering, a field not saved or an order reversed is progress silently lost or misread.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Card, Rating, ReviewLog, State

from gpuprep.store.database import Store, StoreError
from gpuprep.store.records import Attempt, DrillResult

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def _attempt(question_id: str, minutes: int, **fields) -> Attempt:
    return Attempt(question_id, "concept", "Good", NOW + timedelta(minutes=minutes), 10.0, **fields)


def test_every_field_of_an_attempt_is_kept(store):
    attempt_id = store.record_attempt(
        Attempt(
            question_id="q",
            kind="estimation",
            verdict="wrong",
            started_at=NOW,
            seconds_taken=12.5,
            answer="3 ms",
            variant={"gpu": "h100_sxm"},
            rating=1,
            signals_hit=(0, 2),
            hints_used=2,
            trap="bits for bytes",
            from_table=True,
        )
    )
    [saved] = store.attempts()
    assert saved == Attempt(
        question_id="q",
        kind="estimation",
        verdict="wrong",
        started_at=NOW,
        seconds_taken=12.5,
        answer="3 ms",
        variant={"gpu": "h100_sxm"},
        rating=1,
        signals_hit=(0, 2),
        hints_used=2,
        id=attempt_id,
        trap="bits for bytes",
        from_table=True,
    )


def test_attempts_are_oldest_first_and_filter_by_question_and_moment(store):
    for question_id, minutes in (("b", 5), ("a", 0), ("a", 10), ("b", 10)):
        store.record_attempt(_attempt(question_id, minutes))
    everything = store.attempts()
    assert [(a.question_id, a.started_at.minute) for a in everything] == [
        ("a", 0),
        ("b", 5),
        ("a", 10),
        ("b", 10),
    ]
    assert [a.started_at.minute for a in store.attempts("a")] == [0, 10]
    since = store.attempts(since=NOW + timedelta(minutes=5))
    assert [(a.question_id, a.started_at.minute) for a in since] == [("b", 5), ("a", 10), ("b", 10)]
    assert [a.started_at.minute for a in store.attempts("b", since=NOW + timedelta(minutes=6))] == [
        10
    ]


def _log(card_id: int, rating: Rating, minutes: int) -> ReviewLog:
    return ReviewLog(card_id, rating, NOW + timedelta(minutes=minutes), 3000)


def test_cards_and_review_logs_round_trip_and_filter(store):
    learning = Card(card_id=7, state=State.Learning, step=0, due=NOW + timedelta(minutes=1))
    store.save_review("q", learning, _log(7, Rating.Again, 1))
    reviewed = Card(
        card_id=8,
        state=State.Review,
        step=None,
        stability=3.5,
        difficulty=6.25,
        due=NOW + timedelta(days=3),
        last_review=NOW,
    )
    store.save_review("r", reviewed, _log(8, Rating.Good, 0))
    assert store.card("q") == learning
    assert store.card("r") == reviewed
    assert store.card("never") is None
    assert store.cards() == {"q": learning, "r": reviewed}
    logs = store.review_logs()
    assert [(q, log.rating, log.review_datetime.minute) for q, log in logs] == [
        ("r", Rating.Good, 0),
        ("q", Rating.Again, 1),
    ]
    assert logs[0][1].card_id == 8 and logs[0][1].review_duration == 3000
    assert [q for q, _log_ in store.review_logs("q")] == ["q"]


def test_a_review_rates_its_attempt_and_an_undo_restores_card_log_and_attempt(store):
    attempt_id = store.record_attempt(_attempt("q", 0, rating=2, signals_hit=(1,), hints_used=1))
    [recorded] = store.attempts()
    first = Card(card_id=5, state=State.Review, stability=2.0, difficulty=5.0, due=NOW)
    store.save_review("q", first, _log(5, Rating.Hard, 0))
    later = Card(
        card_id=5, state=State.Review, stability=9.0, difficulty=4.0, due=NOW + timedelta(days=9)
    )
    log_id = store.save_review(
        "q",
        later,
        _log(5, Rating.Easy, 5),
        attempt=Attempt(
            "q",
            "concept",
            "Good",
            recorded.started_at,
            10.0,
            signals_hit=(0, 1),
            hints_used=2,
            id=attempt_id,
        ),
    )
    [rated] = store.attempts()
    assert (rated.rating, rated.signals_hit, rated.hints_used) == (4, (0, 1), 2)
    assert store.card("q") == later

    store.undo_review("q", first, log_id, attempt_before=recorded)
    assert store.card("q") == first
    assert [log.rating for _q, log in store.review_logs()] == [Rating.Hard]
    [restored] = store.attempts()
    assert (restored.rating, restored.signals_hit, restored.hints_used) == (2, (1,), 1)


def test_undoing_a_first_review_makes_the_question_new_again(store):
    log_id = store.save_review("q", Card(card_id=5, due=NOW), _log(5, Rating.Good, 0))
    store.undo_review("q", None, log_id)
    assert store.card("q") is None
    assert store.review_logs() == []


def test_undoing_a_review_that_is_not_there_changes_nothing(store):
    log_id = store.save_review("q", Card(card_id=5, due=NOW), _log(5, Rating.Good, 0))
    with pytest.raises(ValueError, match=f"no review {log_id} of other to undo"):
        store.undo_review("other", None, log_id)
    with pytest.raises(ValueError, match=f"no review {log_id + 1} of q to undo"):
        store.undo_review("q", None, log_id + 1)
    assert store.card("q") is not None and len(store.review_logs()) == 1


def test_only_a_recorded_attempt_can_be_rated(store):
    with pytest.raises(ValueError, match=r"^only a recorded attempt \(with an id\) can be rated$"):
        store.save_review(
            "q", Card(card_id=5, due=NOW), _log(5, Rating.Good, 0), attempt=_attempt("q", 0)
        )
    assert store.card("q") is None


def test_first_reviewed_since_names_only_questions_taken_up_at_or_after_the_moment(store):
    store.save_review("old", Card(card_id=1, due=NOW), _log(1, Rating.Good, 0))
    store.save_review("old", Card(card_id=1, due=NOW), _log(1, Rating.Good, 20))
    store.save_review("new", Card(card_id=2, due=NOW), _log(2, Rating.Good, 10))
    assert store.first_reviewed_since(NOW + timedelta(minutes=10)) == {"new"}
    assert store.first_reviewed_since(NOW) == {"old", "new"}


def test_plans_are_listed_most_recent_first_and_a_stopped_one_is_gone(store):
    store.start_plan("two-weeks", NOW)
    store.start_plan("one-week", NOW + timedelta(days=1))
    store.start_plan("cram", NOW - timedelta(days=1))
    assert list(store.plan_runs()) == ["one-week", "two-weeks", "cram"]
    assert store.plan_runs()["one-week"] == NOW + timedelta(days=1)
    store.stop_plan("two-weeks")
    assert list(store.plan_runs()) == ["one-week", "cram"]


def test_drill_results_filter_by_drill_oldest_first_and_keep_odd_details_as_text(store):
    def result(drill_id: str, minutes: int, passed: bool) -> DrillResult:
        return DrillResult(
            drill_id=drill_id,
            language="triton",
            submitted_at=NOW + timedelta(minutes=minutes),
            passed=passed,
            summary=f"{drill_id} at {minutes}",
            detail={"file": Path("/x/k.py")},
        )

    ids = [
        store.record_drill_result(result("softmax", 5, True)),
        store.record_drill_result(result("matmul", 0, False)),
        store.record_drill_result(result("softmax", 1, False)),
    ]
    assert [r.id for r in store.drill_results()] == [ids[1], ids[2], ids[0]]
    assert len(set(ids)) == 3 and all(i > 0 for i in ids)
    assert [r.summary for r in store.drill_results()] == [
        "matmul at 0",
        "softmax at 1",
        "softmax at 5",
    ]
    softmax = store.drill_results("softmax")
    assert [(r.passed, r.language) for r in softmax] == [(False, "triton"), (True, "triton")]
    assert softmax[0].detail == {"file": "/x/k.py"}


def test_a_home_that_is_a_file_is_refused_with_what_to_do(tmp_path):
    home = tmp_path / "home"
    home.write_text("not a folder")
    with pytest.raises(StoreError) as caught:
        Store(home / "progress.db")
    assert str(caught.value) == (
        f"cannot create the gpuprep home {home} (a file, not a folder); "
        "set GPUPREP_HOME to a writable folder"
    )


def test_a_corrupt_database_is_moved_aside_under_its_time_and_the_user_is_told(tmp_path):
    path = tmp_path / "progress.db"
    path.write_bytes(b"this is not sqlite" * 100)
    moment = datetime(2026, 11, 30, 9, 5, 7, tzinfo=UTC)
    store = Store(path, now=moment)
    try:
        aside = tmp_path / "progress.db.corrupt-20261130T090507Z"
        assert store.recovered_from == aside
        assert aside.read_bytes().startswith(b"this is not sqlite")
        assert store.recovery_message == (
            "Your progress database could not be read (file is not a database). It was moved to "
            f"{aside} and a new one started at {path}; nothing was deleted."
        )
        assert store.attempts() == []
    finally:
        store.close()


def test_a_healthy_database_has_no_recovery_message(store):
    assert store.recovered_from is None
    assert store.recovery_message is None


def test_naive_datetimes_are_refused_with_the_reason(store):
    naive = Attempt("q", "concept", "Good", datetime(2026, 11, 30, 9, 0), 1.0)
    with pytest.raises(ValueError, match="^the store keeps UTC datetimes; got a naive one$"):
        store.record_attempt(naive)


def test_times_are_stored_in_utc_whatever_the_machine_s_zone(store, monkeypatch):
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        store.record_attempt(_attempt("q", 0))
        assert store.read("SELECT started_at FROM attempts") == [("2026-11-30T09:00:00+00:00",)]
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_store_answers_from_another_thread(store):
    store.record_attempt(_attempt("q", 0))
    seen = []
    worker = threading.Thread(target=lambda: seen.append(len(store.attempts())))
    worker.start()
    worker.join()
    assert seen == [1]


def test_a_read_returns_the_rows_of_its_query_with_its_arguments(store):
    store.record_attempt(_attempt("q", 0))
    store.record_attempt(_attempt("r", 1))
    assert store.read("SELECT question_id FROM attempts WHERE question_id = ?", ("r",)) == [("r",)]


def test_a_home_that_does_not_exist_yet_is_created_with_its_parents(tmp_path):
    path = tmp_path / "new" / "deeper" / "progress.db"
    opened = Store(path)
    try:
        assert path.is_file()
    finally:
        opened.close()
