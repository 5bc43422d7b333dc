"""Stats count the slips: trap hits over graded estimates, and table look-ups apart from accuracy."""

from __future__ import annotations

from datetime import UTC, datetime

from gpuprep.sessions.slips import slips
from gpuprep.sessions.stats import succeeded
from gpuprep.store.records import Attempt

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def attempt(
    verdict: str, trap: str | None = None, *, from_table: bool = False, kind: str = "estimation"
) -> Attempt:
    return Attempt("q", kind, verdict, NOW, 10.0, "x", trap=trap, from_table=from_table)


def test_trap_hits_are_counted_over_graded_estimates_most_hit_first() -> None:
    history = [
        attempt("wrong", "GB for GiB"),
        attempt("wrong", "bits for bytes"),
        attempt("wrong", "GB for GiB"),
        attempt("correct"),
        attempt("invalid"),  # not judged: the user tried again
        attempt("Good", kind="concept"),
    ]
    counted = slips(history)
    assert counted.graded == 4
    assert counted.traps == (("GB for GiB", 2), ("bits for bytes", 1))
    assert counted.sentences()[0] == "You fell for 'GB for GiB' in 2 of 4 graded estimates."


def test_answers_read_from_the_table_are_counted_apart_from_accuracy() -> None:
    table = attempt("correct", from_table=True)
    assert succeeded(table) is None
    assert succeeded(attempt("correct")) is True
    assert slips([table, attempt("wrong")]).sentences() == [
        "1 of 2 graded estimates read a figure from the hardware table (counted apart from accuracy)."
    ]


def test_nothing_to_say_without_slips() -> None:
    assert slips([attempt("correct")]).sentences() == []
